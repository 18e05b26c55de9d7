// Wave32 prologue (at most 32 vertices): the low half of the bit-field
// mask is the vertex lanes. Traced as wave32 it binds, as wave64 it does
// not (exec_hi keeps the entry mask).
s_bfm_b64 s[0:1], s3, 0
s_mov_b32 exec_lo, s0
s_movk_i32 s9, 0x8000
s_load_dwordx4 s[4:7], s[8:9], null
s_waitcnt lgkmcnt(0)
buffer_load_dwordx4 v[0:3], v5, s[4:7], 0 idxen
s_endpgm
