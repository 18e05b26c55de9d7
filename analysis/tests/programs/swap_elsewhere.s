// v_swap_b32 of two other registers leaves the index alone.
s_bfm_b64 s[0:1], s3, 0
s_bitcmp1_b32 s3, 6
s_cselect_b64 exec, -1, s[0:1]
v_add_nc_u32_e32 v0, s9, v5
v_swap_b32 v1, v2
v_swap_b32 v1, v2
buffer_load_dwordx4 v[4:7], v0, s[20:23], 0 idxen
s_endpgm
