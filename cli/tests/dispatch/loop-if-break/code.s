// A break inside an if that has code after it, in a loop whose back edge
// is an s_branch.
.include "loop-entry.inc"
s_mov_b32 s12, 0
s_add_u32 s13, s5, s6
loop:
v_add_nc_u32_e32 v1, s12, v1
s_add_u32 s12, s12, 1
s_cmp_lt_u32 s12, 3
s_cbranch_scc1 skip
v_xor_b32_e32 v1, 0x55, v1
s_cmp_ge_u32 s12, s13
s_cbranch_scc1 done
v_add_nc_u32_e32 v4, 1, v4
skip:
v_mul_lo_u32 v1, v1, 3
s_branch loop
done:
v_mov_b32_e32 v5, s12
.include "loop-store.inc"
