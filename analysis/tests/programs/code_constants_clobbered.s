// Negative control for code_constants: the code address is shifted (not a
// copy or an add of a constant), so the constant descriptor is not traced,
// and that access may go through any descriptor: nothing is bound.
s_bfm_b64 s[0:1], s3, 0
s_bitcmp1_b32 s3, 6
s_cselect_b64 exec, -1, s[0:1]
v_add_nc_u32_e32 v5, s13, v5
buffer_load_format_xyzw v[0:3], v5, s[20:23], 0 idxen
s_getpc_b64 s[0:1]
s_lshl_b32 s0, s0, 1
s_movk_i32 s2, 0x48
s_mov_b32 s3, 0x31016fac
v_mul_lo_u32 v4, 12, v5
buffer_load_dwordx3 v[6:8], v4, s[0:3], 0 offen
s_endpgm
