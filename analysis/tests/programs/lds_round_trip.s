// The index is written to LDS address 0 and read back into itself: bound
// through the one-cell class, under the initialisation contract.
s_bfm_b64 s[0:1], s3, 0
s_bitcmp1_b32 s3, 6
s_cselect_b64 exec, -1, s[0:1]
v_add_nc_u32_e32 v0, s9, v5
v_mov_b32_e32 v1, 0
ds_write_b32 v1, v0
s_waitcnt lgkmcnt(0)
ds_read_b32 v0, v1
s_waitcnt lgkmcnt(0)
buffer_load_dwordx4 v[4:7], v0, s[20:23], 0 idxen
s_endpgm
