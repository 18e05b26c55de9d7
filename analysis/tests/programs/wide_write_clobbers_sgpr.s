// Negative control: the high half of a 64-bit SGPR write is the copied
// word.
s_bfm_b64 s[0:1], s3, 0
s_bitcmp1_b32 s3, 6
s_cselect_b64 exec, -1, s[0:1]
s_mov_b32 s1, s9
s_not_b64 s[0:1], s[6:7]
v_add_nc_u32_e32 v1, s1, v5
v_cvt_f64_i32_e32 v[2:3], v4
buffer_load_dwordx4 v[4:7], v1, s[20:23], 0 idxen
s_endpgm
