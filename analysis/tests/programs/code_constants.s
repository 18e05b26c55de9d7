// A constant array after the code, as ACO emits it for a GLSL array
// indexed by a variable: s_getpc_b64 + s_add_u32 build a raw descriptor over
// the shader's constant data. The descriptor is traced (code+0x...), so the
// trace stays complete and the vertex buffer keeps its bound.
s_bfm_b64 s[0:1], s3, 0
s_bitcmp1_b32 s3, 6
s_cselect_b64 exec, -1, s[0:1]
v_add_nc_u32_e32 v5, s13, v5
buffer_load_format_xyzw v[0:3], v5, s[20:23], 0 idxen
s_getpc_b64 s[0:1]
s_add_u32 s0, s0, 0x5c
s_movk_i32 s2, 0x48
s_mov_b32 s3, 0x31016fac
v_mul_lo_u32 v4, 12, v5
buffer_load_dwordx3 v[6:8], v4, s[0:3], 0 offen
s_getpc_b64 s[4:5]
s_add_u32 s4, s4, 0x100
s_addc_u32 s5, s5, 0
s_load_dwordx4 s[8:11], s[4:5], 0x10
v_mov_b32_e32 v9, 0
buffer_load_dword v10, v9, s[8:11], 0 offen
s_endpgm
