// A while loop: the exit is the branch at its head (no iteration in
// workgroup 0).
.include "loop-entry.inc"
s_mov_b32 s12, 0
loop:
s_cmp_ge_u32 s12, s5
s_cbranch_scc1 done
v_mul_lo_u32 v1, v1, 3
v_add_nc_u32_e32 v1, s12, v1
s_add_u32 s12, s12, 1
s_branch loop
done:
v_mov_b32_e32 v4, s12
.include "loop-store.inc"
