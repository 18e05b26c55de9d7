//! Guest memory for the RADV corpus vertex shaders: the vertex-buffer table,
//! descriptor set 0 with the MVP UBO, vertex data of visible triangles.
#![allow(dead_code)]

use super::Mem;

/// Guest address of the vertex-buffer table (user-data word 0 = its low half).
pub const TABLE: u64 = 0x8000_0000_1000;
/// Guest address of descriptor set 0.
pub const SET0: u64 = 0x8000_0000_2000;
/// The MVP UBO.
pub const UBO: u64 = 0x3_0000;

/// A V#: base, stride, num_records, OOB_SELECT, dst_sel xyzw, 32_FLOAT.
pub fn vsharp(base: u64, stride: u32, records: u32, oob: u32) -> [u32; 4] {
    [
        base as u32,
        (base >> 32) as u32 | stride << 16,
        records,
        4 | 5 << 3 | 6 << 6 | 7 << 9 | 22 << 12 | 1 << 24 | oob << 28,
    ]
}

pub fn f(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// Corner `k` of triangle `t` of a 16-wide grid of small triangles in clip
/// space; odd triangles wind the other way (one of each pair is back-facing).
pub fn corner(t: u32, k: u32) -> [f32; 2] {
    let (cx, cy) = ((t % 16) as f32, ((t / 16) % 16) as f32);
    let (x0, y0) = (-1.0 + cx / 8.0, -1.0 + cy / 8.0);
    let s = 0.1;
    match (k, t % 2) {
        (0, _) => [x0, y0],
        (1, 0) | (2, 1) => [x0 + s, y0],
        _ => [x0, y0 + s],
    }
}

/// The identity MVP, column-major.
pub fn identity() -> [f32; 16] {
    [
        1., 0., 0., 0., 0., 1., 0., 0., 0., 0., 1., 0., 0., 0., 0., 1.,
    ]
}

/// Write set 0 (UBO descriptor) and the MVP.
pub fn write_ubo(m: &mut Mem, mvp: &[f32; 16]) {
    m.write(UBO, &f(mvp));
    m.write(SET0, &vsharp(UBO, 0, 64, 3));
}

/// The cube shader's binding (stride 32: position vec4, colour vec4) for
/// records `0..count` at `base`, with the table slot.
pub fn write_cube_vertices(m: &mut Mem, base: u64, first: u32, count: u32) {
    for r in first..first + count {
        let c = corner(r / 3, r % 3);
        let a = base + 32 * r as u64;
        m.write(a, &f(&[c[0], c[1], 0.5, 1.0, 1.0, 0.0, 0.0, 1.0]));
    }
}

/// The instanced shader's bindings: positions (stride 12) at `base0`,
/// per-instance offset (w = scale) and colour (stride 32) at `base1`.
pub fn write_instanced_vertices(
    m: &mut Mem,
    base0: u64,
    first: u32,
    count: u32,
    base1: u64,
    first_inst: u32,
    instances: u32,
) {
    for r in first..first + count {
        let c = corner(r / 3, r % 3);
        m.write(base0 + 12 * r as u64, &f(&[c[0], c[1], 0.5]));
    }
    for i in first_inst..first_inst + instances {
        m.write(
            base1 + 32 * i as u64,
            &f(&[0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0]),
        );
    }
}
