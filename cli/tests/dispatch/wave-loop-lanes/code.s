// ACO's divergent loop (one wave per workgroup): each lane leaves when its
// own counter v4 reaches v6 = id % 8 + workgroup id (`s_andn2_b64 exec,
// exec, vcc` + `s_cbranch_execz` to the exit), the leaving lanes collect in
// a break mask s[2:3], and the wave's iteration count s12 (scalar state
// written in the loop) is read after EXEC is restored. The loop runs until
// no lane is active: every lane stores the wave's count in v5's high half.
.include "loop-entry.inc"
v_and_b32_e32 v6, 7, v3
v_add_nc_u32_e32 v6, s5, v6
s_mov_b64 s[0:1], exec
s_mov_b64 s[2:3], 0
s_mov_b32 s12, 0
loop:
s_add_u32 s12, s12, 1
v_add_nc_u32_e32 v4, 1, v4
v_mul_lo_u32 v1, v1, 3
v_cmp_le_u32_e32 vcc, v6, v4
s_or_b64 s[2:3], s[2:3], vcc
s_andn2_b64 exec, exec, vcc
s_cbranch_execz exit
s_branch loop
exit:
s_mov_b64 exec, s[0:1]
v_cndmask_b32_e64 v5, 0, 1, s[2:3]
v_lshl_add_u32 v5, s12, 16, v5
.include "loop-store.inc"
