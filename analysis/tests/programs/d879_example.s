// D879's example: the vertex id plus user-data word 5 indexes the
// descriptor in user-data words 12..15. NGG: exec is first set to the
// vertex lanes from merged_wave_info, as RADV does.
s_bfm_b64 s[0:1], s3, 0
s_bitcmp1_b32 s3, 6
s_cselect_b64 exec, -1, s[0:1]
v_add_nc_u32_e32 v5, s13, v5
buffer_load_format_xyzw v[0:3], v5, s[20:23], 0 idxen
s_endpgm
