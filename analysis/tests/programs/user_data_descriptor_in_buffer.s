// s_buffer_load through a user-data descriptor gives traced words; one
// of them is a descriptor's first word (with the rest from user data).
s_bfm_b64 s[0:1], s3, 0
s_bitcmp1_b32 s3, 6
s_cselect_b64 exec, -1, s[0:1]
s_buffer_load_dword s24, s[20:23], 0x30
s_mov_b32 s25, s13
s_mov_b32 s26, s14
s_mov_b32 s27, s15
s_waitcnt lgkmcnt(0)
buffer_load_dword v0, v5, s[24:27], 0 idxen
s_endpgm
