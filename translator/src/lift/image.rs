//! Image instructions (MIMG): samples, gathers, loads and stores through
//! the T# (and S#) they read.
//!
//! One instruction is one [`ImageOp`] in [`crate::ir::Func::images`]; its
//! result components are [`Load::Image`] values written, in dmask order,
//! into consecutive VGPRs under EXEC, and a store is an
//! [`Effect::ImageStore`] under EXEC. The address VGPRs are read in the
//! hardware's order: the extra arguments (offset, bias, z-compare), the
//! coordinates (array slice last), then the level; an NSA encoding lists
//! each address VGPR on its own, a contiguous one gives a range, and both
//! are read the same way ([`address_vgprs`]). Which host binding a T#/S#
//! pair becomes is decided after the passes, from the words' resolved
//! sources (`crate::layout`).

use super::support::{self, Support};
use super::Lifter;
use crate::construct::Image;
use crate::ir::{Bin, Effect, ICmp, ImageLod, ImageOp, ImageOpKind, Load, Op, Value};
use crate::manifest::ImageDim;
use isa::family::mimg::{addr_dwords, dim_info, mimg_info, MimgMods};
use isa::{op, Instruction, Modifiers, Opcode, Operand, Stage};

/// Slots of a table an image instruction with a per-lane descriptor slot
/// is expanded over when its index is not proved below fewer: the host
/// binds that many descriptors of the table (manifest `lane_tables`).
pub const LANE_TABLE_SLOTS: u32 = 8;

/// The length of the host descriptor array an image instruction with an
/// unproved per-lane descriptor slot reads (manifest `ImageArray`): the
/// table slots a host binds, each lane reading its own. The translation
/// samples every element (a constant index each), so this is the cost of
/// one such instruction in host samples; a lane whose slot is past it
/// reads 0.
pub const LANE_ARRAY_ELEMENTS: u32 = 16;

/// A descriptor's words as scalar loads from one table at per-lane byte
/// offsets `base + consts[k]`.
#[derive(Clone, Debug)]
struct LaneWords {
    lo: Value,
    hi: Value,
    base: Value,
    consts: Vec<u32>,
    pcs: Vec<u32>,
}

/// How an image instruction with a per-lane descriptor slot is expanded.
#[derive(Clone, Debug)]
struct LaneSlots {
    tex: LaneWords,
    sampler: Option<LaneWords>,
    scale: u32,
    slots: u32,
    proved: bool,
    input: Option<[u8; 2]>,
}

/// `v` (where `active` holds) as a non-constant part plus a constant
/// (through adds).
fn split_const(f: &crate::ir::Func, v: Value, active: Value) -> (Option<Value>, u32) {
    let v = where_active(f, v, active);
    if let Some(c) = f.konst(v) {
        return (None, c);
    }
    if let Op::Bin(Bin::Add, a, b) = f.inst(v).op {
        let (ba, ca) = split_const(f, a, active);
        let (bb, cb) = split_const(f, b, active);
        match (ba, bb) {
            (Some(x), None) | (None, Some(x)) => return (Some(x), ca.wrapping_add(cb)),
            (None, None) => return (None, ca.wrapping_add(cb)),
            (Some(_), Some(_)) => {}
        }
    }
    (Some(v), 0)
}

/// `v` as `index · scale` (a multiply or a left shift by a constant).
fn scaled_index(f: &crate::ir::Func, v: Value) -> Option<(Value, u32)> {
    match f.inst(v).op {
        Op::Bin(Bin::Mul, a, b) => match (f.konst(a), f.konst(b)) {
            (Some(k), _) => Some((b, k)),
            (_, Some(k)) => Some((a, k)),
            _ => None,
        },
        Op::Bin(Bin::Shl, a, b) => Some((a, 1u32.checked_shl(f.konst(b)? & 31)?)),
        _ => None,
    }
}

/// `v` where `active` holds: the new value of a `select(active, new, old)`
/// (a VGPR written under the EXEC that is still on), repeatedly.
fn where_active(f: &crate::ir::Func, mut v: Value, active: Value) -> Value {
    while let Op::Tri(crate::ir::Tri::Select, c, a, _) = f.inst(v).op {
        if c != active {
            break;
        }
        v = a;
    }
    v
}

