#!/usr/bin/env python3
"""Write the DRAWS.json files of the corpus `cube` and `instanced` shaders.

The files are committed; the tests never run this. Guest memory mirrors what
RADV sets up on gfx10.3 (see corpus/radv/README.md): a vertex-buffer
descriptor table and descriptor set 0 reached through 32-bit pointers whose
high half is 0xffff8000, V#s with 48-bit bases, and the MVP in a UBO.
"""
import json
import os
import struct

HI = 0x8000 << 32   # 0xffff8000 truncated to the 48-bit GPU address
TABLE = 0x1000          # user-data word 0: vertex-buffer table (low half)
SET0 = 0x2000           # last user-data word: descriptor set 0 (low half)
VB0 = 0x0001_0000_0000  # 48-bit guest addresses of the buffers
VB1 = 0x0001_0004_0000
UBO = 0x0001_0010_0000
VB_WORD3 = 0x1104BFAC   # dst_sel xyzw, 32_32_32_32 float, structured OOB check
UBO_WORD3 = 0x31016FAC  # raw OOB check (num_records counts bytes)


def f(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def vsharp(base, stride, records, word3):
    return [base & 0xFFFFFFFF, (base >> 32) | (stride << 16), records, word3]


def block(addr, words):
    return {"addr": hex(addr), "words": [hex(w) for w in words]}


# MVPs, column-major as GLSL reads them. EXACT has few significant bits
# (like every input of the exact files), so each product and sum the shader
# makes is exact and fused or unfused multiply-adds agree bit for bit; the
# transform is perspective-like. INEXACT has full-precision entries: there
# only a correctly rounded fused multiply-add matches the hardware.
EXACT = [1.25, 0.5, -0.375, 0.0,
         -0.25, 1.5, 0.5, 0.0,
         0.625, -0.125, -1.0, -1.0,
         0.75, -0.5, 9.75, 10.0]
INEXACT = [1.2071, 0.3141, -0.4142, 0.0,
           -0.25, 1.7320508, 0.5, 0.0,
           0.6180339, -0.125, -1.0002, -1.0,
           0.75, -0.33333334, 9.8, 10.0]


def cube(mvp, zstep):
    records = 160
    verts = []
    for i in range(records):
        pos = [(i % 4) * 0.5 - 0.75, ((i // 4) % 4) * 0.5 - 0.75, (i // 16) * zstep - 1.0, 1.0]
        col = [i / 160.0, 1.0 - i / 160.0, 0.5, 1.0]
        verts += [f(x) for x in pos + col]
    return {
        "user_data": [hex(TABLE), 7, hex(SET0)],
        "memory": [
            block(HI | TABLE, vsharp(VB0, 32, records, VB_WORD3)),
            block(HI | SET0, vsharp(UBO, 0, 64, UBO_WORD3)),
            block(VB0, verts),
            block(UBO, [f(x) for x in mvp]),
        ],
        "draws": [
            {"kind": "auto", "first_vertex": 0, "vertex_count": 36, "instance_count": 1},
            {"kind": "auto", "first_vertex": 5, "vertex_count": 100, "instance_count": 1,
             "chunks": [[5, 50], [55, 50]]},
            {"kind": "auto", "first_vertex": 12, "vertex_count": 24, "instance_count": 3},
        ],
    }


def instanced():
    vrecords, irecords = 160, 16
    verts = []
    for i in range(vrecords):
        verts += [f(x) for x in [(i % 5) * 0.25 - 0.5, (i // 5 % 7) * 0.125, i * 0.0625 - 1.0]]
    inst = []
    for j in range(irecords):
        inst += [f(x) for x in [j * 0.5 - 2.0, 0.25 * (j % 3), -0.5 * j, 1.0 + j * 0.125]]
        inst += [f(x) for x in [j / 16.0, 0.5, 1.0 - j / 16.0, 1.0]]
    return {
        "user_data": [hex(TABLE), 3, 2, hex(SET0)],
        "memory": [
            block(HI | TABLE, vsharp(VB0, 12, vrecords, VB_WORD3) + vsharp(VB1, 32, irecords, VB_WORD3)),
            block(HI | SET0, vsharp(UBO, 0, 64, UBO_WORD3)),
            block(VB0, verts),
            block(VB1, inst),
            block(UBO, [f(x) for x in EXACT]),
        ],
        "draws": [
            {"kind": "auto", "first_vertex": 0, "vertex_count": 36, "instance_count": 4},
            {"kind": "auto", "first_vertex": 9, "vertex_count": 10, "instance_count": 1},
            {"kind": "auto", "first_vertex": 0, "vertex_count": 96, "instance_count": 7,
             "chunks": [[0, 48], [48, 48]]},
        ],
    }


def culling(data, settings):
    """The same scene for a culling (`-nggc`) shader: after the user data of
    the non-culling one, the culling settings word and the viewport scale and
    translate (x, y) RADV appends; unsplit draws of whole and partial
    subgroups (the NGG compute pass models those), one of several
    instances."""
    data = dict(data)
    data["user_data"] = data["user_data"] + [hex(settings)] + [hex(f(x)) for x in
                                                                 [128.0, -96.0, 128.0, 96.0]]
    data["draws"] = [
        {"kind": "auto", "first_vertex": 0, "vertex_count": 36, "instance_count": 1},
        {"kind": "auto", "first_vertex": 5, "vertex_count": 100, "instance_count": 1},
        {"kind": "auto", "first_vertex": 12, "vertex_count": 65, "instance_count": 3},
    ]
    return data


here = os.path.dirname(os.path.abspath(__file__))
for name, data in [("cube", cube(EXACT, 0.25)), ("cube-inexact", cube(INEXACT, 0.2)),
                   ("instanced", instanced()),
                   # RADV's culling settings: back faces (bit 1) culled.
                   ("cube-nggc", culling(cube(EXACT, 0.25), 0x2)),
                   ("instanced-nggc", culling(instanced(), 0x2))]:
    with open(os.path.join(here, name + ".json"), "w") as fh:
        json.dump(data, fh, indent=1)
        fh.write("\n")
