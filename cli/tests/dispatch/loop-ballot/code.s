// A ballot count (s_bcnt1 of a lane mask, through workgroup memory) inside a
// loop left by a break in its middle and by a while-style exit at its head.
.include "loop-entry.inc"
s_mov_b32 s12, 0
s_add_u32 s13, s5, s6
loop:
s_cmp_ge_u32 s12, s4
s_cbranch_scc1 done
v_cmp_gt_u32_e32 vcc, s12, v0
s_bcnt1_i32_b64 s14, vcc
v_add_nc_u32_e32 v1, s14, v1
s_add_u32 s12, s12, 1
s_cmp_ge_u32 s12, s13
s_cbranch_scc1 done
v_mul_lo_u32 v1, v1, 3
v_add_nc_u32_e32 v4, 1, v4
s_branch loop
done:
v_mov_b32_e32 v5, s14
.include "loop-store.inc"
