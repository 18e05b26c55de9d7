//! The lifted IR of the corpus vertex shaders, evaluated on a small draw
//! with guest data, gives the exports a hand computation gives: positions
//! `MVP × position` with the shader's fused multiply-adds, colours copied.
//! (This pins the lifting; the SPIR-V itself is checked by naga and
//! spirv-val here and run on lavapipe by the harness.)

use std::collections::HashMap;
use translator::ir::{
    fold_bin, fold_un, Effect, Func, Input, Load, Op, Source, SrcOrConst, Term, Tri, Value,
};
use translator::{Options, ShaderInput};

struct World {
    user_data: Vec<u32>,
    mem: HashMap<u64, u32>,
    vertex_id: u32,
    instance_id: u32,
}

impl World {
    fn word(&self, f: &Func, s: SrcOrConst) -> u32 {
        match s {
            SrcOrConst::Const(c) => c,
            SrcOrConst::Src(i) => self.source(f, i),
        }
    }
    fn source(&self, f: &Func, i: u16) -> u32 {
        match f.sources[i as usize] {
            Source::UserData(k) => self.user_data[k as usize],
            Source::TableWord { lo, hi, offset } => {
                let a = ((self.word(f, hi) as u64) << 32 | self.word(f, lo) as u64) + offset as u64;
                self.mem[&a]
            }
            Source::IndexedTableWord {
                lo,
                hi,
                index,
                scale,
                offset,
            } => {
                let off = self.word(f, index).wrapping_mul(scale).wrapping_add(offset);
                let a = ((self.word(f, hi) as u64) << 32 | self.word(f, lo) as u64) + off as u64;
                self.mem[&a]
            }
            Source::BufferWord { desc, offset } => {
                let base = self.word(f, desc[0]) as u64;
                self.mem.get(&(base + offset as u64)).copied().unwrap_or(0)
            }
        }
    }
}

/// Evaluate a function without conditional branches (the corpus vertex
/// shaders, once the constant prologue branches fold); returns the exports
/// by target.
fn eval(f: &Func, w: &World) -> HashMap<String, [u32; 4]> {
    let mut v: HashMap<Value, u32> = HashMap::new();
    let mut out = HashMap::new();
    // Globals first.
    for (i, inst) in f.insts.iter().enumerate() {
        let x = Value(i as u32);
        if !f.is_live(x) {
            continue;
        }
        let r = match inst.op {
            Op::Const(c) => c,
            Op::Input(Input::VertexId) => w.vertex_id,
            Op::Input(Input::InstanceId) => w.instance_id,
            Op::Input(Input::Param(s)) => w.source(f, s),
            _ => continue,
        };
        v.insert(x, r);
    }
    let mut cur = 0usize;
    loop {
        for &x in &f.blocks[cur].insts {
            let g = |y: Value| v[&y];
            let r = match f.inst(x).op {
                Op::Const(_) | Op::Input(_) => continue,
                Op::Un(op, a) => fold_un(op, g(a)).expect("exact operation"),
                Op::Bin(op, a, b) => fold_bin(op, g(a), g(b)).expect("exact operation"),
                Op::Tri(Tri::Select, c, a, b) => {
                    if g(c) != 0 {
                        g(a)
                    } else {
                        g(b)
                    }
                }
                Op::Tri(Tri::Fma, a, b, c) => f32::from_bits(g(a))
                    .mul_add(f32::from_bits(g(b)), f32::from_bits(g(c)))
                    .to_bits(),
                Op::Load(l) => match f.loads[l as usize] {
                    Load::Buffer(acc) => {
                        let d: Vec<u32> = acc.desc.iter().map(|x| g(*x)).collect();
                        let stride = (d[1] >> 16) & 0x3fff;
                        let index = acc.index.map(g).unwrap_or(0);
                        assert!(index < d[2], "in range");
                        let a = d[0] as u64
                            + index as u64 * stride as u64
                            + acc.imm as u64
                            + 4 * acc.dword as u64;
                        w.mem[&a]
                    }
                    other => panic!("unexpected load {other:?}"),
                },
                Op::Effect(e) => {
                    if let Effect::Export {
                        target,
                        values,
                        cond,
                        ..
                    } = f.effects[e as usize]
                    {
                        assert_eq!(g(cond), 1);
                        let mut o = [0u32; 4];
                        for (k, val) in values.iter().enumerate() {
                            o[k] = val.map(g).unwrap_or(0);
                        }
                        out.insert(format!("{target:?}"), o);
                    }
                    continue;
                }
                other => panic!("unexpected {other:?}"),
            };
            v.insert(x, r);
        }
        match &f.blocks[cur].term {
            Term::Return => break,
            Term::Jump(e) => {
                let params = &f.blocks[e.block.0 as usize].params;
                let args: Vec<u32> = e.args.iter().map(|a| v[a]).collect();
                for (p, a) in params.iter().zip(args) {
                    v.insert(*p, a);
                }
                cur = e.block.0 as usize;
            }
            t => panic!("a conditional branch remained: {t:?}"),
        }
    }
    out
}

