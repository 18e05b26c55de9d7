s_mov_b32 s6, s3
s_movk_i32 s3, 0x8000
s_load_dwordx4 s[8:11], s[2:3], 0x0
v_lshl_add_u32 v3, s5, 6, v0
v_mov_b32_e32 v1, v3
v_writelane_b32 v1, s6, 5
v_writelane_b32 v1, s4, 63
v_lshlrev_b32_e32 v2, 2, v3
s_waitcnt lgkmcnt(0)
buffer_store_dword v1, v2, s[8:11], 0 offen
s_endpgm
