// Negative control: the same fetch without setting exec to the vertex
// lanes. NGG waves may have lanes without a vertex, whose v5 is garbage.
v_add_nc_u32_e32 v5, s13, v5
buffer_load_format_xyzw v[0:3], v5, s[20:23], 0 idxen
s_endpgm
