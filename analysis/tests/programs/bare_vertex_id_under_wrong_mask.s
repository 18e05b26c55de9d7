// Negative control: exec comes from merged_wave_info bits 8..14 (the
// primitive lanes), not bits 0..6.
s_lshr_b32 s2, s3, 8
s_bfm_b64 s[0:1], s2, 0
s_bitcmp1_b32 s2, 6
s_cselect_b64 exec, -1, s[0:1]
s_movk_i32 s9, 0x8000
s_load_dwordx4 s[4:7], s[8:9], 0x20
s_waitcnt lgkmcnt(0)
buffer_load_dwordx4 v[0:3], v5, s[4:7], 0 idxen
s_endpgm
