// ACO's shape of a uniform loop with per-lane `continue` and `break` (one
// wave per workgroup), as in the developer set's multi-draw-indirect-cull:
// for j in 0..6 (s12) the lanes with j == id % 4 skip the body (an exec
// region to the latch), the others update v1 and v4 and break once v4
// reaches v6 = id % 4 + workgroup id (collected in s[2:3], removed from the loop mask
// s[14:15]; the SCC of that s_andn2 leaves the loop when no lane is left);
// the latch restores EXEC to the loop mask. The wave's last j is stored.
.include "loop-entry.inc"
v_and_b32_e32 v6, 3, v3
v_add_nc_u32_e32 v6, s5, v6
s_mov_b64 s[20:21], exec
s_mov_b64 s[14:15], exec
s_mov_b64 s[2:3], 0
s_mov_b32 s12, 0
v_mov_b32_e32 v7, 0
head:
s_cmp_ge_u32 s12, 6
s_cbranch_scc1 exit
v_and_b32_e32 v7, 3, v3
v_cmp_ne_u32_e32 vcc, s12, v7
s_and_saveexec_b64 s[16:17], vcc
s_cbranch_execz latch
v_mad_u32_u24 v1, v1, 3, s12
v_add_nc_u32_e32 v4, 1, v4
v_cmp_le_u32_e32 vcc, v6, v4
s_or_b64 s[2:3], s[2:3], vcc
s_andn2_b64 s[14:15], s[14:15], vcc
s_cbranch_scc0 exit
latch:
s_mov_b64 exec, s[14:15]
s_add_u32 s12, s12, 1
s_branch head
exit:
s_mov_b64 exec, s[20:21]
v_cndmask_b32_e64 v5, 0, 1, s[2:3]
v_lshl_add_u32 v5, s12, 16, v5
.include "loop-store.inc"
