// Negative control for every bound: a second access goes through a
// descriptor whose words are not traced (the pointer's high half is not
// the carry's add). It may use any descriptor with any index, so the
// first descriptor, bound on its own, is unbound too.
s_bfm_b64 s[0:1], s3, 0
s_bitcmp1_b32 s3, 6
s_cselect_b64 exec, -1, s[0:1]
buffer_load_dwordx4 v[0:3], v5, s[20:23], 0 idxen
s_add_u32 s0, s8, 16
s_mov_b32 s1, s9
s_load_dwordx4 s[4:7], s[0:1], 0x20
s_waitcnt lgkmcnt(0)
buffer_load_dwordx4 v[4:7], v8, s[4:7], 0 idxen
s_endpgm
