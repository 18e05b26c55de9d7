// Two exits to different targets; each target reads values the body made.
.include "loop-entry.inc"
s_mov_b32 s12, 0
s_add_u32 s15, s5, 2
loop:
v_add_nc_u32_e32 v1, s12, v1
s_add_u32 s12, s12, 1
s_mul_i32 s14, s12, s12
s_cmp_ge_u32 s14, s4
s_cbranch_scc1 exit_a
v_xor_b32_e32 v1, s12, v1
s_cmp_ge_u32 s12, s15
s_cbranch_scc1 exit_b
s_branch loop
exit_a:
v_add_nc_u32_e32 v4, s14, v3
v_mov_b32_e32 v5, 0xa
s_branch store
exit_b:
v_mov_b32_e32 v4, s12
v_mov_b32_e32 v5, 0xb
.include "loop-store.inc"
