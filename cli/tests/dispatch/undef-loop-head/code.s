// A register undefined on entry to a loop and defined on its back edge
// (ACO's loop-head phi with an undefined operand): v7 is written at the top
// of the body before any read, v8's low half is written by a 16-bit
// add (keeping its undefined high half) and only that half is read (by
// `v_pack_b32_f16`).
// The loop runs inside a per-lane region (lanes 0..47), so the undefined
// values also stay in the inactive lanes of its selects.
.include "loop-entry.inc"
s_mov_b32 s12, 0
s_add_u32 s13, s5, s6
v_cmp_gt_u32_e32 vcc, 48, v0
s_and_saveexec_b64 s[14:15], vcc
s_cbranch_execz done
loop:
v_mul_lo_u32 v7, v3, s12
v_add_nc_u32_e32 v7, 5, v7
v_add_nc_u32_e32 v1, v7, v1
v_xor_b32_e32 v4, v7, v4
v_add_f16_e32 v8, 1.0, v7
v_pack_b32_f16 v8, v8, 0
v_add_nc_u32_e32 v5, v8, v5
s_add_u32 s12, s12, 1
s_cmp_ge_u32 s12, s13
s_cbranch_scc0 loop
done:
s_or_b64 exec, exec, s[14:15]
.include "loop-store.inc"
