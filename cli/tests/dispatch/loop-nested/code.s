// Nested loops; the inner one breaks out of both.
.include "loop-entry.inc"
s_mov_b32 s12, 0
s_add_u32 s15, s5, 4
outer:
s_mov_b32 s13, 0
inner:
v_add_nc_u32_e32 v1, s13, v1
s_add_u32 s13, s13, 1
s_add_u32 s14, s12, s13
s_cmp_ge_u32 s14, s15
s_cbranch_scc1 broke
s_cmp_lt_u32 s13, 3
s_cbranch_scc1 inner
v_mul_lo_u32 v1, v1, 7
s_add_u32 s12, s12, 1
s_cmp_lt_u32 s12, s6
s_cbranch_scc1 outer
v_mov_b32_e32 v4, 1
s_branch store
broke:
v_mov_b32_e32 v4, s14
v_mov_b32_e32 v5, s12
.include "loop-store.inc"
