// Copies of the id (v_mov_b32), of the word (s_mov_b32) and of the
// descriptor (s_mov_b64 pairs) keep their sources.
s_bfm_b64 s[0:1], s3, 0
s_bitcmp1_b32 s3, 6
s_cselect_b64 exec, -1, s[0:1]
s_mov_b32 s0, s9
s_mov_b32 s1, s0
s_mov_b64 s[24:25], s[20:21]
s_mov_b64 s[26:27], s[22:23]
v_mov_b32_e32 v1, v5
v_mov_b32_e32 v2, v1
v_add_nc_u32_e32 v3, s1, v2
buffer_load_dwordx4 v[4:7], v3, s[24:27], 0 idxen
s_endpgm
