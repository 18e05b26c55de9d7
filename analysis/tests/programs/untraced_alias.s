// An access whose descriptor is not fully traced (word 2 is an s_min_u32 of
// two user-data words) but whose base words are (ud8, ud9): it no longer
// unbinds the vertex buffer in ud12..15. The trace lists its base words and
// the bind plan keeps the vertex buffer's baseline on a draw where that
// base equals the vertex buffer's.
s_bfm_b64 s[0:1], s3, 0
s_bitcmp1_b32 s3, 6
s_cselect_b64 exec, -1, s[0:1]
v_add_nc_u32_e32 v6, s13, v5
buffer_load_dwordx4 v[0:3], v6, s[20:23], 0 idxen
s_mov_b32 s24, s16
s_mov_b32 s25, s17
s_min_u32 s26, s18, s19
s_mov_b32 s27, s23
v_mul_lo_u32 v7, 3, v5
buffer_load_dword v4, v7, s[24:27], 0 idxen
s_endpgm
