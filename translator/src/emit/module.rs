//! The module: [`emit`] sets the version, capabilities and types, then the
//! entry point of the execution model (one vertex entry point `main`), its
//! interface variables (push constants, storage buffers, outputs, built-in
//! inputs) and the function around the body.

use super::{EmitError, Emitter, Plan, Types, PUSH_WORDS};
use crate::ir::{ExportTarget, Func, Input, Op, Tri, Ty, Value};
use crate::structure::Node;
use rspirv::binary::Assemble;
use rspirv::dr::{Builder, Operand};
use spirv::{
    AddressingModel, BuiltIn, Capability, Decoration, ExecutionModel, FunctionControl, MemoryModel,
    StorageClass, Word,
};
use std::collections::HashMap;

/// Emit the module.
pub fn emit(f: &Func, tree: &[Node], plan: &Plan) -> Result<Vec<u32>, EmitError> {
    let mut b = Builder::new();
    b.set_version(1, 3);
    b.capability(Capability::Shader);
    // v_fma_f32 is computed in f64 (see `Emitter::fma`), and so are the
    // approximate operations in precise mode (`precise`).
    let uses_fma = f.insts.iter().enumerate().any(|(i, x)| {
        let f64_op = match x.op {
            Op::Tri(Tri::Fma, ..) => true,
            Op::Un(op, _) => plan.precise && super::precise::is_approximate(op),
            _ => false,
        };
        f64_op && f.is_live(Value(i as u32))
    });
    if uses_fma {
        b.capability(Capability::Float64);
    }
    // Pixel shaders' DPP quad permutations: subgroup shuffles.
    if super::fragment::uses_quad(f) {
        b.capability(Capability::GroupNonUniform);
        b.capability(Capability::GroupNonUniformShuffle);
    }
    let glsl = b.ext_inst_import("GLSL.std.450");
    b.memory_model(AddressingModel::Logical, MemoryModel::GLSL450);
    let void = b.type_void();
    let bool_ = b.type_bool();
    let u32_ = b.type_int(32, 0);
    let i32_ = b.type_int(32, 1);
    let f32_ = b.type_float(32, None);
    let f64_ = if uses_fma { b.type_float(64, None) } else { 0 };
    let v4f = b.type_vector(f32_, 4);
    let t = Types {
        void,
        bool_,
        u32_,
        i32_,
        f32_,
        f64_,
        v4f,
        p_push_u32: b.type_pointer(None, StorageClass::PushConstant, u32_),
        p_sb_u32: b.type_pointer(None, StorageClass::StorageBuffer, u32_),
        p_out_v4f: b.type_pointer(None, StorageClass::Output, v4f),
        p_in_u32: b.type_pointer(None, StorageClass::Input, u32_),
        p_fn_u32: b.type_pointer(None, StorageClass::Function, u32_),
        p_fn_f32: b.type_pointer(None, StorageClass::Function, f32_),
        p_fn_bool: b.type_pointer(None, StorageClass::Function, bool_),
        fn_rd: b.type_function(u32_, vec![u32_, u32_]),
    };
    let mut e = Emitter {
        f,
        plan,
        b,
        t,
        glsl,
        consts: HashMap::new(),
        consts64: HashMap::new(),
        const_val: HashMap::new(),
        vals: vec![0; f.insts.len()],
        push_var: 0,
        vars: HashMap::new(),
        continues: Vec::new(),
        dead: false,
        sb: HashMap::new(),
        read_fns: HashMap::new(),
        unaligned_fns: HashMap::new(),
        out_vars: HashMap::new(),
        access_cache: HashMap::new(),
        vid: 0,
        iid: 0,
        wgid: 0,
        lid: 0,
        numwg: 0,
        lanes: None,
        in_vars: HashMap::new(),
        frag_coord: 0,
        subgroup_id: 0,
        image_vars: Vec::new(),
        image_results: HashMap::new(),
        image_bound: HashMap::new(),
        flushed: Default::default(),
    };
    e.module(tree)?;
    Ok(e.b.module().assemble())
}

