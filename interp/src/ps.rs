//! Pixel shaders: one primitive's pixels, with the entry VGPRs RADV's
//! `SPI_PS_INPUT_ENA` gives them, and parameter interpolation
//! (`v_interp_p1/p2/mov_f32`, and the 16-bit `v_interp_p1ll/p1lv/p2_f16`).
//!
//! # The model
//!
//! The caller gives one triangle's attributes (per attribute, the four
//! channels of its three vertices, f32 bits, vertex 0 the provoking one)
//! and the pixels to shade, each with its barycentrics `i` (the weight of
//! vertex 1) and `j` (of vertex 2). Pixels run in waves of 32/64 lanes in
//! the order given; exec starts as the lanes with a pixel.
//!
//! The parameter cache holds, per attribute channel, `P0` and the deltas
//! `P10 = P1 − P0`, `P20 = P2 − P0` (f32, rounded to nearest even), as the
//! hardware's primitive setup writes them. Then
//! - `v_interp_p1_f32 d, i, attrN.c`: `d = fma(P10, i, P0)`;
//! - `v_interp_p2_f32 d, j, attrN.c`: `d = fma(P20, j, d)`;
//! - `v_interp_mov_f32 d, p0|p10|p20, attrN.c`: that value.
//!
//! `M0` (RADV moves `prim_mask` there) is not read: one primitive per run.
//! Entry VGPRs: every barycentric pair gets the pixel's (i, j) (one
//! sample per pixel at its centre, `w` the same at every vertex, so
//! perspective, linear, centroid and sample barycentrics coincide);
//! `frag_pos.x/y` the pixel centre (`x + 0.5`, `y + 0.5`); `ancillary`
//! the configured shading rate in bits 5:2 ([`PsConfig::shading_rate`]),
//! the rest 0 (sample 0, layer 0); the others are undefined.

use crate::exec::{run_wave, Env, Exec, Limits, Observations};
use crate::memory::{GuestMemory, Lds};
use crate::program::Program;
use crate::record::InterpError;
use crate::valu::bits;
use crate::wave::{FpMode, Status, Wave};
use isa::{op, Abi, Bary, Instruction, Modifiers, Operand, PsInput};

/// One pixel to shade.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pixel {
    /// Column.
    pub x: u32,
    /// Row.
    pub y: u32,
    /// Barycentric weight of vertex 1.
    pub i: f32,
    /// Barycentric weight of vertex 2.
    pub j: f32,
}

/// How to run a pixel shader.
#[derive(Clone, Copy, Debug)]
pub struct PsConfig<'a> {
    /// Entry registers (`ps_input_ena` says what the VGPRs hold).
    pub abi: Abi,
    /// 64 lanes per wave (else 32).
    pub wave64: bool,
    /// Float mode.
    pub fp: FpMode,
    /// Step bound per wave.
    pub limits: Limits,
    /// The guest address of the code's first byte.
    pub code_addr: u64,
    /// Per attribute: `[vertex][channel]` f32 bits (a 16-bit attribute:
    /// two f16s, low and high half).
    pub attrs: &'a [[[u32; 4]; 3]],
    /// The attributes in 16-bit interpolation mode (bit a: attribute a;
    /// what `SPI_PS_INPUT_CNTL_a.FP16_INTERP_MODE` says): their `P10` and
    /// `P20` hold per half the f16 difference (nearest even).
    pub fp16_attrs: u64,
    /// The draw's coarse shading rate as the `ancillary` entry VGPR's bits
    /// 5:2 hold it (gfx10.3: bits 1:0 the VRS rate X, 3:2 the rate Y, each
    /// log2 of the pixels one fragment covers; 0 is 1x1).
    pub shading_rate: u32,
}

/// What a pixel-shader run did: per wave, the pixel of each lane, and
/// every observation (exports name their wave and lane).
#[derive(Clone, Debug, Default)]
pub struct PsRun {
    /// `waves[w][lane]` is the index of that lane's pixel in the input.
    pub waves: Vec<Vec<usize>>,
    /// Exports, accesses, findings.
    pub obs: Observations,
}

/// Bytes per attribute channel in the model's parameter cache (P0, P10,
/// P20).
const CHAN_BYTES: u32 = 12;

