// v_mov_b32 under every lane copies the whole register, the vertex-lane
// layer of the entry id included: read back under the vertex lanes it is
// the id.
s_bfm_b64 s[0:1], s3, 0
s_bitcmp1_b32 s3, 6
s_cselect_b64 exec, -1, s[0:1]
s_mov_b64 s[0:1], exec
s_mov_b64 exec, -1
v_mov_b32_e32 v1, v5
s_mov_b64 exec, s[0:1]
v_add_nc_u32_e32 v0, s9, v1
buffer_load_dwordx4 v[4:7], v0, s[20:23], 0 idxen
s_endpgm
