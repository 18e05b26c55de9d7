// Both sides of a branch compute the same index: the join keeps it.
s_bfm_b64 s[0:1], s3, 0
s_bitcmp1_b32 s3, 6
s_cselect_b64 exec, -1, s[0:1]
s_cmp_eq_u32 s10, 0
s_cbranch_scc1 2
v_add_nc_u32_e32 v0, s9, v5
s_branch 1
v_add_nc_u32_e32 v0, s9, v5
buffer_load_dwordx4 v[4:7], v0, s[20:23], 0 idxen
s_endpgm