/// Per half, the f16 `a − b` (exact in f64, rounded once to f16).
fn delta16(a: u32, b: u32) -> u32 {
    let half = |w: u32, k: u32| crate::float::h2d((w >> (16 * k)) as u16);
    let d = |k: u32| crate::float::d2h(half(a, k) - half(b, k)) as u32;
    d(0) | d(1) << 16
}

/// Run the pixels of one triangle.
pub fn run_pixels(
    program: &Program,
    memory: &dyn GuestMemory,
    user_data: &[u32],
    pixels: &[Pixel],
    cfg: &PsConfig<'_>,
) -> Result<PsRun, InterpError> {
    let run_steps = std::cell::Cell::new(0);
    let env = Env {
        program,
        memory,
        limits: cfg.limits,
        code_addr: cfg.code_addr,
        run_steps: &run_steps,
    };
    let mut lds = Lds::new();
    for (a, verts) in cfg.attrs.iter().enumerate() {
        let [v0, v1, v2] = verts;
        for (c, ((&w0, &w1), &w2)) in v0.iter().zip(v1).zip(v2).enumerate() {
            let (p10, p20) = if a < 64 && cfg.fp16_attrs & (1 << a) != 0 {
                (delta16(w1, w0), delta16(w2, w0))
            } else {
                let p0 = f32::from_bits(w0);
                (
                    (f32::from_bits(w1) - p0).to_bits(),
                    (f32::from_bits(w2) - p0).to_bits(),
                )
            };
            let at = (a as u32 * 4 + c as u32) * CHAN_BYTES;
            lds.write(at, 4, w0 as u128, 0xf);
            lds.write(at + 4, 4, p10 as u128, 0xf);
            lds.write(at + 8, 4, p20 as u128, 0xf);
        }
    }
    let lanes = if cfg.wave64 { 64 } else { 32 };
    let mut run = PsRun::default();
    for chunk in pixels.chunks(lanes) {
        let first = run.waves.len() * lanes;
        let mut w = Wave::new(cfg.wave64);
        w.set_fp_mode(cfg.fp);
        for (k, &v) in user_data.iter().enumerate() {
            if let Some(k) = u8::try_from(k)
                .ok()
                .filter(|k| *k < cfg.abi.user_data_count)
            {
                let r = cfg.abi.user_data_sgpr as u16 + k as u16;
                if r < 106 {
                    w.set_sgpr(r, v);
                }
            }
        }
        for (lane, p) in chunk.iter().enumerate() {
            for (input, vgpr, _) in isa::ps_input_vgprs(cfg.abi.ps_input_ena) {
                match input {
                    PsInput::Bary(_) => {
                        w.set_vgpr(vgpr, lane as u32, p.i.to_bits());
                        w.set_vgpr(vgpr + 1, lane as u32, p.j.to_bits());
                    }
                    PsInput::Pos(0) => w.set_vgpr(vgpr, lane as u32, (p.x as f32 + 0.5).to_bits()),
                    PsInput::Pos(1) => w.set_vgpr(vgpr, lane as u32, (p.y as f32 + 0.5).to_bits()),
                    // The rate in bits 5:2; the sample id (bits 11:8) is 0
                    // (one sample per pixel) and so is the layer (one
                    // non-layered target).
                    PsInput::Ancillary => {
                        w.set_vgpr(vgpr, lane as u32, (cfg.shading_rate & 0xf) << 2)
                    }
                    _ => {}
                }
            }
        }
        w.set_exec(if chunk.len() == 64 {
            u64::MAX
        } else {
            (1u64 << chunk.len()) - 1
        });
        let id = run.waves.len() as u32;
        run.waves
            .push((first..first + chunk.len()).collect::<Vec<_>>());
        let status = run_wave(&env, &mut w, id, &mut lds, &mut run.obs)?;
        if status == Status::Barrier {
            return Err(InterpError::Unsupported {
                pc: w.pc(),
                text: program.text(w.pc()),
                why: "s_barrier in a pixel shader".into(),
            });
        }
    }
    Ok(run)
}

/// The barycentric pairs a pixel shader's entry VGPRs can hold (for
/// documentation and tests: all get the same values here).
pub const BARYCENTRICS: [Bary; 6] = [
    Bary::PerspSample,
    Bary::PerspCenter,
    Bary::PerspCentroid,
    Bary::LinearSample,
    Bary::LinearCenter,
    Bary::LinearCentroid,
];