fn world(instanced: bool, vertex_id: u32, instance_id: u32) -> (World, Vec<f32>) {
    let hi = 0xffff_8000u64 << 32;
    let mut mem = HashMap::new();
    let stride = if instanced { 12 } else { 32 };
    let vb = [0x10000u32, stride << 16, 100, 1 << 28];
    let ib = [0x30000u32, 32 << 16, 10, 1 << 28];
    for k in 0..4 {
        mem.insert(hi | (0x1000 + 4 * k as u64), vb[k]);
        mem.insert(hi | (0x1010 + 4 * k as u64), ib[k]);
    }
    for (k, x) in [0x20000u32, 0, 64, 3 << 28].iter().enumerate() {
        mem.insert(hi | (0x2000 + 4 * k as u64), *x);
    }
    let mvp: Vec<f32> = (0..16)
        .map(|i| 0.3 + i as f32 * 0.7 - (i % 3) as f32)
        .collect();
    for (i, m) in mvp.iter().enumerate() {
        mem.insert(0x20000 + 4 * i as u64, m.to_bits());
    }
    for r in 0..100u64 {
        for k in 0..(stride as u64 / 4) {
            let x = r as f32 * 0.25 - k as f32 * 1.5 + 0.1;
            mem.insert(0x10000 + r * stride as u64 + 4 * k, x.to_bits());
        }
    }
    for r in 0..10u64 {
        for k in 0..8u64 {
            mem.insert(
                0x30000 + r * 32 + 4 * k,
                (r as f32 + 0.5 * k as f32).to_bits(),
            );
        }
    }
    let user_data = if instanced {
        vec![0x1000, 3, 1, 0x2000]
    } else {
        vec![0x1000, 3, 0x2000]
    };
    (
        World {
            user_data,
            mem,
            vertex_id,
            instance_id,
        },
        mvp,
    )
}

fn ir(name: &str) -> Func {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .join("corpus/radv")
        .join(name);
    let c = corpus::Capture::open(&dir, &Default::default()).unwrap();
    let input = c.shader_input();
    let trace = translator::trace_for(&input);
    translator::translate_ir(&input, trace.as_ref(), &Options::default())
}

fn f(w: &World, a: u64) -> f32 {
    f32::from_bits(w.mem[&a])
}

#[test]
fn cube_exports_mvp_times_position_and_the_colour() {
    for name in ["cube", "cube-w32", "cube-legacy-vs"] {
        let func = ir(name);
        for vid in [0u32, 5, 17] {
            let (w, mvp) = world(false, vid, 0);
            let out = eval(&func, &w);
            let r = 0x10000 + (vid as u64 + 3) * 32;
            let p: Vec<f32> = (0..4).map(|k| f(&w, r + 4 * k)).collect();
            for c in 0..4 {
                let want = mvp[c].mul_add(
                    p[0],
                    mvp[4 + c].mul_add(p[1], mvp[8 + c].mul_add(p[2], mvp[12 + c] * p[3])),
                );
                assert_eq!(out["Pos(0)"][c], want.to_bits(), "{name} v{vid} c{c}");
                assert_eq!(
                    out["Param(0)"][c],
                    w.mem[&(r + 16 + 4 * c as u64)],
                    "{name}"
                );
            }
        }
    }
}

