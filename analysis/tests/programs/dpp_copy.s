// Negative control: a DPP move reads other lanes (even with the identity
// permutation), so it is no copy.
s_bfm_b64 s[0:1], s3, 0
s_bitcmp1_b32 s3, 6
s_cselect_b64 exec, -1, s[0:1]
v_mov_b32_dpp v1, v5 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf
v_add_nc_u32_e32 v0, s9, v1
v_readlane_b32 s1, v0, 0
buffer_load_dwordx4 v[4:7], v0, s[20:23], 0 idxen
s_endpgm
