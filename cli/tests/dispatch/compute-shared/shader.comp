#version 450
// compute shader: workgroup shared memory (LDS) and a barrier: each
// invocation writes one cell, then reads two cells other waves wrote.
layout(local_size_x = 128) in;
layout(std430, set = 0, binding = 1) readonly buffer Src { uint v[]; } src;
layout(std430, set = 0, binding = 2) buffer Dst { uint v[]; } dst;
layout(push_constant) uniform PC { uint a; uint b; } pc;
shared uint tile[128];
void main() {
    uint l = gl_LocalInvocationID.x;
    uint i = gl_GlobalInvocationID.x;
    tile[l] = src.v[i] * pc.a + pc.b;
    barrier();
    dst.v[i] = tile[127u - l] + (tile[(l + 1u) & 127u] << 1u);
}