#[test]
fn instanced_exports_use_the_instance_record_and_start_instance() {
    for name in ["instanced", "instanced-w32", "instanced-legacy-vs"] {
        let func = ir(name);
        for (vid, iid) in [(0u32, 0u32), (7, 1), (2, 5)] {
            let (w, mvp) = world(true, vid, iid);
            let out = eval(&func, &w);
            let r = 0x10000 + (vid as u64 + 3) * 12;
            let ir = 0x30000 + (iid as u64 + 1) * 32;
            let p: Vec<f32> = (0..3).map(|k| f(&w, r + 4 * k)).collect();
            let a: Vec<f32> = (0..4).map(|k| f(&w, ir + 4 * k)).collect();
            let q: Vec<f32> = (0..3).map(|k| p[k].mul_add(a[3], a[k])).collect();
            for c in 0..4 {
                let want = mvp[c].mul_add(
                    q[0],
                    mvp[4 + c].mul_add(q[1], mvp[8 + c].mul_add(q[2], mvp[12 + c])),
                );
                assert_eq!(
                    out["Pos(0)"][c],
                    want.to_bits(),
                    "{name} v{vid} i{iid} c{c}"
                );
                assert_eq!(
                    out["Param(0)"][c],
                    w.mem[&(ir + 16 + 4 * c as u64)],
                    "{name}"
                );
            }
        }
    }
}

/// Lift raw legacy-VS code (user data from s2) and evaluate it.
fn eval_raw(words: &[u32], target: isa::Target, user_data: &[f32]) -> HashMap<String, [u32; 4]> {
    let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let input = ShaderInput {
        code: &code,
        target,
        stage: isa::Stage::LegacyVs,
        abi: isa::Abi::legacy_vs(),
        wave_size: 64,
    };
    let func = translator::translate_ir(&input, None, &Options::default());
    let w = World {
        user_data: user_data.iter().map(|x| x.to_bits()).collect(),
        mem: HashMap::new(),
        vertex_id: 0,
        instance_id: 0,
    };
    eval(&func, &w)
}

#[test]
fn fmamk_multiplies_by_the_literal_and_fmaak_adds_it() {
    // s2 = 2.0, s3 = 5.0, K = 3.0: fmamk = S0·K + S1 = 11, fmaak = S0·S1 + K = 13.
    let fma = [
        0x7e020202, // v_mov_b32_e32 v1, s2
        0x7e040203, // v_mov_b32_e32 v2, s3
        0x58000501, 0x40400000, // v_fmamk_f32 v0, v1, 0x40400000, v2
        0x5a060501, 0x40400000, // v_fmaak_f32 v3, v1, v2, 0x40400000
        0xf80008cf, 0x03000300, // exp pos0 v0, v3, v0, v3 done
        0xbf810000, // s_endpgm
    ];
    let out = eval_raw(&fma, isa::Target::Gfx1030, &[2.0, 5.0]);
    assert_eq!(out["Pos(0)"][0], 11f32.to_bits(), "v_fmamk_f32");
    assert_eq!(out["Pos(0)"][1], 13f32.to_bits(), "v_fmaak_f32");
    // The unfused forms (gfx1010 only): the same operand order.
    let mut mad = fma;
    mad[2] = 0x40000501; // v_madmk_f32 v0, v1, 0x40400000, v2
    mad[4] = 0x42060501; // v_madak_f32 v3, v1, v2, 0x40400000
    let out = eval_raw(&mad, isa::Target::Gfx1010, &[2.0, 5.0]);
    assert_eq!(out["Pos(0)"][0], 11f32.to_bits(), "v_madmk_f32");
    assert_eq!(out["Pos(0)"][1], 13f32.to_bits(), "v_madak_f32");
}
