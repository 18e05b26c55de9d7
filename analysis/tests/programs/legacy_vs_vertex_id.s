// Legacy VS: user data from s2, vertex id in v0, and the wave starts with
// exactly the vertex lanes active (no exec prologue).
s_movk_i32 s3, 0x8000
s_load_dwordx4 s[4:7], s[2:3], null
s_waitcnt lgkmcnt(0)
buffer_load_dwordx4 v[4:7], v0, s[4:7], 0 idxen
s_endpgm