impl Emitter<'_> {
    pub(super) fn module(&mut self, tree: &[Node]) -> Result<(), EmitError> {
        let t_u32 = self.t.u32_;
        // Push constants: a block of u32 members.
        if self.plan.push_members > 0 {
            let members = vec![t_u32; self.plan.push_members as usize];
            let st = self.b.type_struct(members);
            self.b.decorate(st, Decoration::Block, vec![]);
            for i in 0..self.plan.push_members {
                self.b.member_decorate(
                    st,
                    i,
                    Decoration::Offset,
                    vec![Operand::LiteralBit32(4 * i)],
                );
            }
            let p = self.b.type_pointer(None, StorageClass::PushConstant, st);
            self.push_var = self.b.variable(p, None, StorageClass::PushConstant, None);
            self.b.name(self.push_var, "params");
        }
        // Storage buffers: struct { u32 data[]; }.
        let rta = self.b.type_runtime_array(t_u32);
        self.b
            .decorate(rta, Decoration::ArrayStride, vec![Operand::LiteralBit32(4)]);
        let mut sb_bindings: Vec<(u32, bool, String)> = Vec::new();
        let mut ids: Vec<_> = self.plan.bindings.iter().collect();
        ids.sort_by_key(|(k, _)| **k);
        for (id, s) in ids {
            sb_bindings.push((s.binding, false, format!("desc{id}")));
        }
        if let Some((bnd, ..)) = self.plan.window {
            // Compute shaders store through the window.
            sb_bindings.push((bnd, self.plan.compute.is_some(), "window".into()));
        }
        if let Some(n) = &self.plan.ngg {
            sb_bindings.push((n.binding, true, "ngg_out".into()));
        }
        if let Some(bnd) = self.plan.ngg_ids {
            sb_bindings.push((bnd, false, "ngg_subgroups".into()));
        }
        if let Some(bnd) = self.plan.params {
            sb_bindings.push((bnd, false, "params_spill".into()));
        }
        if let Some(bnd) = self.plan.feedback {
            sb_bindings.push((bnd, true, "feedback".into()));
        }
        if let Some((bnd, ..)) = self.plan.test {
            sb_bindings.push((bnd, true, "test_outputs".into()));
        }
        let mut structs: HashMap<bool, Word> = HashMap::new();
        for (bnd, writable, name) in sb_bindings {
            let st = match structs.get(&writable) {
                Some(&st) => st,
                None => {
                    let id = self.b.id();
                    let st = self.b.type_struct_id(Some(id), vec![rta]);
                    self.b.decorate(st, Decoration::Block, vec![]);
                    self.b.member_decorate(
                        st,
                        0,
                        Decoration::Offset,
                        vec![Operand::LiteralBit32(0)],
                    );
                    if !writable {
                        self.b
                            .member_decorate(st, 0, Decoration::NonWritable, vec![]);
                    }
                    structs.insert(writable, st);
                    st
                }
            };
            let p = self.b.type_pointer(None, StorageClass::StorageBuffer, st);
            let v = self.b.variable(p, None, StorageClass::StorageBuffer, None);
            self.b
                .decorate(v, Decoration::DescriptorSet, vec![Operand::LiteralBit32(0)]);
            self.b
                .decorate(v, Decoration::Binding, vec![Operand::LiteralBit32(bnd)]);
            self.b.name(v, name);
            self.sb.insert(bnd, v);
        }
        self.declare_images()?;
        // Inputs and outputs.
        let mut interface = Vec::new();
        if self.plan.compute.is_some() {
            return self.compute_module(tree, interface);
        }
        let (vid, iid) = if self.plan.fragment {
            self.fragment_interface(&mut interface)?;
            (0, 0)
        } else {
            self.vertex_interface(&mut interface)?
        };
        // Helper read functions.
        if self.plan.window.is_some() {
            self.read_fn(None)?;
        }
        let mut bids: Vec<u16> = self.plan.bindings.keys().copied().collect();
        bids.sort();
        for &id in &bids {
            self.read_fn(Some(id))?;
        }
        if self.plan.window.is_some() {
            self.unaligned_fn(None)?;
        }
        for id in bids {
            self.unaligned_fn(Some(id))?;
        }
        // main.
        let fn_void = self.b.type_function(self.t.void, vec![]);
        let main = self
            .b
            .begin_function(self.t.void, None, FunctionControl::NONE, fn_void)?;
        self.b.begin_block(None)?;
        // Variables for block parameters.
        for blk in &self.f.blocks {
            for &p in &blk.params {
                let pt = match self.f.ty(p) {
                    Ty::Bool => self.t.p_fn_bool,
                    Ty::F32 => self.t.p_fn_f32,
                    _ => self.t.p_fn_u32,
                };
                let v = self.b.variable(pt, None, StorageClass::Function, None);
                self.vars.insert(p, v);
            }
        }
        self.vid = vid;
        self.iid = iid;
        // Outputs start at zero.
        let zero_v4 = {
            let z = self.constant(self.t.f32_, 0);
            self.b.constant_composite(self.t.v4f, vec![z, z, z, z])
        };
        let mut outs: Vec<(ExportTarget, Word)> =
            self.out_vars.iter().map(|(k, v)| (*k, *v)).collect();
        outs.sort();
        let zero_f = self.constant(self.t.f32_, 0);
        for (tgt, o) in outs {
            let z = if tgt == ExportTarget::Mrtz {
                zero_f
            } else {
                zero_v4
            };
            self.b.store(o, z, None, vec![])?;
        }
        self.body_and_end(tree)?;
        if self.plan.fragment {
            self.b
                .entry_point(ExecutionModel::Fragment, main, "main", interface);
            self.b
                .execution_mode(main, spirv::ExecutionMode::OriginUpperLeft, vec![]);
            if self.plan.outputs.contains(&ExportTarget::Mrtz) {
                self.b
                    .execution_mode(main, spirv::ExecutionMode::DepthReplacing, vec![]);
            }
        } else {
            self.b
                .entry_point(ExecutionModel::Vertex, main, "main", interface);
        }
        Ok(())
    }

    fn vertex_interface(&mut self, interface: &mut Vec<Word>) -> Result<(Word, Word), EmitError> {
        let vid = self
            .b
            .variable(self.t.p_in_u32, None, StorageClass::Input, None);
        self.b.decorate(
            vid,
            Decoration::BuiltIn,
            vec![Operand::BuiltIn(BuiltIn::VertexIndex)],
        );
        let iid = self
            .b
            .variable(self.t.p_in_u32, None, StorageClass::Input, None);
        self.b.decorate(
            iid,
            Decoration::BuiltIn,
            vec![Operand::BuiltIn(BuiltIn::InstanceIndex)],
        );
        interface.extend([vid, iid]);
        // Every vertex shader writes a position, exported or not.
        let mut targets = self.plan.outputs.clone();
        if !targets.contains(&ExportTarget::Pos(0)) {
            targets.push(ExportTarget::Pos(0));
        }
        for tgt in targets {
            let v = self
                .b
                .variable(self.t.p_out_v4f, None, StorageClass::Output, None);
            match tgt {
                ExportTarget::Pos(0) => {
                    self.b.decorate(
                        v,
                        Decoration::BuiltIn,
                        vec![Operand::BuiltIn(BuiltIn::Position)],
                    );
                }
                ExportTarget::Pos(n) => {
                    // pos1..3 (misc/clip vectors) have no fixed builtin:
                    // they become generic outputs after the params.
                    self.b.decorate(
                        v,
                        Decoration::Location,
                        vec![Operand::LiteralBit32(32 + n as u32)],
                    );
                }
                ExportTarget::Param(n) => {
                    self.b.decorate(
                        v,
                        Decoration::Location,
                        vec![Operand::LiteralBit32(n as u32)],
                    );
                }
                ExportTarget::Mrt(_)
                | ExportTarget::Mrtz
                | ExportTarget::Null
                | ExportTarget::Prim
                | ExportTarget::AllocReq => {
                    return Err(EmitError(format!(
                        "{tgt:?} is not an output of a vertex shader"
                    )))
                }
            }
            interface.push(v);
            self.out_vars.insert(tgt, v);
        }
        Ok((vid, iid))
    }

    pub(super) fn push_load(&mut self, member: u32) -> Result<Word, EmitError> {
        if member >= PUSH_WORDS {
            let Some(bnd) = self.plan.params else {
                return Err(EmitError(format!("parameter word {member} has no place")));
            };
            let u = self.t.u32_;
            let bl = self.t.bool_;
            let var = self.sb[&bnd];
            let i = self.const_u32(member - PUSH_WORDS);
            let zero = self.const_u32(0);
            let len = self.b.array_length(u, None, var, 0)?;
            let ok = self.b.u_less_than(bl, None, i, len)?;
            let safe = self.b.select(u, None, ok, i, zero)?;
            let p = self
                .b
                .access_chain(self.t.p_sb_u32, None, var, vec![zero, safe])?;
            let w = self.b.load(u, None, p, None, vec![])?;
            return Ok(self.b.select(u, None, ok, w, zero)?);
        }
        let idx = self.const_u32(member);
        let p = self
            .b
            .access_chain(self.t.p_push_u32, None, self.push_var, vec![idx])?;
        Ok(self.b.load(self.t.u32_, None, p, None, vec![])?)
    }

    pub(super) fn input(&mut self, i: Input) -> Result<Word, EmitError> {
        Ok(match i {
            Input::VertexId | Input::InstanceId => {
                let (var, off) = if i == Input::VertexId {
                    (self.vid, self.plan.vertex_id_offset)
                } else {
                    (self.iid, self.plan.instance_id_offset)
                };
                let x = self.b.load(self.t.u32_, None, var, None, vec![])?;
                match off {
                    Some(m) => {
                        let o = self.push_load(m)?;
                        self.b.i_add(self.t.u32_, None, x, o)?
                    }
                    None => x,
                }
            }
            Input::WorkgroupId(0) if self.plan.wave_split.is_some() => self.split_ids()?.0,
            Input::LocalId(k) if self.plan.wave_split.is_some() => {
                // The guest's local id from its local index.
                let Some(sp) = self.plan.wave_split else {
                    return Err(EmitError("no wave split".into()));
                };
                let [sx, sy, _] = sp.guest_size;
                let idx = self.split_ids()?.1;
                let u = self.t.u32_;
                let ksx = self.const_u32(sx.max(1));
                let ksy = self.const_u32(sy.max(1));
                match k {
                    0 => self.b.u_mod(u, None, idx, ksx)?,
                    1 => {
                        let q = self.b.u_div(u, None, idx, ksx)?;
                        self.b.u_mod(u, None, q, ksy)?
                    }
                    _ => {
                        let ksxy = self.const_u32(sx.max(1).saturating_mul(sy.max(1)));
                        self.b.u_div(u, None, idx, ksxy)?
                    }
                }
            }
            Input::LocalIndex if self.plan.wave_split.is_some() => self.split_ids()?.1,
            Input::WorkgroupId(k) | Input::LocalId(k) => {
                let var = if matches!(i, Input::WorkgroupId(_)) {
                    self.wgid
                } else {
                    self.lid
                };
                let v3 = self.b.type_vector(self.t.u32_, 3);
                let x = self.b.load(v3, None, var, None, vec![])?;
                self.b
                    .composite_extract(self.t.u32_, None, x, vec![u32::from(k.min(2))])?
            }
            Input::LocalIndex => {
                let v3 = self.b.type_vector(self.t.u32_, 3);
                let x = self.b.load(v3, None, self.lid, None, vec![])?;
                let [sx, sy, _] = self.plan.compute.unwrap_or([1, 1, 1]);
                let u = self.t.u32_;
                let c0 = self.b.composite_extract(u, None, x, vec![0])?;
                let c1 = self.b.composite_extract(u, None, x, vec![1])?;
                let c2 = self.b.composite_extract(u, None, x, vec![2])?;
                let ksx = self.const_u32(sx);
                let ksxy = self.const_u32(sx.wrapping_mul(sy));
                let t1 = self.b.i_mul(u, None, c1, ksx)?;
                let t2 = self.b.i_mul(u, None, c2, ksxy)?;
                let s = self.b.i_add(u, None, c0, t1)?;
                self.b.i_add(u, None, s, t2)?
            }
            Input::DrawFirstVertex => match self.plan.vertex_id_offset {
                Some(m) => self.push_load(m)?,
                None => return Err(EmitError("the first vertex has no push slot".into())),
            },
            Input::NggIndexed => match self.plan.ngg_indexed {
                Some(m) => self.push_load(m)?,
                None => return Err(EmitError("the NGG list flag has no push slot".into())),
            },
            Input::DrawVertexCount => match self.plan.ngg_count {
                Some(m) => self.push_load(m)?,
                None => return Err(EmitError("the vertex count has no push slot".into())),
            },
            Input::GroupCount(k) => {
                let v3 = self.b.type_vector(self.t.u32_, 3);
                let x = self.b.load(v3, None, self.numwg, None, vec![])?;
                self.b
                    .composite_extract(self.t.u32_, None, x, vec![u32::from(k.min(2))])?
            }
            Input::CodeAddr(hi) => match self.plan.code_addr {
                Some((l, h)) => self.push_load(if hi { h } else { l })?,
                None => return Err(EmitError("the code address has no push slot".into())),
            },
            Input::Param(s) => match self.plan.source_member.get(&s) {
                Some(&m) => self.push_load(m)?,
                None => return Err(EmitError(format!("parameter {s} has no push slot"))),
            },
            Input::Interp { attr, chan, .. } => self.interp_input(attr, chan)?,
            Input::Barycentric { pair, which } => match self.plan.barycentrics.get(&pair) {
                Some(&loc) => self.interp_input(loc, which)?,
                None => return Err(EmitError(format!("{pair:?} has no helper input"))),
            },
            Input::FragCoord(c) => self.frag_coord_bits(c)?,
            Input::ShadingRate => match self.plan.shading_rate {
                Some(m) => self.push_load(m)?,
                None => return Err(EmitError("the shading rate has no push slot".into())),
            },
        })
    }
}

