// Negative control: lds_class_round_trip with a second write of another
// value (v1, unknown) into the same class.
s_bfm_b64 s[0:1], s3, 0
s_bitcmp1_b32 s3, 6
s_cselect_b64 exec, -1, s[0:1]
v_cmp_ne_u32_e32 vcc_lo, 0, v4
s_mov_b64 exec, -1
v_mbcnt_lo_u32_b32 v3, -1, 0
v_mbcnt_hi_u32_b32 v3, -1, v3
v_mul_u32_u24_e32 v9, 28, v3
v_mul_lo_u32 v11, 28, v3
s_mov_b64 exec, vcc
ds_write_b32 v11, v5 offset:20
ds_write_b32 v11, v4 offset:16
ds_write_b8 v11, v4 offset:24
ds_write_b32 v11, v1 offset:20
s_mov_b64 exec, -1
s_waitcnt lgkmcnt(0)
s_barrier
ds_read_b32 v2, v9 offset:20
s_waitcnt lgkmcnt(0)
v_swap_b32 v2, v5
v_add_nc_u32_e32 v0, s9, v5
buffer_load_dwordx4 v[4:7], v0, s[20:23], 0 idxen
s_endpgm