impl Exec<'_, '_> {
    /// `v_interp_p1/p2/mov_f32` (VINTRP encoding).
    pub(crate) fn interp(&mut self, w: &mut Wave, inst: &Instruction) -> Result<(), InterpError> {
        if let Modifiers::Vop3(m) = inst.mods {
            return self.interp16(w, inst, m);
        }
        let Modifiers::Vintrp(m) = inst.mods else {
            return Err(self.unsupported("interpolation without its fields"));
        };
        let exec = self.active(w)?;
        let reg = |k: usize| match inst.operands.get(k).map(|s| s.op) {
            Some(Operand::Reg { code, .. }) if (256..512).contains(&code) => {
                Some((code - 256) as usize)
            }
            _ => None,
        };
        let Some(dst) = reg(0) else {
            return Err(self.unsupported("interpolation without a VGPR destination"));
        };
        let at = (m.attr as u32 * 4 + m.chan as u32) * CHAN_BYTES;
        let param = |k: u32| -> (f32, bool) {
            let (v, d) = self.lds.read(at + 4 * k, 4);
            (f32::from_bits(v as u32), d == 0xf)
        };
        let (p0, d0) = param(0);
        let (p10, d10) = param(1);
        let (p20, d20) = param(2);
        match inst.opcode {
            op::V_INTERP_P1_F32_E32 | op::V_INTERP_P2_F32_E32 => {
                let Some(src) = reg(1) else {
                    return Err(self.unsupported("interpolation without a VGPR source"));
                };
                let p1 = inst.opcode == op::V_INTERP_P1_F32_E32;
                for lane in bits(exec) {
                    let (s, sd) = w.read_v(src, lane);
                    let (acc, accd, p, pd) = if p1 {
                        (p0, d0, p10, d10)
                    } else {
                        let (dv, dd) = w.read_v(dst, lane);
                        (f32::from_bits(dv), dd == 0xf, p20, d20)
                    };
                    let r = p.mul_add(f32::from_bits(s), acc);
                    let def = if sd == 0xf && accd && pd { 0xf } else { 0 };
                    w.write_v(dst, lane, r.to_bits(), def);
                }
            }
            op::V_INTERP_MOV_F32_E32 => {
                let (v, d) = match inst.operands.get(1).map(|s| s.op) {
                    Some(Operand::Imm(0)) => (p10, d10),
                    Some(Operand::Imm(1)) => (p20, d20),
                    Some(Operand::Imm(2)) => (p0, d0),
                    _ => return Err(self.unsupported("v_interp_mov of an unknown parameter")),
                };
                for lane in bits(exec) {
                    w.write_v(dst, lane, v.to_bits(), if d { 0xf } else { 0 });
                }
            }
            _ => return Err(self.unsupported("an unknown interpolation")),
        }
        Ok(())
    }

