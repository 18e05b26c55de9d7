// A continue (a second back edge) on even counts; the exit is the latch.
.include "loop-entry.inc"
s_mov_b32 s12, 0
s_add_u32 s13, s5, s6
loop:
v_mul_lo_u32 v1, v1, 5
s_add_u32 s12, s12, 1
s_and_b32 s14, s12, 1
s_cmp_eq_u32 s14, 0
s_cbranch_scc1 loop
v_add_nc_u32_e32 v1, s12, v1
v_add_nc_u32_e32 v4, 1, v4
s_cmp_lt_u32 s12, s13
s_cbranch_scc1 loop
v_mov_b32_e32 v5, s12
.include "loop-store.inc"
