s_mov_b32 s6, s3
s_movk_i32 s3, 0x8000
s_load_dwordx4 s[8:11], s[2:3], 0x0
s_bfe_u32 s5, s4, 0x50014
s_and_b32 s7, s4, 0x3f
s_mul_i32 s12, s6, 80
v_mov_b32_e32 v1, s5
v_lshl_or_b32 v1, s7, 8, v1
v_mbcnt_lo_u32_b32 v2, -1, 0

v_lshl_or_b32 v1, v2, 16, v1
v_add_nc_u32_e32 v3, s12, v0
v_lshlrev_b32_e32 v3, 2, v3
s_waitcnt lgkmcnt(0)
buffer_store_dword v1, v3, s[8:11], 0 offen
s_endpgm
