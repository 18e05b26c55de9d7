// v_swap_b32 moves both registers: a second swap puts the index back.
s_bfm_b64 s[0:1], s3, 0
s_bitcmp1_b32 s3, 6
s_cselect_b64 exec, -1, s[0:1]
v_add_nc_u32_e32 v0, s9, v5
v_swap_b32 v0, v1
v_swap_b32 v0, v1
buffer_load_dwordx4 v[4:7], v0, s[20:23], 0 idxen
s_endpgm
