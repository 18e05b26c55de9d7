#version 450
#extension GL_KHR_shader_subgroup_ballot : require
// Two waves per workgroup in wave64 (local size 128; subgroup operations make
// RADV 22.3 compile compute in wave64): a loop whose trip count differs per
// lane and between the waves, so each wave leaves it on its own iteration;
// inside it the count of active lanes (s_bcnt1 of EXEC) and the first active
// lane's value (v_readfirstlane) are the wave's own scalar state.
layout(local_size_x = 128) in;
layout(std430, set = 0, binding = 1) readonly buffer Src { uvec4 v[]; } src;
layout(std430, set = 0, binding = 2) buffer Dst { uvec4 v[]; } dst;
layout(push_constant) uniform PC { uint count; uint base; } pc;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.count)
        return;
    uvec4 s = src.v[pc.base + i];
    uint n = (s.x ^ i) % 13u + (gl_LocalInvocationIndex >> 6u) * 3u;
    uint acc = s.y;
    uint lanes = s.z;
    uint first = s.w;
    for (uint k = 0u; k < n; ++k) {
        acc = acc * 1664525u + s.z + k;
        lanes += subgroupBallotBitCount(subgroupBallot(true));
        first ^= subgroupBroadcastFirst(acc);
        if ((acc >> 28u) == 7u)
            break;
    }
    dst.v[i] = uvec4(acc, n, lanes, first);
}
