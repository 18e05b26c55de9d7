// Not a program ACO makes: v7 is undefined on entry to the loop and read
// (added into v1) before the body writes it, so the first iteration uses
// the undefined value. The translator must refuse it.
.include "loop-entry.inc"
s_mov_b32 s12, 0
s_add_u32 s13, s5, s6
loop:
v_add_nc_u32_e32 v1, v7, v1
v_mul_lo_u32 v7, v3, s12
s_add_u32 s12, s12, 1
s_cmp_ge_u32 s12, s13
s_cbranch_scc0 loop
.include "loop-store.inc"
