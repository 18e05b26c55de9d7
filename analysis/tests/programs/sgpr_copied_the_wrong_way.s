// Negative control: the copy goes the other way, so s0 keeps the lane
// mask the prologue left there and base_vertex is lost when s9 is reused.
s_bfm_b64 s[0:1], s3, 0
s_bitcmp1_b32 s3, 6
s_cselect_b64 exec, -1, s[0:1]
s_mov_b32 s9, s0
s_movk_i32 s9, 0x8000
s_load_dwordx4 s[4:7], s[8:9], null
v_add_nc_u32_e32 v0, s0, v5
s_waitcnt lgkmcnt(0)
buffer_load_dwordx4 v[4:7], v0, s[4:7], 0 idxen
s_endpgm
