#!/usr/bin/env python3
"""Write primitive-clipping.json: the DRAWS.json of the legacy-VS fixture
`tests/fixtures/primitive-clipping-legacy-vs` (Vulkan-Samples'
dynamic_primitive_clipping vertex shader, compiled by RADV/ACO).

The files are committed; the tests never run this. User data: w0 the
vertex-buffer table, w1 the base vertex, w2 descriptor set 0, whose first
descriptor is the UBO `{ mat4 projection, view, model; vec4
colorTransformation; ivec2 sceneTransformation; float
usePrimitiveClipping; }`. `usePrimitiveClipping` is 1.0 so the uniform
`s_cbranch_vccz` at pc 0x2fc runs the clipping switch; the tests patch
`sceneTransformation.x` (UBO byte 0xd0) to walk every case.
"""
import json
import os
import random
import struct

HI = 0x8000 << 32        # 0xffff8000 truncated to the 48-bit guest address
TABLE = 0x1000           # w0: vertex-buffer table (low half)
SET0 = 0x2000            # w2: descriptor set 0 (low half)
VB0 = 0x0001_0000_0000   # inPos: 3 floats, stride 12
VB1 = 0x0001_0004_0000   # inNormal: 2_10_10_10_SNORM, stride 4
UBO = 0x0001_0010_0000
VB_WORD3 = 0x1104BFAC    # dst_sel xyzw, 32_32_32_32 float, structured OOB check
UBO_WORD3 = 0x31016FAC   # raw OOB check (num_records counts bytes)
VERTICES = 256


def f(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def vsharp(base, stride, records, word3):
    return [base & 0xFFFFFFFF, (base >> 32) | (stride << 16), records, word3]


def main():
    rng = random.Random(0xC11F)
    ubo = []
    for _ in range(3):  # projection, view, model (column-major)
        for c in range(4):
            for r in range(4):
                ubo.append(f((1.0 if r == c else 0.0) + rng.uniform(-0.5, 0.5)))
    ubo += [f(1.0)] * 4          # colorTransformation
    ubo += [0, 2, f(1.0), 0]     # sceneTransformation (x patched), usePrimitiveClipping
    pos = [f(rng.uniform(-8.0, 8.0)) for _ in range(3 * VERTICES)]
    nrm = [rng.randrange(0, 1 << 32) for _ in range(VERTICES)]
    doc = {
        "user_data": [TABLE, 3, SET0],
        "memory": [
            {"addr": hex(HI | TABLE),
             "words": vsharp(VB0, 12, VERTICES, VB_WORD3) + vsharp(VB1, 4, VERTICES, VB_WORD3)},
            {"addr": hex(HI | SET0), "words": vsharp(UBO, 0, 4 * len(ubo), UBO_WORD3)},
            {"addr": hex(UBO), "words": ubo},
            {"addr": hex(VB0), "words": pos},
            {"addr": hex(VB1), "words": nrm},
        ],
        "draws": [
            {"kind": "auto", "first_vertex": 0, "vertex_count": 96, "instance_count": 1},
            {"kind": "auto", "first_vertex": 100, "vertex_count": 70, "instance_count": 2},
            {"kind": "auto", "first_vertex": 180, "vertex_count": 64, "instance_count": 1},
        ],
    }
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "primitive-clipping.json")
    with open(out, "w") as fh:
        json.dump(doc, fh)
        fh.write("\n")


if __name__ == "__main__":
    main()