/// The words as scalar loads through one pointer at `base + constant`
/// offsets, one `base` for all (as the lanes where `active` holds see
/// them: the others' results are not written).
fn lane_words(f: &crate::ir::Func, words: &[Value], active: Value) -> Option<LaneWords> {
    let mut out: Option<LaneWords> = None;
    for &w in words {
        let Op::Load(i) = f.inst(w).op else {
            return None;
        };
        let Load::Scalar { pc, lo, hi, offset } = f.loads[i as usize] else {
            return None;
        };
        let (Some(base), c) = split_const(f, offset, active) else {
            return None;
        };
        match out.as_mut() {
            None => {
                out = Some(LaneWords {
                    lo,
                    hi,
                    base,
                    consts: vec![c],
                    pcs: vec![pc],
                })
            }
            Some(x) if x.lo == lo && x.hi == hi && x.base == base => {
                x.consts.push(c);
                x.pcs.push(pc);
            }
            Some(_) => return None,
        }
    }
    out
}

/// What an opcode's address holds and what it does: the lifted forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Form {
    /// Sample, gather, load or store.
    pub what: What,
    /// `_o`: an offset dword first.
    pub offset: bool,
    /// `_b`: a bias dword.
    pub bias: bool,
    /// `_c`: a z-compare dword.
    pub compare: bool,
    /// The level: implicit, zero (`_lz`), a level dword after the
    /// coordinates (`_l`, `_mip`).
    pub level: Level,
}

/// The operation class of a lifted image opcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum What {
    Sample,
    Gather,
    Load,
    Store,
}

/// How an opcode gives its level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Level {
    Implicit,
    Zero,
    Explicit,
}

/// The form of a lifted image opcode (`None`: not lifted).
pub(crate) fn form(code: Opcode) -> Option<Form> {
    use Level::*;
    use What::*;
    let f = |what, offset, bias, compare, level| Form {
        what,
        offset,
        bias,
        compare,
        level,
    };
    Some(match code {
        op::IMAGE_SAMPLE => f(Sample, false, false, false, Implicit),
        op::IMAGE_SAMPLE_B => f(Sample, false, true, false, Implicit),
        op::IMAGE_SAMPLE_L => f(Sample, false, false, false, Explicit),
        op::IMAGE_SAMPLE_LZ => f(Sample, false, false, false, Zero),
        op::IMAGE_SAMPLE_C => f(Sample, false, false, true, Implicit),
        op::IMAGE_SAMPLE_C_LZ => f(Sample, false, false, true, Zero),
        op::IMAGE_SAMPLE_O => f(Sample, true, false, false, Implicit),
        op::IMAGE_SAMPLE_B_O => f(Sample, true, true, false, Implicit),
        op::IMAGE_SAMPLE_L_O => f(Sample, true, false, false, Explicit),
        op::IMAGE_SAMPLE_LZ_O => f(Sample, true, false, false, Zero),
        op::IMAGE_SAMPLE_C_O => f(Sample, true, false, true, Implicit),
        op::IMAGE_SAMPLE_C_LZ_O => f(Sample, true, false, true, Zero),
        op::IMAGE_GATHER4_LZ => f(Gather, false, false, false, Zero),
        op::IMAGE_GATHER4_C_LZ => f(Gather, false, false, true, Zero),
        op::IMAGE_GATHER4_LZ_O => f(Gather, true, false, false, Zero),
        op::IMAGE_GATHER4_C_LZ_O => f(Gather, true, false, true, Zero),
        op::IMAGE_LOAD => f(Load, false, false, false, Zero),
        op::IMAGE_LOAD_MIP => f(Load, false, false, false, Explicit),
        op::IMAGE_STORE => f(Store, false, false, false, Zero),
        op::IMAGE_STORE_MIP => f(Store, false, false, false, Explicit),
        _ => return None,
    })
}

/// The host dimension of a `dim` field value.
pub(crate) fn image_dim(dim: u8) -> ImageDim {
    match dim & 7 {
        0 => ImageDim::D1,
        1 => ImageDim::D2,
        2 => ImageDim::D3,
        3 => ImageDim::Cube,
        4 => ImageDim::D1Array,
        5 => ImageDim::D2Array,
        6 => ImageDim::D2Msaa,
        _ => ImageDim::D2MsaaArray,
    }
}

/// The address VGPR numbers of an instruction in order: each `Addr` VGPR
/// operand before the T# (one range when contiguous, one operand per VGPR
/// with NSA), expanded register by register.
pub(crate) fn address_vgprs(inst: &Instruction) -> Vec<u16> {
    let mut out = Vec::new();
    // Operand 0 is vdata; the address VGPRs follow until the first SGPR
    // operand (the T#).
    for s in inst.operands.iter().skip(1) {
        match s.op {
            Operand::Reg { code, count } if code >= 256 => {
                out.extend((0..count as u16).map(|k| code - 256 + k));
            }
            _ => break,
        }
    }
    out
}

