#!/usr/bin/env python3
"""Write bda-render.json: the DRAWS.json of the fixtures
`tests/fixtures/bda-render-vert{,-legacy-vs}` (Vulkan-Samples'
buffer_device_address render.vert, compiled by RADV/ACO).

The files are committed; the tests never run this. User data: w0 the base
vertex, w1 the start instance, w2..w13 the inlined view-projection words,
w14/w15 the 64-bit pointer `registers.references` to an array of 64-bit
pointers, one per instance (`gl_InstanceIndex`), each to that instance's
`vec2 positions[]` read at `gl_VertexIndex`. No descriptor reaches this
memory: only the window binding covers it.
"""
import json
import os
import random
import struct

REFS = 0x0002_0000_0000          # the pointer array
POS = 0x0002_0001_0000           # instance k's positions at POS + k * POS_STRIDE
POS_STRIDE = 0x1000
SLICES = 8
VERTICES = 320                   # vec2 per vertex (8 bytes)
BASE_VERTEX = 7
START_INSTANCE = 2


def f(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def main():
    rng = random.Random(0xBDA)
    ud = [BASE_VERTEX, START_INSTANCE]
    ud += [f(rng.uniform(-1.0, 1.0)) for _ in range(12)]
    ud += [REFS & 0xFFFFFFFF, REFS >> 32]
    refs = []
    memory = []
    for k in range(SLICES):
        p = POS + k * POS_STRIDE
        refs += [p & 0xFFFFFFFF, p >> 32]
        memory.append({"addr": hex(p),
                       "words": [f(rng.uniform(-4.0, 4.0)) for _ in range(2 * VERTICES)]})
    memory.insert(0, {"addr": hex(REFS), "words": refs})
    doc = {
        "user_data": ud,
        "memory": memory,
        "draws": [
            {"kind": "auto", "first_vertex": 0, "vertex_count": 60, "instance_count": 1},
            {"kind": "auto", "first_vertex": 40, "vertex_count": 100, "instance_count": 3},
            {"kind": "auto", "first_vertex": 150, "vertex_count": 30, "instance_count": 6},
        ],
    }
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bda-render.json")
    with open(out, "w") as fh:
        json.dump(doc, fh)
        fh.write("\n")


if __name__ == "__main__":
    main()
