// Negative control: the high half adds another user-data word (not a
// constant), so the pair is no traced pointer.
s_bfm_b64 s[0:1], s3, 0
s_bitcmp1_b32 s3, 6
s_cselect_b64 exec, -1, s[0:1]
s_add_u32 s0, s8, 16
s_addc_u32 s1, s9, s10
s_load_dwordx4 s[4:7], s[0:1], 0x20
s_waitcnt lgkmcnt(0)
buffer_load_dwordx4 v[0:3], v8, s[4:7], 0 idxen
s_endpgm