/// The data VGPR of each dmask component, packed in consecutive VGPRs from
/// the first: component c (x = 0) of `dmask` sits in VGPR `first + k`
/// where k counts the set bits below c. `None` for components outside
/// dmask.
pub(crate) fn dmask_slots(dmask: u8) -> [Option<u8>; 4] {
    let mut out = [None; 4];
    let mut k = 0u8;
    for (c, slot) in out.iter_mut().enumerate() {
        if dmask & (1 << c) != 0 {
            *slot = Some(k);
            k += 1;
        }
    }
    out
}

impl Lifter<'_> {
    pub(super) fn image(&mut self, code: Opcode, inst: &Instruction) {
        if support::image(code) != Support::Lifted {
            self.problem(Image::Opcode);
            return;
        }
        let (Some(form), Some(info)) = (form(code), mimg_info(code)) else {
            self.problem(Image::Opcode);
            return;
        };
        let m: MimgMods = match inst.mods {
            Modifiers::Mimg(m) => m,
            _ => {
                self.problem(Image::Opcode);
                return;
            }
        };
        if let Some(p) = self.image_refusal(form, &m) {
            self.problem(p);
            return;
        }
        let dim = image_dim(m.dim);
        let ncoords = dim_info(m.dim).coords;
        let addrs = address_vgprs(inst);
        if addrs.len() < addr_dwords(info, &m) as usize {
            self.problem(Image::Opcode);
            return;
        }
        let mut next = addrs.iter().map(|&r| r as usize);
        let mut take = |l: &mut Self| next.next().map(|r| l.st.v[r.min(255)]);
        let offset = if form.offset { take(self) } else { None };
        let bias = if form.bias { take(self) } else { None };
        let compare = if form.compare { take(self) } else { None };
        let mut coord = [Value(0); 4];
        for c in coord.iter_mut().take(ncoords as usize) {
            *c = take(self).unwrap_or(Value(0));
        }
        let level = if form.level == Level::Explicit {
            take(self)
        } else {
            None
        };
        let offset = match offset {
            None => None,
            Some(v) => match self.b.func.konst(v) {
                Some(k) => Some(k),
                None => {
                    self.problem(Image::OffsetNotConstant);
                    return;
                }
            },
        };
        // Storage images have one level on the host.
        if matches!(form.what, What::Load | What::Store) {
            if let Some(l) = level {
                if self.b.func.konst(l) != Some(0) {
                    self.problem(Image::MipLevel);
                    return;
                }
            }
        }
        // Descriptor words: operands after the address VGPRs.
        let mut sregs = inst.operands.iter().skip(1).filter_map(|s| match s.op {
            Operand::Reg { code, count } if code < 256 => Some((code as usize, count)),
            _ => None,
        });
        let Some((tcode, tcount)) = sregs.next() else {
            self.problem(Image::Opcode);
            return;
        };
        let scode = sregs.next().map(|x| x.0);
        let mut texture = [Value(0); 8];
        let words = if m.r128 { 4 } else { tcount.min(8) as usize };
        for (k, t) in texture.iter_mut().enumerate().take(words) {
            *t = self.s_word((tcode + k).min(127));
        }
        let sampler = match (info.sampler, scode) {
            (true, Some(s)) => {
                let mut w = [Value(0); 4];
                for (k, x) in w.iter_mut().enumerate() {
                    *x = self.s_word((s + k).min(127));
                }
                Some(w)
            }
            (true, None) => {
                self.problem(Image::Opcode);
                return;
            }
            (false, _) => None,
        };
        let lod = match form.level {
            Level::Implicit => ImageLod::Implicit { bias },
            Level::Zero => ImageLod::Zero,
            Level::Explicit => ImageLod::Explicit(level.unwrap_or(Value(0))),
        };
        let mut slots = dmask_slots(m.dmask & 0xf);
        if self.o.alu_faults.image_dmask_reversed {
            let n = (m.dmask & 0xf).count_ones() as u8;
            for s in slots.iter_mut().flatten() {
                *s = n - 1 - *s;
            }
        }
        let kind = match form.what {
            What::Sample => ImageOpKind::Sample { lod, compare },
            What::Gather => ImageOpKind::Gather {
                lod,
                compare,
                comp: (m.dmask & 0xf).trailing_zeros() as u8,
            },
            What::Load => ImageOpKind::Load,
            What::Store => ImageOpKind::Store,
        };
        let vdata = inst.operands[0];
        let mut data = [None; 4];
        if form.what == What::Store {
            let Operand::Reg { code: dcode, .. } = vdata.op else {
                self.problem(Image::Opcode);
                return;
            };
            let swap = self.o.alu_faults.image_d16_halves_swapped;
            for (c, s) in slots.iter().enumerate() {
                if let Some(k) = s {
                    let base = (dcode as usize).wrapping_sub(256);
                    data[c] = if m.d16 {
                        // Two f16 components per VGPR, the first in the
                        // low half; each widened exactly to f32 (the host
                        // storage texel holds the f32 the format converts).
                        let w = self.st.v.get(base + *k as usize / 2).copied();
                        w.map(|w| {
                            let h = self.half_of(w, (*k % 2 == 1) != swap);
                            self.widen16(h)
                        })
                    } else {
                        self.st.v.get(base + *k as usize).copied()
                    };
                }
            }
        }
        let op = ImageOp {
            pc: self.pc,
            kind,
            dim,
            texture,
            texture_words: words as u8,
            sampler,
            coord,
            coords: ncoords,
            offset,
            data,
            array: None,
        };
        let text = self.txt();
        self.image_texts.insert(self.pc, text);
        let cond = self.active();
        if form.what == What::Store {
            self.b.func.images.push(op);
            let index = self.b.func.images.len() as u32 - 1;
            self.b.effect(Effect::ImageStore { op: index, cond });
            return;
        }
        // (data VGPR, component) of each result dword.
        let outs: Vec<(u8, u8)> = if form.what == What::Gather {
            // Four texels of one component: x, y, z, w of the result.
            (0..4).map(|c| (c, c)).collect()
        } else {
            slots
                .iter()
                .enumerate()
                .filter_map(|(c, s)| s.map(|k| (k, c as u8)))
                .collect()
        };
        let vals: Vec<(u8, Value)> = match self.lane_slots(&op, cond) {
            // Soundness: an index not proved below the slots could name a
            // descriptor the expansion does not cover.
            // An unproved index of a sample or gather reads a host
            // descriptor array (`Options::lane_table_arrays`, on by
            // default); other operations would need storage-image arrays.
            Some(lane)
                if !lane.proved
                    && !self.o.trust_lane_table_slots
                    && self.o.lane_table_arrays
                    && matches!(form.what, What::Sample | What::Gather) =>
            {
                self.lane_table_array(op, &lane, &outs)
            }
            Some(lane) if !lane.proved && !self.o.trust_lane_table_slots => {
                self.problem(Image::UnprovedTableSlot { slots: lane.slots });
                return;
            }
            Some(lane) => self.lane_table_results(op, &lane, &outs),
            None => {
                self.b.func.images.push(op);
                let index = self.b.func.images.len() as u32 - 1;
                outs.iter()
                    .map(|&(k, c)| (k, self.b.load(Load::Image { op: index, comp: c })))
                    .collect()
            }
        };
        for (k, v) in vals {
            self.write_v(&vdata, k, v);
        }
        self.image_status(&vdata, outs.len() as u8, m.tfe);
    }

    /// The T# (and S#) of `op` read by scalar loads from one table at a
    /// per-lane slot, `slot · scale + c` bytes with `slot` a lane value:
    /// how to expand it ([`Self::lane_table_results`]). `None` when any
    /// word is not such a load (or the slot is uniform: a per-draw index,
    /// `Source::IndexedTableWord`).
    fn lane_slots(&self, op: &ImageOp, active: Value) -> Option<LaneSlots> {
        let f = &self.b.func;
        let tex = lane_words(f, &op.texture[..op.texture_words as usize], active)?;
        if self.uniform(tex.base) || !self.uniform(tex.lo) || !self.uniform(tex.hi) {
            return None;
        }
        let sampler = match op.sampler {
            None => None,
            Some(w) => match lane_words(f, &w, active) {
                // The S# at the same per-lane slot (a combined image
                // sampler's descriptor), or one S# for every lane.
                Some(s) if s.base == tex.base && self.uniform(s.lo) && self.uniform(s.hi) => {
                    Some(s)
                }
                Some(_) => return None,
                None if w.iter().all(|&x| self.uniform(x)) => None,
                None => return None,
            },
        };
        let (index, scale) = scaled_index(f, tex.base)?;
        if scale == 0 {
            return None;
        }
        // An index masked to m + 1 values is proved in range.
        let proved = match f.inst(index).op {
            Op::Bin(Bin::And, a, b) => f.konst(a).or(f.konst(b)).map(|m| m as u64 + 1),
            _ => None,
        };
        let (slots, proved) = match proved {
            Some(n) if n <= LANE_TABLE_SLOTS as u64 => (n as u32, true),
            _ => (LANE_TABLE_SLOTS, false),
        };
        let input = match f.inst(index).op {
            Op::Input(crate::ir::Input::Interp {
                attr,
                chan,
                mode: crate::ir::InterpMode::Flat,
                f16: None,
            }) => Some([attr, chan]),
            _ => None,
        };
        Some(LaneSlots {
            tex,
            sampler,
            scale,
            slots,
            proved,
            input,
        })
    }

    /// One image operation per slot `0..slots` (its T#/S# words read at the
    /// slot's constant offsets, so the host binds each slot's descriptor),
    /// all in the instruction's place and control flow (implicit
    /// derivatives are the quad's, as on the guest), and each result the
    /// one of the slot this lane's offset names (`base == slot · scale`,
    /// the byte offset the hardware reads, so wrapping indices agree). A
    /// lane whose slot is not below `slots` reads 0: the manifest's
    /// `lane_tables` says the host must keep the index below it.
    fn lane_table_results(
        &mut self,
        op: ImageOp,
        lane: &LaneSlots,
        outs: &[(u8, u8)],
    ) -> Vec<(u8, Value)> {
        let shift = u32::from(self.o.alu_faults.lane_table_off_by_one);
        let zero = self.const_u32(0);
        let mut acc: Vec<Value> = vec![zero; outs.len()];
        for j in 0..lane.slots {
            let slot = j.wrapping_add(shift);
            let mut o = op;
            let words = |l: &mut Self, w: &LaneWords, out: &mut [Value]| {
                for (x, (&c, &pc)) in out.iter_mut().zip(w.consts.iter().zip(&w.pcs)) {
                    let at = l.const_u32(drawbind::word::slot_offset(slot, lane.scale, c));
                    *x = l.b.load(Load::Scalar {
                        pc,
                        lo: w.lo,
                        hi: w.hi,
                        offset: at,
                    });
                }
            };
            let n = op.texture_words as usize;
            words(self, &lane.tex, &mut o.texture[..n]);
            if let (Some(s), Some(w)) = (&lane.sampler, o.sampler.as_mut()) {
                words(self, s, w);
            }
            self.b.func.images.push(o);
            let index = self.b.func.images.len() as u32 - 1;
            let at = self.const_u32(j.wrapping_mul(lane.scale));
            let mine = self.b.icmp(ICmp::Eq, lane.tex.base, at);
            for (a, &(_, c)) in acc.iter_mut().zip(outs) {
                let v = self.b.load(Load::Image { op: index, comp: c });
                *a = self.b.select(mine, v, *a);
            }
        }
        self.lane_tables.push(crate::manifest::LaneTable {
            pc: self.pc,
            scale: lane.scale,
            slots: lane.slots,
            proved: lane.proved,
            input: lane.input,
            array: false,
            loads: Vec::new(),
        });
        outs.iter().zip(acc).map(|(&(k, _), v)| (k, v)).collect()
    }

    /// One image operation through a host descriptor array fed from the
    /// table (`ImageOp::array`): its T# (and a per-slot S#) words are slot
    /// 0's loads, so they resolve to ordinary table words, and each lane
    /// samples the element of the byte offset it reads at (`base`, whose
    /// slot the emitter computes as `base / scale`, reading 0 off a slot
    /// boundary or past the slots the host bound). Exact for every slot
    /// below [`LANE_ARRAY_ELEMENTS`] the host binds; a lane past them reads
    /// 0 (the manifest says so, and `shaderlift run` checks that the
    /// interpreter read no slot past them).
    fn lane_table_array(
        &mut self,
        op: ImageOp,
        lane: &LaneSlots,
        outs: &[(u8, u8)],
    ) -> Vec<(u8, Value)> {
        let mut o = op;
        let words = |l: &mut Self, w: &LaneWords, out: &mut [Value]| {
            for (x, (&c, &pc)) in out.iter_mut().zip(w.consts.iter().zip(&w.pcs)) {
                let at = l.const_u32(c);
                *x = l.b.load(Load::Scalar {
                    pc,
                    lo: w.lo,
                    hi: w.hi,
                    offset: at,
                });
            }
        };
        let n = op.texture_words as usize;
        words(self, &lane.tex, &mut o.texture[..n]);
        if let (Some(s), Some(w)) = (&lane.sampler, o.sampler.as_mut()) {
            words(self, s, w);
        }
        // Negative control: the next slot's descriptor.
        let index = if self.o.alu_faults.lane_table_off_by_one {
            let k = self.const_u32(lane.scale);
            self.b.bin(Bin::Add, lane.tex.base, k)
        } else {
            lane.tex.base
        };
        o.array = Some(crate::ir::ArrayIndex {
            index,
            scale: lane.scale,
            sampler_per_slot: lane.sampler.is_some(),
        });
        self.b.func.images.push(o);
        let image = self.b.func.images.len() as u32 - 1;
        let mut loads = lane.tex.pcs.clone();
        loads.extend(lane.sampler.iter().flat_map(|s| s.pcs.iter().copied()));
        loads.sort_unstable();
        loads.dedup();
        self.lane_tables.push(crate::manifest::LaneTable {
            pc: self.pc,
            scale: lane.scale,
            slots: 0,
            proved: false,
            input: lane.input,
            array: true,
            loads,
        });
        outs.iter()
            .map(|&(k, c)| (k, self.b.load(Load::Image { op: image, comp: c })))
            .collect()
    }

    /// `tfe` (texture fail enable): the status dword after the `n` result
    /// dwords. The translation writes 0, "resident, no fault": every host
    /// image is fully resident (Vulkan images without sparse residency;
    /// lavapipe binds all memory), and the interpreter, modelling
    /// resident linear images, writes 0 too. A shader's
    /// `sparseTexelsResidentARB(code)` is therefore true.
    fn image_status(&mut self, vdata: &isa::Slot, n: u8, tfe: bool) {
        if !tfe {
            return;
        }
        let status = u32::from(self.o.alu_faults.image_status_nonresident);
        let v = self.const_u32(status);
        self.write_v(vdata, n, v);
    }

    /// Why the modifiers or the stage keep an instruction from translating.
    fn image_refusal(&self, form: Form, m: &MimgMods) -> Option<Image> {
        let sampling = matches!(form.what, What::Sample | What::Gather);
        Some(if m.a16 {
            Image::A16
        } else if m.d16 && form.what != What::Store {
            Image::D16
        } else if m.lwe || (m.tfe && (form.what == What::Store || m.dmask & 0xf == 0)) {
            Image::Status
        } else if m.unorm && sampling {
            Image::Unnormalized
        } else if matches!(m.dim & 7, 6 | 7)
            || (m.dim & 7 == 3 && (form.what != What::Sample || form.compare || form.offset))
        {
            // A cube is sampled per face (`emit::image`): plain samples
            // only.
            Image::Dim {
                dim: dim_info(m.dim).name.as_str(),
            }
        } else if (form.compare || form.what == What::Gather) && !matches!(m.dim & 7, 1 | 5) {
            // Depth images and gathers are 2D (or 2D arrays) on the host.
            Image::Dim {
                dim: dim_info(m.dim).name.as_str(),
            }
        } else if sampling && form.level == Level::Implicit && self.o.stage != Stage::Ps {
            Image::ImplicitLod
        } else if form.what == What::Sample && form.compare && m.dmask & 0xf != 1 {
            Image::CompareComponents
        } else if form.what == What::Gather && (m.dmask & 0xf).count_ones() != 1 {
            Image::GatherComponents
        } else {
            return None;
        })
    }
}

