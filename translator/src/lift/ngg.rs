//! NGG shaders as a compute pass: the entry state of one subgroup (one
//! wave), computed from the host workgroup id, the lane and the draw's push
//! words, as [`crate::wave::ngg`] describes.

use super::state::{Half, Sgpr};
use super::Lifter;
use crate::ir::{Bin, ICmp, Input, Load};
use crate::wave::{NggEntry, PrimVgprs};

impl Lifter<'_> {
    /// Set the entry SGPRs, VGPRs and EXEC of an NGG subgroup.
    pub(super) fn ngg_entry(&mut self, e: NggEntry) {
        let lanes: u32 = if self.o.wave64 { 64 } else { 32 };
        let step = 3 * NggEntry::prims_per_group(lanes);
        let g = self.b.input(Input::WorkgroupId(0));
        let instance = self.b.input(Input::WorkgroupId(1));
        let lane = self.b.input(Input::LocalIndex);
        // Counted subgroups (non-indexed draws).
        let first = self.b.input(Input::DrawFirstVertex);
        let n = self.b.input(Input::DrawVertexCount);
        let kstep = self.const_u32(step);
        let start = self.b.bin(Bin::Mul, g, kstep);
        let rest = self.b.bin(Bin::Sub, n, start);
        let klanes = self.const_u32(lanes);
        let fits = self.b.icmp(ICmp::ULe, rest, klanes);
        let c_verts = self.b.select(fits, rest, kstep);
        // ⌊V / 3⌋ for V ≤ 64: (V · 43691) >> 17.
        let k3inv = self.const_u32(43691);
        let k17 = self.const_u32(17);
        let t = self.b.bin(Bin::Mul, c_verts, k3inv);
        let c_prims = self.b.bin(Bin::ShrL, t, k17);
        let c_base = self.b.add(first, start);
        let c_id = self.b.add(c_base, lane);
        let k3 = self.const_u32(3);
        let one = self.const_u32(1);
        let two = self.const_u32(2);
        let c_i0 = self.b.bin(Bin::Mul, lane, k3);
        let c_i1 = self.b.add(c_i0, one);
        let c_i2 = self.b.add(c_i0, two);
        // Listed subgroups (indexed draws): NggEntry::list_words.
        let flag = self.b.input(Input::NggIndexed);
        let zero = self.const_u32(0);
        let listed = self.b.icmp(ICmp::Ne, flag, zero);
        let kstride = self.const_u32(NggEntry::list_stride(lanes));
        let base = self.b.bin(Bin::Mul, g, kstride);
        let counts = self.b.load(Load::NggList { word: base });
        let k8 = self.const_u32(8);
        let kff = self.const_u32(0xff);
        let l_verts = self.b.bin(Bin::And, counts, kff);
        let l_p = self.b.bin(Bin::ShrL, counts, k8);
        let l_prims = self.b.bin(Bin::And, l_p, kff);
        let id_at = self.b.add(base, one);
        let id_at = self.b.add(id_at, lane);
        let l_id = self.b.load(Load::NggList { word: id_at });
        let klanes1 = self.const_u32(lanes + 1);
        let prim_at = self.b.add(base, klanes1);
        let prim_at = self.b.add(prim_at, lane);
        let packed = self.b.load(Load::NggList { word: prim_at });
        let k10 = self.const_u32(10);
        let k20 = self.const_u32(20);
        let k3ff = self.const_u32(0x3ff);
        let l_i0 = self.b.bin(Bin::And, packed, k3ff);
        let t = self.b.bin(Bin::ShrL, packed, k10);
        let l_i1 = self.b.bin(Bin::And, t, k3ff);
        let t = self.b.bin(Bin::ShrL, packed, k20);
        let l_i2 = self.b.bin(Bin::And, t, k3ff);
        let (l_i0, l_i1, l_i2) = if self.o.faults.ngg_listed_prims_rotated {
            (l_i1, l_i2, l_i0)
        } else {
            (l_i0, l_i1, l_i2)
        };
        let verts = self.b.select(listed, l_verts, c_verts);
        let prims = self.b.select(listed, l_prims, c_prims);
        let id = self.b.select(listed, l_id, c_id);
        let i0 = self.b.select(listed, l_i0, c_i0);
        let i1 = self.b.select(listed, l_i1, c_i1);
        let i2 = self.b.select(listed, l_i2, c_i2);
        let k12 = self.const_u32(12);
        let k22 = self.const_u32(22);
        let p8 = self.b.bin(Bin::Shl, prims, k8);
        let one_wave = self.const_u32(1 << 28);
        let mwi = self.b.bin(Bin::Or, verts, p8);
        let mwi = self.b.bin(Bin::Or, mwi, one_wave);
        let v12 = self.b.bin(Bin::Shl, verts, k12);
        let p22 = self.b.bin(Bin::Shl, prims, k22);
        let tg = self.b.bin(Bin::Or, v12, p22);
        if let Some(r) = self.o.abi.merged_wave_info_sgpr {
            self.st.s[r as usize] = Sgpr::Word(mwi);
        }
        if let Some(r) = self.o.abi.gs_tg_info_sgpr {
            self.st.s[r as usize] = Sgpr::Word(tg);
        }
        if let Some(v) = self.o.abi.vertex_id_vgpr {
            self.st.v[v as usize] = if self.o.faults.ngg_vertex_ids_shifted {
                self.b.add(id, one)
            } else {
                id
            };
        }
        if let Some(v) = self.o.abi.instance_id_vgpr {
            self.st.v[v as usize] = instance;
        }
        match e.prims {
            PrimVgprs::Indices => {
                let k16 = self.const_u32(16);
                let hi = self.b.bin(Bin::Shl, i1, k16);
                self.st.v[0] = self.b.bin(Bin::Or, i0, hi);
                self.st.v[1] = i2;
            }
            PrimVgprs::Passthrough => {
                let a = self.b.bin(Bin::Shl, i1, k10);
                let c = self.b.bin(Bin::Shl, i2, k20);
                let x = self.b.bin(Bin::Or, i0, a);
                self.st.v[0] = self.b.bin(Bin::Or, x, c);
            }
        }
        // EXEC: the lanes with a vertex (V ≥ P).
        let live = self.b.icmp(ICmp::ULt, lane, verts);
        if self.o.wave64 {
            self.st.s[126] = Sgpr::Mask(live, Half::Lo);
            self.st.s[127] = Sgpr::Mask(live, Half::Hi);
        } else {
            self.st.s[126] = Sgpr::Mask(live, Half::Full);
        }
    }
}
