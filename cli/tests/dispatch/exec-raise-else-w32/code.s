// ACO's divergent if/else shapes inside a per-lane exec region (as in the
// developer set's fragment-density-map compute shader), in wave32 with a
// workgroup of two waves (so the per-lane model is the only one):
// `if (!(id % 8 < 5))` as s_and_saveexec + `s_andn2_b32 exec_lo, saved,
// exec_lo`; inside it a v_cmpx region with an if/else (`s_andn2_b32
// exec_lo, s12, exec_lo` turns on the else lanes, `s_mov_b32 exec_lo, s12`
// restores), and the cmpx's else (`s_andn2_b32 exec_lo, s2, exec_lo`).
// Every raise turns on only lanes that were active at the branches around
// it.
.include "loop-entry.inc"
v_and_b32_e32 v6, 7, v3
v_cmp_gt_u32_e32 vcc_lo, 5, v6
s_and_saveexec_b32 s0, vcc_lo
s_andn2_b32 exec_lo, s0, exec_lo
s_cbranch_execz done
s_mov_b32 s2, exec_lo
v_and_b32_e32 v7, 3, v3
v_cmpx_ne_u32_e32 0, v7
s_cbranch_execz other
v_cmp_gt_u32_e32 vcc_lo, s6, v7
s_and_saveexec_b32 s12, vcc_lo
v_add_nc_u32_e32 v1, 100, v1
s_andn2_b32 exec_lo, s12, exec_lo
s_cbranch_execz join
v_add_nc_u32_e32 v4, 200, v4
join:
s_mov_b32 exec_lo, s12
v_add_nc_u32_e32 v5, 1, v5
other:
s_andn2_b32 exec_lo, s2, exec_lo
v_mov_b32_e32 v5, 7
s_mov_b32 exec_lo, s2
v_add_nc_u32_e32 v5, 10, v5
done:
s_mov_b32 exec_lo, s0
.include "loop-store.inc"
