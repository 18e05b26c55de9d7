#version 450
// Two waves per workgroup in wave32 (local size 64): a loop whose trip count
// differs per lane and between the waves, with a break, so each wave leaves
// it on its own iteration; the loop counter is each wave's own SGPR.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 1) readonly buffer Src { uvec4 v[]; } src;
layout(std430, set = 0, binding = 2) buffer Dst { uvec4 v[]; } dst;
layout(push_constant) uniform PC { uint count; uint base; } pc;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.count)
        return;
    uvec4 s = src.v[pc.base + i];
    uint n = (s.x ^ i) % 13u + (gl_LocalInvocationIndex >> 5u) * 3u;
    uint acc = s.y;
    uint steps = s.w;
    for (uint k = 0u; k < n; ++k) {
        acc = acc * 1664525u + s.z + k;
        steps += 1u;
        if ((acc >> 28u) == 7u)
            break;
    }
    dst.v[i] = uvec4(acc, n, steps, i);
}