impl Emitter<'_> {
    /// One wave per host workgroup ([`super::WaveSplit`]): the guest's
    /// workgroup id x and local index.
    fn split_ids(&mut self) -> Result<(Word, Word), EmitError> {
        let Some(sp) = self.plan.wave_split else {
            return Err(EmitError("no wave split".into()));
        };
        let u = self.t.u32_;
        let v3 = self.b.type_vector(u, 3);
        let g = self.b.load(v3, None, self.wgid, None, vec![])?;
        let gx = self.b.composite_extract(u, None, g, vec![0])?;
        let l = self.b.load(v3, None, self.lid, None, vec![])?;
        let lx = self.b.composite_extract(u, None, l, vec![0])?;
        let kw = self.const_u32(sp.waves.max(1));
        let group = self.b.u_div(u, None, gx, kw)?;
        let wave = if sp.wave_zero {
            self.const_u32(0)
        } else {
            self.b.u_mod(u, None, gx, kw)?
        };
        let kl = self.const_u32(self.plan.compute_lanes.max(1));
        let base = self.b.i_mul(u, None, wave, kl)?;
        let index = self.b.i_add(u, None, base, lx)?;
        Ok((group, index))
    }

    /// The invocation's index in the host workgroup (the lane operations'
    /// arrays are per host workgroup).
    pub(super) fn host_local_index(&mut self) -> Result<Word, EmitError> {
        if self.plan.wave_split.is_none() {
            return self.input(Input::LocalIndex);
        }
        let u = self.t.u32_;
        let v3 = self.b.type_vector(u, 3);
        let l = self.b.load(v3, None, self.lid, None, vec![])?;
        Ok(self.b.composite_extract(u, None, l, vec![0])?)
    }

    /// The rest of [`Emitter::module`] for a compute shader: the
    /// `WorkgroupId` and `LocalInvocationId` inputs, the helper functions,
    /// `main` and a GLCompute entry point of the plan's local size.
    /// The function body: the global values (live constants and inputs),
    /// then the structured tree, then the return and the function's end.
    fn body_and_end(&mut self, tree: &[Node]) -> Result<(), EmitError> {
        for i in 0..self.f.insts.len() {
            let inst = self.f.insts[i];
            if !self.f.is_live(Value(i as u32)) {
                continue;
            }
            match inst.op {
                // naga refuses non-finite float literals: such a constant
                // is its bits, reinterpreted.
                Op::Const(c) if inst.ty == Ty::F32 && c & 0x7f80_0000 == 0x7f80_0000 => {
                    let bits = self.const_u32(c);
                    let f = self.t.f32_;
                    self.vals[i] = self.b.bitcast(f, None, bits)?;
                }
                Op::Const(c) => {
                    let ty = self.ty(inst.ty);
                    self.vals[i] = self.constant(ty, c);
                }
                Op::Input(inp) => self.vals[i] = self.input(inp)?,
                _ => {}
            }
        }
        self.seq(tree)?;
        if !self.dead {
            self.b.ret()?;
        }
        self.b.end_function()?;
        Ok(())
    }

    fn compute_module(&mut self, tree: &[Node], mut interface: Vec<Word>) -> Result<(), EmitError> {
        let [x, y, z] = self.plan.compute.unwrap_or([1, 1, 1]);
        let v3 = self.b.type_vector(self.t.u32_, 3);
        let p_in_v3 = self.b.type_pointer(None, StorageClass::Input, v3);
        let mut builtins = vec![(BuiltIn::WorkgroupId, 0), (BuiltIn::LocalInvocationId, 1)];
        if self.plan.ngg.is_some() {
            builtins.push((BuiltIn::NumWorkgroups, 2));
        }
        for (builtin, slot) in builtins {
            let v = self.b.variable(p_in_v3, None, StorageClass::Input, None);
            self.b
                .decorate(v, Decoration::BuiltIn, vec![Operand::BuiltIn(builtin)]);
            interface.push(v);
            match slot {
                0 => self.wgid = v,
                1 => self.lid = v,
                _ => self.numwg = v,
            }
        }
        if self.plan.window.is_some() {
            self.read_fn(None)?;
            self.unaligned_fn(None)?;
        }
        // The lane operations' workgroup arrays are module-level variables.
        let lane_ops = self.f.insts.iter().enumerate().any(|(i, x)| {
            let shared = match x.op {
                Op::Load(l) => matches!(self.f.loads[l as usize], crate::ir::Load::Lanes(..)),
                Op::Effect(e) => matches!(
                    self.f.effects[e as usize],
                    crate::ir::Effect::LdsWrite { .. }
                        | crate::ir::Effect::Barrier { .. }
                        | crate::ir::Effect::Atomic {
                            target: crate::ir::AtomicTarget::Lds(_),
                            ..
                        }
                        | crate::ir::Effect::LdsWriteByte { .. }
                ),
                _ => false,
            };
            shared && self.f.is_live(Value(i as u32))
        });
        if lane_ops {
            self.lane_vars();
        }
        let fn_void = self.b.type_function(self.t.void, vec![]);
        let main = self
            .b
            .begin_function(self.t.void, None, FunctionControl::NONE, fn_void)?;
        self.b.begin_block(None)?;
        for blk in &self.f.blocks {
            for &p in &blk.params {
                let pt = match self.f.ty(p) {
                    Ty::Bool => self.t.p_fn_bool,
                    Ty::F32 => self.t.p_fn_f32,
                    _ => self.t.p_fn_u32,
                };
                let v = self.b.variable(pt, None, StorageClass::Function, None);
                self.vars.insert(p, v);
            }
        }
        self.body_and_end(tree)?;
        self.b
            .entry_point(ExecutionModel::GLCompute, main, "main", interface);
        self.b.execution_mode(
            main,
            spirv::ExecutionMode::LocalSize,
            vec![x.max(1), y.max(1), z.max(1)],
        );
        Ok(())
    }
}
