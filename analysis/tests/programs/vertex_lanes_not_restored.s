// Negative control: the access runs with every lane active.
s_bfm_b64 s[0:1], s3, 0
s_bitcmp1_b32 s3, 6
s_cselect_b64 exec, -1, s[0:1]
s_mov_b64 s[30:31], exec
s_mov_b64 exec, -1
s_movk_i32 s9, 0x8000
s_load_dwordx4 s[4:7], s[8:9], null
s_mov_b64 s[30:31], exec
s_waitcnt lgkmcnt(0)
buffer_load_dwordx4 v[0:3], v5, s[4:7], 0 idxen
s_endpgm
