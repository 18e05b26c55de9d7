#version 450
// compute shader: a ballot of a per-lane condition (its low word and its
// bit count) and the first active lane's value (readfirstlane).
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 1) readonly buffer Src { uint v[]; } src;
layout(std430, set = 0, binding = 2) buffer Dst { uint v[]; } dst;
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = src.v[i];
    uvec4 b = subgroupBallot((x & 1u) != 0u);
    uint n = gl_NumWorkGroups.x * 64u;
    dst.v[i] = b.x;
    dst.v[n + i] = subgroupBallotBitCount(b);
    dst.v[2u * n + i] = subgroupBroadcastFirst(x);
}
