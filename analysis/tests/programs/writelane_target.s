// Negative control: v_writelane_b32 writes one lane of the index whatever
// exec is.
s_bfm_b64 s[0:1], s3, 0
s_bitcmp1_b32 s3, 6
s_cselect_b64 exec, -1, s[0:1]
v_mov_b32_e64 v1, v5
v_add_nc_u32_e32 v0, s9, v1
v_writelane_b32 v0, s1, 0
buffer_load_dwordx4 v[4:7], v0, s[20:23], 0 idxen
s_endpgm
