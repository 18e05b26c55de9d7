#version 450
// compute shader: each invocation stores its lane number in the wave
// (v_mbcnt_lo/hi of all ones) beside its global id; 96 invocations per
// workgroup: one and a half waves in wave64, three in wave32.
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 96) in;
layout(std430, set = 0, binding = 2) buffer Dst { uint v[]; } dst;
layout(push_constant) uniform PC { uint base; uint count; } pc;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.count)
        return;
    dst.v[pc.base + i] = gl_SubgroupInvocationID * 1000u + i;
}
