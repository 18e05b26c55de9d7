// Two exits to different targets; each target reads values the body made.
s_mov_b32 s6, s3
s_movk_i32 s3, 0x8000
s_load_dwordx4 s[8:11], s[2:3], 0x0
v_lshl_add_u32 v3, s5, 6, v0
v_lshlrev_b32_e32 v2, 4, v3
v_mov_b32_e32 v1, v3
v_mov_b32_e32 v4, 0
v_mov_b32_e32 v5, 0
s_mov_b32 s12, 0
s_add_u32 s15, s5, 2
loop:
v_add_nc_u32_e32 v1, s12, v1
s_add_u32 s12, s12, 1
s_mul_i32 s14, s12, s12
s_cmp_ge_u32 s14, s4
s_cbranch_scc1 exit_a
v_xor_b32_e32 v1, s12, v1
s_cmp_ge_u32 s12, s15
s_cbranch_scc1 exit_b
s_branch loop
exit_a:
v_add_nc_u32_e32 v4, s14, v3
v_mov_b32_e32 v5, 0xa
s_branch store
exit_b:
v_mov_b32_e32 v4, s12
v_mov_b32_e32 v5, 0xb
store:
s_waitcnt lgkmcnt(0)
buffer_store_dword v1, v2, s[8:11], 0 offen
buffer_store_dword v4, v2, s[8:11], 0 offen offset:4
buffer_store_dword v5, v2, s[8:11], 0 offen offset:8
s_endpgm
