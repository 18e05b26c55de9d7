// A bindless-style vertex buffer: the descriptor is read from the table in
// ud2 at a byte offset the draw chooses with ud3 (ud3*16 + 0x10, the soffset
// of the scalar load). The tracer names it table(ud2+ud3*0x10)+0x10 and the
// index keeps its bound; the plan evaluates the offset per draw.
s_bfm_b64 s[0:1], s3, 0
s_bitcmp1_b32 s3, 6
s_cselect_b64 exec, -1, s[0:1]
s_mov_b32 s20, s10
s_movk_i32 s21, 0x8000
s_lshl_b32 s22, s11, 4
s_load_dwordx4 s[24:27], s[20:21], s22 offset:0x10
v_add_nc_u32_e32 v6, s13, v5
s_waitcnt lgkmcnt(0)
buffer_load_dwordx4 v[0:3], v6, s[24:27], 0 idxen
s_endpgm
