// A register defined on one edge into a join and undefined on the other:
// v7 is written only in the odd lanes' region, and read again only in a
// second region of the same lanes (ACO's phi with an undefined operand).
.include "loop-entry.inc"
v_and_b32_e32 v6, 1, v0
v_cmp_eq_u32_e32 vcc, 1, v6
s_and_saveexec_b64 s[14:15], vcc
s_cbranch_execz join1
v_mul_lo_u32 v7, v3, 7
v_add_nc_u32_e32 v7, 3, v7
join1:
s_or_b64 exec, exec, s[14:15]
v_add_nc_u32_e32 v4, 1, v4
s_and_saveexec_b64 s[14:15], vcc
s_cbranch_execz join2
v_mov_b32_e32 v5, v7
join2:
s_or_b64 exec, exec, s[14:15]
.include "loop-store.inc"