    /// The VOP3 16-bit forms (`high`: the high half of the parameter
    /// words):
    /// - `v_interp_p1ll_f16 d, i, attrN.c`: `d` (f32) = `fma(P10, i, P0)`
    ///   of the f16s, rounded once to f32;
    /// - `v_interp_p1lv_f16 d, i, attrN.c, s2`: the same with `P0` the f16
    ///   in that half of `s2`;
    /// - `v_interp_p2_f16 d, j, attrN.c, s2`: the f16 `P20·j + s2` (the
    ///   exact product, one f64 sum, rounded once to f16, nearest even)
    ///   into the low half of `d` (`op_sel` bit 3: the high half); the
    ///   other half keeps its bits.
    ///
    /// `neg`/`abs`, `clamp` and `omod` are not modelled.
    fn interp16(
        &mut self,
        w: &mut Wave,
        inst: &Instruction,
        m: isa::family::vop::Vop3Mods,
    ) -> Result<(), InterpError> {
        let ops = inst.operands.as_slice();
        if m.clamp || m.omod != 0 || ops.iter().any(|s| !s.mods.is_empty()) {
            return Err(self.unsupported("16-bit interpolation with modifiers"));
        }
        let exec = self.active(w)?;
        let reg = |k: usize| match ops.get(k).map(|s| s.op) {
            Some(Operand::Reg { code, .. }) if (256..512).contains(&code) => {
                Some((code - 256) as usize)
            }
            _ => None,
        };
        let attr = ops.iter().find_map(|s| match s.op {
            Operand::Imm(a) if s.is_use() => Some(a as u32),
            _ => None,
        });
        let (Some(dst), Some(src), Some(a)) = (reg(0), reg(1), attr) else {
            return Err(self.unsupported("16-bit interpolation without its operands"));
        };
        let s2 = reg(3);
        let at = ((a & 0x3f) * 4 + ((a >> 6) & 3)) * CHAN_BYTES;
        let shift = if m.high { 16 } else { 0 };
        let param = |k: u32| -> (u16, bool) {
            let (v, d) = self.lds.read(at + 4 * k, 4);
            ((v as u32 >> shift) as u16, d == 0xf)
        };
        let (p0, d0) = param(0);
        let (p10, d10) = param(1);
        let (p20, d20) = param(2);
        let h = |x: u16| f32::from_bits(crate::float::f16_to_f32(x));
        for lane in bits(exec) {
            let (s, sd) = w.read_v(src, lane);
            let s = f32::from_bits(s);
            let (c, cd) = match s2 {
                Some(r) => w.read_v(r, lane),
                None => (0, 0xf),
            };
            match inst.opcode {
                op::V_INTERP_P1LL_F16 | op::V_INTERP_P1LV_F16 => {
                    let (b, bd) = if inst.opcode == op::V_INTERP_P1LL_F16 {
                        (p0, d0)
                    } else {
                        let Some(_) = s2 else {
                            return Err(self.unsupported("v_interp_p1lv_f16 without src2"));
                        };
                        ((c >> shift) as u16, cd == 0xf)
                    };
                    let r = h(p10).mul_add(s, h(b));
                    let def = if sd == 0xf && d10 && bd { 0xf } else { 0 };
                    w.write_v(dst, lane, r.to_bits(), def);
                }
                op::V_INTERP_P2_F16 => {
                    if s2.is_none() {
                        return Err(self.unsupported("v_interp_p2_f16 without src2"));
                    }
                    let x = crate::float::h2d(p20) * s as f64 + f32::from_bits(c) as f64;
                    let r = crate::float::d2h(x);
                    let def = sd == 0xf && d20 && cd == 0xf;
                    if m.opsel_dst {
                        w.write_v_hi16(dst, lane, r, def);
                    } else {
                        w.write_v_lo16(dst, lane, r, def);
                    }
                }
                _ => return Err(self.unsupported("an unknown interpolation")),
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fragment_color() -> (Program, Abi) {
        let c =
            corpus::Capture::open("../corpus/radv/fragment-color", &Default::default()).unwrap();
        (Program::new(&c.code, c.target()), c.abi())
    }

    /// One pixel of `fragment-color` (outColor = attr0, exported as f16
    /// pairs): the components of the export after the f16 round trip.
    fn shade(attrs: &[[[u32; 4]; 3]], i: f32, j: f32) -> [f32; 4] {
        let (prog, abi) = fragment_color();
        let mem = drawbind::SparseMemory::default();
        let cfg = PsConfig {
            abi,
            wave64: true,
            fp: FpMode::RADV,
            limits: Limits::default(),
            code_addr: 0,
            attrs,
            fp16_attrs: 0,
            shading_rate: 0,
        };
        let px = [Pixel { x: 0, y: 0, i, j }];
        let run = run_pixels(&prog, &mem, &[], &px, &cfg).unwrap();
        let e = run.obs.exports.iter().find(|e| e.target == 0).unwrap();
        assert!(e.compr && e.done && e.defined == 0xf, "{e:?}");
        let h = |w: u32| f32::from_bits(crate::float::f16_to_f32(w as u16));
        [
            h(e.values[0]),
            h(e.values[1] >> 16),
            h(e.values[2]),
            h(e.values[3] >> 16),
        ]
    }

    /// `v_interp_p1ll_f16` + `v_interp_p2_f16` on the high halves, and
    /// `v_interp_mov_f32 p0` + `v_interp_p1lv_f16` + `v_interp_p2_f16` on
    /// the low halves of one 16-bit attribute channel (llvm-mc-19,
    /// gfx1030): mrt0 words 0 and 1 hold the two f16 results.
    #[test]
    fn f16_interpolation_reads_the_named_half_and_rounds_once_to_f16() {
        let code: Vec<u8> = [
            [0x02, 0x00, 0x42, 0xd7, 0x40, 0x01, 0x02, 0x00].as_slice(), // p1ll v2, v0, attr0.y high
            &[0x03, 0x00, 0x5a, 0xd7, 0x40, 0x03, 0x0a, 0x04], // p2 v3, v1, attr0.y, v2 high
            &[0x02, 0x01, 0x12, 0xc8],                         // mov v4, p0, attr0.y
            &[0x05, 0x00, 0x43, 0xd7, 0x40, 0x00, 0x12, 0x04], // p1lv v5, v0, attr0.y, v4
            &[0x06, 0x00, 0x5a, 0xd7, 0x40, 0x02, 0x16, 0x04], // p2 v6, v1, attr0.y, v5
            &[0x0f, 0x18, 0x00, 0xf8, 0x03, 0x06, 0x03, 0x06], // exp mrt0 v3, v6, v3, v6 done vm
            &[0x00, 0x00, 0x81, 0xbf],                         // s_endpgm
        ]
        .concat();
        let (_, abi) = fragment_color();
        let prog = Program::new(&code, isa::Target::Gfx1030);
        let f16 = |x: f32| crate::float::f32_to_f16(x.to_bits(), false) as u32;
        let word = |lo: f32, hi: f32| f16(lo) | f16(hi) << 16;
        // Channel y: low halves 1, 3, 0; high halves 10, 2, 18.
        let mut a = [[0u32; 4]; 3];
        a[0][1] = word(1.0, 10.0);
        a[1][1] = word(3.0, 2.0);
        a[2][1] = word(0.0, 18.0);
        let attrs = [a];
        let cfg = PsConfig {
            abi,
            wave64: true,
            fp: FpMode::RADV,
            limits: Limits::default(),
            code_addr: 0,
            attrs: &attrs,
            fp16_attrs: 1,
            shading_rate: 0,
        };
        let mem = drawbind::SparseMemory::default();
        let px = [Pixel {
            x: 0,
            y: 0,
            i: 0.25,
            j: 0.5,
        }];
        let run = run_pixels(&prog, &mem, &[], &px, &cfg).unwrap();
        let e = run.obs.exports.iter().find(|e| e.target == 0).unwrap();
        // High: 10 + 0.25·(2 − 10) + 0.5·(18 − 10) = 12; low: 1 + 0.5 − 0.5 = 1.
        assert_eq!(
            (e.values[0] & 0xffff, e.values[1] & 0xffff),
            (f16(12.0), f16(1.0))
        );
        // 1/3 is no f16: the sum rounds once, to nearest even.
        let px = [Pixel {
            x: 0,
            y: 0,
            i: 1.0 / 3.0,
            j: 0.0,
        }];
        let run = run_pixels(&prog, &mem, &[], &px, &cfg).unwrap();
        let e = run.obs.exports.iter().find(|e| e.target == 0).unwrap();
        let want = crate::float::d2h(1.0 + 2.0 * (1.0f32 / 3.0) as f64) as u32;
        assert_eq!(e.values[1] & 0xffff, want);
    }

    #[test]
    fn interpolation_weighs_vertex_1_by_i_and_vertex_2_by_j() {
        let p0 = [1.0f32, 2.0, 3.0, 4.0];
        let mut a = [[0u32; 4]; 3];
        for c in 0..4 {
            a[0][c] = p0[c].to_bits();
            a[1][c] = (p0[c] + 8.0).to_bits();
            a[2][c] = (p0[c] - 4.0).to_bits();
        }
        // P0 + 0.25·8 + 0.5·(−4) = P0.
        assert_eq!(shade(&[a], 0.25, 0.5), p0);
        // Swapped weights: P0 + 0.5·8 + 0.25·(−4) = P0 + 3.
        assert_eq!(shade(&[a], 0.5, 0.25), p0.map(|x| x + 3.0));
        // Vertex 1 alone, vertex 2 alone.
        assert_eq!(shade(&[a], 1.0, 0.0), p0.map(|x| x + 8.0));
        assert_eq!(shade(&[a], 0.0, 1.0), p0.map(|x| x - 4.0));
    }
}
