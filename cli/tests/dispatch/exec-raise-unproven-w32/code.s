// An EXEC raise the translation cannot prove (wave32, a workgroup of two
// waves, so the per-lane model is the only one): inside the region of a
// v_cmpx (the lanes with id % 4 == 0) `s_mov_b32 exec_lo, s0` turns every
// lane of the wave back on, so the hardware adds 1000 in every lane while a
// per-lane region would add it only in the lanes that entered. Refused
// unless the negative control accepts unproven raises.
.include "loop-entry.inc"
v_and_b32_e32 v6, 3, v3
s_mov_b32 s0, exec_lo
v_cmpx_eq_u32_e32 0, v6
s_cbranch_execz skip
s_mov_b32 exec_lo, s0
v_add_nc_u32_e32 v1, 1000, v1
skip:
s_mov_b32 exec_lo, s0
.include "loop-store.inc"