/// One host image binding: the T# (and S#) sources of its instructions, and
/// what the host declares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct HostImage {
    /// Combined image sampler or storage image.
    pub kind: crate::manifest::ImageKind,
    /// Dimensionality.
    pub dim: ImageDim,
    /// The component type.
    pub sampled_type: crate::manifest::SampledType,
    /// A depth image (its instructions compare).
    pub depth: bool,
    /// The T# words' sources.
    pub texture: Vec<crate::ir::SrcOrConst>,
    /// The S# words' sources.
    pub sampler: Option<[crate::ir::SrcOrConst; 4]>,
    /// The image operations ([`crate::ir::Func::images`] indices) through it.
    pub ops: Vec<u32>,
    /// A descriptor array fed from a table: (bytes per slot, S# per slot).
    pub array: Option<(u32, bool)>,
}

/// The host images of the live image operations, one per distinct (T#
/// sources, S# sources, kind, dim, sampled type, depth), in order of first
/// use; or the refusals of operations whose T#/S# words are not all
/// resolved (user data, table words, buffer words or constants).
pub(crate) fn host_images(
    f: &crate::ir::Func,
    texts: &std::collections::HashMap<u32, String>,
) -> Result<Vec<HostImage>, Vec<crate::ir::Unsupported>> {
    use crate::ir::{Input, Op, SrcOrConst};
    use crate::manifest::{ImageKind, SampledType};
    let soc = |v: Value| match f.inst(v).op {
        Op::Const(c) => Some(SrcOrConst::Const(c)),
        Op::Input(Input::Param(s)) => Some(SrcOrConst::Src(s)),
        _ => None,
    };
    let mut live: Vec<u32> = Vec::new();
    for (i, inst) in f.insts.iter().enumerate() {
        if !f.is_live(Value(i as u32)) {
            continue;
        }
        let op = match inst.op {
            Op::Load(l) => match f.loads[l as usize] {
                Load::Image { op, .. } => op,
                _ => continue,
            },
            Op::Effect(e) => match f.effects[e as usize] {
                Effect::ImageStore { op, .. } => op,
                _ => continue,
            },
            _ => continue,
        };
        if !live.contains(&op) {
            live.push(op);
        }
    }
    live.sort_unstable();
    let mut out: Vec<HostImage> = Vec::new();
    let mut problems = Vec::new();
    for op in live {
        let i = &f.images[op as usize];
        let refuse = |construct: Image| crate::ir::Unsupported {
            pc: i.pc,
            inst: texts.get(&i.pc).cloned().unwrap_or_default(),
            construct: construct.into(),
        };
        let mut texture = Vec::with_capacity(i.texture_words as usize);
        for (k, &w) in i.texture[..i.texture_words as usize].iter().enumerate() {
            match soc(w) {
                Some(s) => texture.push(s),
                None => {
                    problems.push(refuse(Image::UntracedTexture { word: k as u8 }));
                    break;
                }
            }
        }
        if texture.len() != i.texture_words as usize {
            continue;
        }
        let sampler = match i.sampler {
            None => None,
            Some(words) => {
                let mut s = [SrcOrConst::Const(0); 4];
                let mut ok = true;
                for (k, &w) in words.iter().enumerate() {
                    match soc(w) {
                        Some(x) => s[k] = x,
                        None => {
                            problems.push(refuse(Image::UntracedSampler { word: k as u8 }));
                            ok = false;
                            break;
                        }
                    }
                }
                if !ok {
                    continue;
                }
                Some(s)
            }
        };
        let (kind, depth) = match i.kind {
            ImageOpKind::Sample { compare, .. } | ImageOpKind::Gather { compare, .. } => {
                (ImageKind::Sampled, compare.is_some())
            }
            ImageOpKind::Load | ImageOpKind::Store => (ImageKind::Storage, false),
        };
        let h = HostImage {
            kind,
            dim: i.dim,
            sampled_type: SampledType::Float,
            depth,
            texture,
            sampler,
            ops: vec![op],
            array: i.array.map(|a| (a.scale, a.sampler_per_slot)),
        };
        match out.iter_mut().find(|x| {
            x.kind == h.kind
                && x.dim == h.dim
                && x.sampled_type == h.sampled_type
                && x.depth == h.depth
                && x.texture == h.texture
                && x.sampler == h.sampler
                && x.array == h.array
        }) {
            Some(x) => x.ops.push(op),
            None => out.push(h),
        }
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

/// The blocks of both arms of a selection (loops' bodies included, and the
/// latches [`crate::structure::normalize_loops`] made).
fn region_blocks(
    then: &[crate::structure::Node],
    els: &[crate::structure::Node],
) -> Vec<crate::ir::Block> {
    let mut acc = Vec::new();
    crate::structure::collect_blocks(then, &mut acc);
    crate::structure::collect_blocks(els, &mut acc);
    acc
}

/// Implicit-derivative samples inside the region of a per-lane EXEC branch
/// (`div`: blocks ending in one, with its pc): on the host the lanes that
/// skip the region do not compute their coordinates there, so the quad's
/// derivatives are undefined; the guest takes them from every lane of the
/// quad.
pub(crate) fn implicit_lod_in_regions(
    f: &crate::ir::Func,
    nodes: &[crate::structure::Node],
    div: &std::collections::HashMap<crate::ir::Block, u32>,
    texts: &std::collections::HashMap<u32, String>,
    out: &mut Vec<crate::ir::Unsupported>,
) {
    use crate::structure::Node;
    for n in nodes {
        match n {
            Node::Loop { body, .. } => implicit_lod_in_regions(f, body, div, texts, out),
            Node::Continue { .. } => {}
            Node::If {
                from,
                cond,
                then,
                els,
                ..
            } => {
                // A condition the same in every lane of a primitive is the
                // same in a quad (one primitive's pixels, on the guest and
                // on the host): the quad runs the region together.
                let quad_uniform = super::valu::primitive_uniform(f, *cond);
                if let Some(&branch) = div.get(from).filter(|_| !quad_uniform) {
                    for b in region_blocks(then, els) {
                        for &v in &f.blocks[b.0 as usize].insts {
                            let crate::ir::Op::Load(l) = f.inst(v).op else {
                                continue;
                            };
                            let Load::Image { op, .. } = f.loads[l as usize] else {
                                continue;
                            };
                            let i = &f.images[op as usize];
                            let implicit = matches!(
                                i.kind,
                                ImageOpKind::Sample {
                                    lod: ImageLod::Implicit { .. },
                                    ..
                                }
                            );
                            if implicit && f.is_live(v) && !out.iter().any(|u| u.pc == i.pc) {
                                out.push(crate::ir::Unsupported {
                                    pc: i.pc,
                                    inst: texts.get(&i.pc).cloned().unwrap_or_default(),
                                    construct: Image::ImplicitLodInRegion { branch }.into(),
                                });
                            }
                        }
                    }
                }
                implicit_lod_in_regions(f, then, div, texts, out);
                implicit_lod_in_regions(f, els, div, texts, out);
            }
            Node::Block(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dmask_components_take_consecutive_slots_in_component_order() {
        assert_eq!(dmask_slots(0xf), [Some(0), Some(1), Some(2), Some(3)]);
        assert_eq!(dmask_slots(0x5), [Some(0), None, Some(1), None]);
        assert_eq!(dmask_slots(0x2), [None, Some(0), None, None]);
        assert_eq!(dmask_slots(0xc), [None, None, Some(0), Some(1)]);
        assert_eq!(dmask_slots(0), [None; 4]);
    }

    #[test]
    fn offset_fields_are_signed_six_bit_x_y_z() {
        use crate::emit::offset_fields;
        assert_eq!(offset_fields(0), [0, 0, 0]);
        // x = -1, y = 1, z = -32
        assert_eq!(offset_fields(0x20_01_3f), [-1, 1, -32]);
        // bits outside the fields are ignored
        assert_eq!(offset_fields(0xc0c0_c0c0 | 0x1f), [31, 0, 0]);
    }

    /// Every lifted form reads the extra address dwords and the level
    /// isa's table gives the opcode (so the address order here and the
    /// register count there agree).
    #[test]
    fn each_lifted_form_matches_the_isa_address_layout() {
        let mut n = 0;
        for code in Opcode::all().filter(|o| support::image(*o) == Support::Lifted) {
            let f = form(code).unwrap_or_else(|| panic!("{} has no form", code.name()));
            let info = mimg_info(code).expect("an MIMG opcode");
            let extra = u8::from(f.offset) + u8::from(f.bias) + u8::from(f.compare);
            assert_eq!(extra, info.extra, "{}", code.name());
            assert_eq!(f.level == Level::Explicit, info.lod, "{}", code.name());
            assert!(!info.gradients, "{}", code.name());
            assert_eq!(
                f.what == What::Sample || f.what == What::Gather,
                info.sampler,
                "{}",
                code.name()
            );
            n += 1;
        }
        assert_eq!(n, 20);
    }

    #[test]
    fn dim_fields_map_to_the_manifest_dims() {
        let dims: Vec<ImageDim> = (0..8).map(image_dim).collect();
        assert_eq!(
            dims,
            [
                ImageDim::D1,
                ImageDim::D2,
                ImageDim::D3,
                ImageDim::Cube,
                ImageDim::D1Array,
                ImageDim::D2Array,
                ImageDim::D2Msaa,
                ImageDim::D2MsaaArray
            ]
        );
    }
}
