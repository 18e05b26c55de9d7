// A write under a narrowed exec is read under the same exec: the lanes
// that read it all wrote it.
s_bfm_b64 s[0:1], s3, 0
s_bitcmp1_b32 s3, 6
s_cselect_b64 exec, -1, s[0:1]
v_mov_b32_e32 v0, 0
s_and_saveexec_b64 s[30:31], s[16:17]
s_cbranch_execz 3
v_add_nc_u32_e32 v0, s9, v5
buffer_load_dwordx4 v[4:7], v0, s[20:23], 0 idxen
s_or_b64 exec, exec, s[30:31]
s_endpgm
