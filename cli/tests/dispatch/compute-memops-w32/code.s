s_mov_b32 s12, s3
s_mov_b32 s13, s4
s_add_u32 s14, s3, 0x1000
s_addc_u32 s15, s4, 0
s_movk_i32 s3, 0x8000
s_load_dwordx4 s[8:11], s[2:3], 0x0
v_lshl_add_u32 v3, s5, 6, v0
v_lshlrev_b32_e32 v2, 2, v3
global_load_dword v4, v2, s[12:13]
v_add_co_u32 v6, vcc_lo, s12, v2
v_mov_b32_e32 v7, s13
v_add_co_ci_u32_e32 v7, vcc_lo, 0, v7, vcc_lo
global_load_dword v5, v[6:7], off offset:768
s_waitcnt vmcnt(0)
v_add_nc_u32_e32 v8, v4, v5
global_store_dword v2, v8, s[14:15]
v_add_co_u32 v6, vcc_lo, s14, v2
v_mov_b32_e32 v7, s15
v_add_co_ci_u32_e32 v7, vcc_lo, 0, v7, vcc_lo
global_store_dword v[6:7], v5, off offset:768
v_and_b32_e32 v9, 7, v3
v_lshlrev_b32_e32 v9, 2, v9
global_atomic_add v9, v4, s[14:15] offset:1536
global_atomic_umax v9, v4, s[14:15] offset:1568
global_atomic_xor v9, v3, s[14:15] offset:1600
global_atomic_smin v9, v5, s[14:15] offset:1632
global_atomic_add v10, v9, v3, s[14:15] offset:1664 glc
s_waitcnt lgkmcnt(0)
buffer_atomic_add v5, v9, s[8:11], 0 offen offset:1696
buffer_atomic_or v3, v9, s[8:11], 0 offen offset:1728
buffer_atomic_and v4, v9, s[8:11], 0 offen offset:1760
v_mov_b32_e32 v12, 0
ds_write_b32 v9, v12
ds_write_b32 v9, v12 offset:32
s_waitcnt lgkmcnt(0)
s_barrier
ds_add_u32 v9, v4
ds_max_u32 v9, v5 offset:32
s_waitcnt lgkmcnt(0)
s_barrier
ds_read_b32 v11, v9
ds_read_b32 v13, v9 offset:32
s_waitcnt lgkmcnt(0)
v_xor_b32_e32 v11, v11, v13
v_add_co_u32 v6, vcc_lo, s14, v2
v_mov_b32_e32 v7, s15
v_add_co_ci_u32_e32 v7, vcc_lo, 0, v7, vcc_lo
global_store_dword v[6:7], v11, off offset:-2048
v_mul_u32_u24_e32 v14, 3, v3
buffer_store_short v3, v14, s[8:11], 0 offen offset:1800
v_lshlrev_b32_e32 v15, 1, v3
global_store_short v15, v5, s[14:15] offset:-1279
global_store_byte v3, v4, s[12:13] offset:1792
s_endpgm
