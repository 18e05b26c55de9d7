//! SPIR-V 1.3 emission through rspirv.
//!
//! The module has one vertex entry point `main`. Block parameters become
//! function-local variables (the predecessor stores, the block loads), so
//! no `OpPhi` is needed. Memory reads go through helper functions:
//! `read_window(lo, hi)` reads a guest dword from the fallback window (0
//! outside it) and `read_bN(lo, hi)` reads from binding N, falling back to
//! the window outside the binding's range. Every index into a runtime
//! array is clamped with `OpArrayLength`, so no input makes the module
//! read or write out of bounds.

use crate::ir::{
    Bin, BufferAccess, Effect, ExportTarget, FCmp, Func, ICmp, Input, Load, Op, Term, Tri, Ty, Un,
    Value,
};
use crate::structure::Node;
use rspirv::binary::Assemble;
use rspirv::dr::{Builder, Operand};
use spirv::{
    AddressingModel, BuiltIn, Capability, Decoration, ExecutionModel, FunctionControl,
    GlslStd450Op, MemoryModel, SelectionControl, StorageClass, Word,
};
use std::collections::HashMap;

/// Words in the push-constant block (Vulkan guarantees 128 bytes).
pub const PUSH_WORDS: u32 = 32;

/// Where the emitter finds each host resource.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    /// Push-constant member of each parameter source (by source index).
    pub source_member: HashMap<u16, u32>,
    /// Push-constant member of the vertex-id offset.
    pub vertex_id_offset: Option<u32>,
    /// Push-constant member of the instance-id offset.
    pub instance_id_offset: Option<u32>,
    /// Number of push-constant members (at most [`PUSH_WORDS`]); members
    /// from [`PUSH_WORDS`] on are words of the params buffer.
    pub push_members: u32,
    /// Binding of the params buffer, when words spill out of the
    /// push-constant block.
    pub params: Option<u32>,
    /// Per IR binding id: (binding number, base_lo, base_hi, size,
    /// last-record member).
    pub bindings: HashMap<u16, BindingSlots>,
    /// The window: (binding number, base_lo, base_hi, size members).
    pub window: Option<(u32, u32, u32, u32)>,
    /// The feedback buffer's binding number (`--checked`).
    pub feedback: Option<u32>,
    /// Test outputs: (binding, first-vertex member, vertex-count member).
    pub test: Option<(u32, u32, u32)>,
    /// The outputs, in test-slot order.
    pub outputs: Vec<ExportTarget>,
}

/// The push-constant members and binding number of one descriptor
/// binding.
#[derive(Clone, Copy, Debug, Default)]
pub struct BindingSlots {
    /// Binding number in set 0.
    pub binding: u32,
    /// Member holding the base's low half.
    pub base_lo: u32,
    /// Member holding the base's high half.
    pub base_hi: u32,
    /// Member holding the size.
    pub size: u32,
    /// Member holding the narrowed last record (`--checked`).
    pub last: Option<u32>,
}

/// An emission failure (an internal inconsistency, reported not panicked).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("SPIR-V emission failed: {0}")]
pub struct EmitError(pub String);

impl From<rspirv::dr::Error> for EmitError {
    fn from(e: rspirv::dr::Error) -> Self {
        EmitError(format!("{e:?}"))
    }
}

struct Types {
    void: Word,
    bool_: Word,
    u32_: Word,
    i32_: Word,
    f32_: Word,
    f64_: Word,
    v4f: Word,
    p_push_u32: Word,
    p_sb_u32: Word,
    p_out_v4f: Word,
    p_in_u32: Word,
    p_fn_u32: Word,
    p_fn_f32: Word,
    p_fn_bool: Word,
    fn_rd: Word,
}

struct E<'a> {
    f: &'a Func,
    plan: &'a Plan,
    b: Builder,
    t: Types,
    glsl: Word,
    consts: HashMap<(Word, u32), Word>,
    const_val: HashMap<Word, u32>,
    vals: Vec<Word>,
    push_var: Word,
    vars: HashMap<Value, Word>,
    sb: HashMap<u32, Word>,
    read_fns: HashMap<Option<u16>, Word>,
    unaligned_fns: HashMap<Option<u16>, Word>,
    out_vars: HashMap<ExportTarget, Word>,
    access_cache: HashMap<u32, AccessBase>,
    vid: Word,
    iid: Word,
}

#[derive(Clone, Copy)]
struct AccessBase {
    lo: Word,
    hi: Word,
    in_range: Word,
    raw: Word,
    raw_off: Word,
    nrec: Word,
    disabled: Word,
}

/// Emit the module.
pub fn emit(f: &Func, tree: &[Node], plan: &Plan) -> Result<Vec<u32>, EmitError> {
    let mut b = Builder::new();
    b.set_version(1, 3);
    b.capability(Capability::Shader);
    // v_fma_f32 is computed in f64 (see `E::fma`).
    let uses_fma = f
        .insts
        .iter()
        .enumerate()
        .any(|(i, x)| matches!(x.op, Op::Tri(Tri::Fma, ..)) && f.is_live(Value(i as u32)));
    if uses_fma {
        b.capability(Capability::Float64);
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
    let mut e = E {
        f,
        plan,
        b,
        t,
        glsl,
        consts: HashMap::new(),
        const_val: HashMap::new(),
        vals: vec![0; f.insts.len()],
        push_var: 0,
        vars: HashMap::new(),
        sb: HashMap::new(),
        read_fns: HashMap::new(),
        unaligned_fns: HashMap::new(),
        out_vars: HashMap::new(),
        access_cache: HashMap::new(),
        vid: 0,
        iid: 0,
    };
    e.module(tree)?;
    Ok(e.b.module().assemble())
}

impl E<'_> {
    fn c(&mut self, ty: Word, bits: u32) -> Word {
        if let Some(&w) = self.consts.get(&(ty, bits)) {
            return w;
        }
        let w = if ty == self.t.bool_ {
            if bits != 0 {
                self.b.constant_true(ty)
            } else {
                self.b.constant_false(ty)
            }
        } else {
            self.b.constant_bit32(ty, bits)
        };
        self.consts.insert((ty, bits), w);
        if ty == self.t.u32_ {
            self.const_val.insert(w, bits);
        }
        w
    }
    /// `a + b` (u32), folded when either side is a constant 0 or both are
    /// constants.
    fn iadd(&mut self, a: Word, b: Word) -> Result<Word, EmitError> {
        match (
            self.const_val.get(&a).copied(),
            self.const_val.get(&b).copied(),
        ) {
            (Some(x), Some(y)) => Ok(self.cu(x.wrapping_add(y))),
            (Some(0), _) => Ok(b),
            (_, Some(0)) => Ok(a),
            _ => Ok(self.b.i_add(self.t.u32_, None, a, b)?),
        }
    }
    fn cu(&mut self, bits: u32) -> Word {
        let t = self.t.u32_;
        self.c(t, bits)
    }
    fn ty(&self, t: Ty) -> Word {
        match t {
            Ty::Bool => self.t.bool_,
            Ty::U32 => self.t.u32_,
            Ty::F32 => self.t.f32_,
            Ty::Void => self.t.void,
        }
    }

    fn module(&mut self, tree: &[Node]) -> Result<(), EmitError> {
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
            sb_bindings.push((bnd, false, "window".into()));
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
        // Inputs and outputs.
        let mut interface = Vec::new();
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
            }
            interface.push(v);
            self.out_vars.insert(tgt, v);
        }
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
            let z = self.c(self.t.f32_, 0);
            self.b.constant_composite(self.t.v4f, vec![z, z, z, z])
        };
        let mut outs: Vec<(ExportTarget, Word)> =
            self.out_vars.iter().map(|(k, v)| (*k, *v)).collect();
        outs.sort();
        let outs: Vec<Word> = outs.into_iter().map(|x| x.1).collect();
        for o in outs {
            self.b.store(o, zero_v4, None, vec![])?;
        }
        // Global values: constants and inputs.
        for i in 0..self.f.insts.len() {
            let inst = self.f.insts[i];
            if !self.f.is_live(Value(i as u32)) {
                continue;
            }
            match inst.op {
                Op::Const(c) => {
                    let ty = self.ty(inst.ty);
                    self.vals[i] = self.c(ty, c);
                }
                Op::Input(inp) => self.vals[i] = self.input(inp)?,
                _ => {}
            }
        }
        self.seq(tree)?;
        self.b.ret()?;
        self.b.end_function()?;
        self.b
            .entry_point(ExecutionModel::Vertex, main, "main", interface);
        Ok(())
    }

    fn push_load(&mut self, member: u32) -> Result<Word, EmitError> {
        if member >= PUSH_WORDS {
            let Some(bnd) = self.plan.params else {
                return Err(EmitError(format!("parameter word {member} has no place")));
            };
            let u = self.t.u32_;
            let bl = self.t.bool_;
            let var = self.sb[&bnd];
            let i = self.cu(member - PUSH_WORDS);
            let zero = self.cu(0);
            let len = self.b.array_length(u, None, var, 0)?;
            let ok = self.b.u_less_than(bl, None, i, len)?;
            let safe = self.b.select(u, None, ok, i, zero)?;
            let p = self
                .b
                .access_chain(self.t.p_sb_u32, None, var, vec![zero, safe])?;
            let w = self.b.load(u, None, p, None, vec![])?;
            return Ok(self.b.select(u, None, ok, w, zero)?);
        }
        let idx = self.cu(member);
        let p = self
            .b
            .access_chain(self.t.p_push_u32, None, self.push_var, vec![idx])?;
        Ok(self.b.load(self.t.u32_, None, p, None, vec![])?)
    }

    fn input(&mut self, i: Input) -> Result<Word, EmitError> {
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
            Input::Param(s) => match self.plan.source_member.get(&s) {
                Some(&m) => self.push_load(m)?,
                None => return Err(EmitError(format!("parameter {s} has no push slot"))),
            },
        })
    }

    /// `read_window(lo, hi)` or `read_bN(lo, hi)`: a guest dword.
    fn read_fn(&mut self, binding: Option<u16>) -> Result<Word, EmitError> {
        let u = self.t.u32_;
        let bl = self.t.bool_;
        let fid = self
            .b
            .begin_function(u, None, FunctionControl::NONE, self.t.fn_rd)?;
        let lo = self.b.function_parameter(u)?;
        let hi = self.b.function_parameter(u)?;
        self.b.begin_block(None)?;
        let (bnd, base_lo, base_hi, size) = match binding {
            None => match self.plan.window {
                Some(w) => w,
                None => return Err(EmitError("no window binding".into())),
            },
            Some(id) => {
                let s = self.plan.bindings[&id];
                (s.binding, s.base_lo, s.base_hi, s.size)
            }
        };
        let blo = self.push_load(base_lo)?;
        let bhi = self.push_load(base_hi)?;
        let size = self.push_load(size)?;
        // rel = addr - base (64-bit)
        let rlo = self.b.i_sub(u, None, lo, blo)?;
        let borrow = self.b.u_less_than(bl, None, lo, blo)?;
        let one = self.cu(1);
        let zero = self.cu(0);
        let bw = self.b.select(u, None, borrow, one, zero)?;
        let rhi0 = self.b.i_sub(u, None, hi, bhi)?;
        let rhi = self.b.i_sub(u, None, rhi0, bw)?;
        let hi_ok = self.b.i_equal(bl, None, rhi, zero)?;
        let lo_ok = self.b.u_less_than(bl, None, rlo, size)?;
        let inside = self.b.logical_and(bl, None, hi_ok, lo_ok)?;
        let two = self.cu(2);
        let idx = self.b.shift_right_logical(u, None, rlo, two)?;
        let var = self.sb[&bnd];
        let len = self.b.array_length(u, None, var, 0)?;
        let in_arr = self.b.u_less_than(bl, None, idx, len)?;
        let safe = self.b.select(u, None, in_arr, idx, zero)?;
        let p = self
            .b
            .access_chain(self.t.p_sb_u32, None, var, vec![zero, safe])?;
        let word = self.b.load(u, None, p, None, vec![])?;
        let ok = self.b.logical_and(bl, None, inside, in_arr)?;
        let r = match binding {
            None => self.b.select(u, None, ok, word, zero)?,
            Some(_) => match self.plan.window {
                Some(_) => {
                    let wf = self.read_fns[&None];
                    let other = self.b.function_call(u, None, wf, vec![lo, hi])?;
                    self.b.select(u, None, ok, word, other)?
                }
                None => self.b.select(u, None, ok, word, zero)?,
            },
        };
        self.b.ret_value(r)?;
        self.b.end_function()?;
        self.b.name(
            fid,
            match binding {
                None => "read_window".to_string(),
                Some(i) => format!("read_desc{i}"),
            },
        );
        self.read_fns.insert(binding, fid);
        Ok(fid)
    }

    fn seq(&mut self, nodes: &[Node]) -> Result<(), EmitError> {
        for n in nodes {
            match n {
                Node::Block(blk) => {
                    self.access_cache.clear();
                    let bd = &self.f.blocks[blk.0 as usize];
                    for &p in &bd.params {
                        if !self.f.is_live(p) {
                            continue;
                        }
                        let ty = self.ty(self.f.ty(p));
                        let var = self.vars[&p];
                        self.vals[p.0 as usize] = self.b.load(ty, None, var, None, vec![])?;
                    }
                    for &v in &bd.insts {
                        self.inst(v)?;
                    }
                    if let Term::Jump(e) = &bd.term {
                        self.edge(e)?;
                    }
                }
                Node::Loop {
                    latch,
                    body,
                    cond,
                    back_on,
                    exit,
                    ..
                } => {
                    let (te, ee) = match &self.f.blocks[latch.0 as usize].term {
                        Term::Branch { then, els, .. } => (then.clone(), els.clone()),
                        _ => return Err(EmitError("loop latch without a branch".into())),
                    };
                    let (back_edge, exit_edge) = if *back_on { (te, ee) } else { (ee, te) };
                    let lh = self.b.id();
                    let lb = self.b.id();
                    let lc = self.b.id();
                    let lm = self.b.id();
                    self.b.branch(lh)?;
                    self.b.begin_block(Some(lh))?;
                    self.b
                        .loop_merge(lm, lc, spirv::LoopControl::NONE, vec![])?;
                    self.b.branch(lb)?;
                    self.b.begin_block(Some(lb))?;
                    self.seq(body)?;
                    self.b.branch(lc)?;
                    self.b.begin_block(Some(lc))?;
                    // Both edges' arguments: the header's parameters are
                    // only read at the top of the body.
                    self.edge(&back_edge)?;
                    self.edge(&exit_edge)?;
                    let _ = exit;
                    let c = self.vals[cond.0 as usize];
                    if *back_on {
                        self.b.branch_conditional(c, lh, lm, vec![])?;
                    } else {
                        self.b.branch_conditional(c, lm, lh, vec![])?;
                    }
                    self.b.begin_block(Some(lm))?;
                    self.access_cache.clear();
                }
                Node::If {
                    from,
                    cond,
                    then,
                    els,
                    merge,
                } => {
                    let (te, ee) = match &self.f.blocks[from.0 as usize].term {
                        Term::Branch { then, els, .. } => (then.clone(), els.clone()),
                        _ => return Err(EmitError("selection without a branch".into())),
                    };
                    let c = self.vals[cond.0 as usize];
                    let lt = self.b.id();
                    let le = self.b.id();
                    let lm = self.b.id();
                    self.b.selection_merge(lm, SelectionControl::NONE)?;
                    self.b.branch_conditional(c, lt, le, vec![])?;
                    for (label, edge, arm) in [(lt, &te, then), (le, &ee, els)] {
                        self.b.begin_block(Some(label))?;
                        self.edge(edge)?;
                        self.seq(arm)?;
                        if arm_returns(self.f, arm) && merge.is_none() {
                            self.b.ret()?;
                        } else {
                            self.b.branch(lm)?;
                        }
                    }
                    self.b.begin_block(Some(lm))?;
                    if merge.is_none() {
                        self.b.unreachable()?;
                        // Nothing follows; open a dead block so the caller's
                        // `ret` has somewhere to go.
                        self.b.begin_block(None)?;
                    }
                }
            }
        }
        Ok(())
    }

    fn edge(&mut self, e: &crate::ir::Edge) -> Result<(), EmitError> {
        let params = self.f.blocks[e.block.0 as usize].params.clone();
        for (p, a) in params.iter().zip(&e.args) {
            if !self.f.is_live(*p) {
                continue;
            }
            let var = self.vars[p];
            let val = self.vals[a.0 as usize];
            self.b.store(var, val, None, vec![])?;
        }
        Ok(())
    }

    fn as_i32(&mut self, x: Word) -> Result<Word, EmitError> {
        Ok(self.b.bitcast(self.t.i32_, None, x)?)
    }
    fn as_u32(&mut self, x: Word) -> Result<Word, EmitError> {
        Ok(self.b.bitcast(self.t.u32_, None, x)?)
    }
    fn glsl1(&mut self, ty: Word, op: GlslStd450Op, a: Word) -> Result<Word, EmitError> {
        Ok(self
            .b
            .ext_inst(ty, None, self.glsl, op as u32, vec![Operand::IdRef(a)])?)
    }
    fn glsl2(&mut self, ty: Word, op: GlslStd450Op, a: Word, b: Word) -> Result<Word, EmitError> {
        Ok(self.b.ext_inst(
            ty,
            None,
            self.glsl,
            op as u32,
            vec![Operand::IdRef(a), Operand::IdRef(b)],
        )?)
    }

    fn inst(&mut self, v: Value) -> Result<(), EmitError> {
        let inst = *self.f.inst(v);
        let u = self.t.u32_;
        let fl = self.t.f32_;
        let bl = self.t.bool_;
        let val = |s: &Self, x: Value| s.vals[x.0 as usize];
        let r = match inst.op {
            Op::Const(_) | Op::Input(_) | Op::BlockParam(..) => return Ok(()),
            Op::Unsupported(i) => {
                return Err(EmitError(format!("unsupported value {i} reached emission")))
            }
            Op::Un(op, a) => {
                let a = val(self, a);
                match op {
                    Un::Not => self.b.not(u, None, a)?,
                    Un::BNot => self.b.logical_not(bl, None, a)?,
                    Un::AsF32 => self.b.bitcast(fl, None, a)?,
                    Un::AsU32 => self.b.bitcast(u, None, a)?,
                    Un::BoolToU32 => {
                        let (one, zero) = (self.cu(1), self.cu(0));
                        self.b.select(u, None, a, one, zero)?
                    }
                    Un::FNeg => self.b.f_negate(fl, None, a)?,
                    Un::FAbs => self.glsl1(fl, GlslStd450Op::FAbs, a)?,
                    Un::Floor => self.glsl1(fl, GlslStd450Op::Floor, a)?,
                    Un::Ceil => self.glsl1(fl, GlslStd450Op::Ceil, a)?,
                    Un::Trunc => self.glsl1(fl, GlslStd450Op::Trunc, a)?,
                    Un::RoundEven => self.glsl1(fl, GlslStd450Op::RoundEven, a)?,
                    Un::Fract => self.glsl1(fl, GlslStd450Op::Fract, a)?,
                    Un::Sqrt => self.glsl1(fl, GlslStd450Op::Sqrt, a)?,
                    Un::Rsq => self.glsl1(fl, GlslStd450Op::InverseSqrt, a)?,
                    Un::Rcp => {
                        let one = self.c(fl, 1.0f32.to_bits());
                        self.b.f_div(fl, None, one, a)?
                    }
                    Un::Exp2 => self.glsl1(fl, GlslStd450Op::Exp2, a)?,
                    Un::Log2 => self.glsl1(fl, GlslStd450Op::Log2, a)?,
                    Un::SinRev | Un::CosRev => {
                        let tau = self.c(fl, std::f32::consts::TAU.to_bits());
                        let x = self.b.f_mul(fl, None, a, tau)?;
                        let op = if op == Un::SinRev {
                            GlslStd450Op::Sin
                        } else {
                            GlslStd450Op::Cos
                        };
                        self.glsl1(fl, op, x)?
                    }
                    Un::F32FromU32 => self.b.convert_u_to_f(fl, None, a)?,
                    Un::F32FromI32 => {
                        let s = self.as_i32(a)?;
                        self.b.convert_s_to_f(fl, None, s)?
                    }
                    Un::U32FromF32 => {
                        let lo = self.c(fl, (-1.0f32).to_bits());
                        let hi = self.c(fl, 4294967296.0f32.to_bits());
                        let zf = self.c(fl, 0);
                        let gt = self.b.f_ord_greater_than(bl, None, a, lo)?;
                        let lt = self.b.f_ord_less_than(bl, None, a, hi)?;
                        let inr = self.b.logical_and(bl, None, gt, lt)?;
                        let safe = self.b.select(fl, None, inr, a, zf)?;
                        let r = self.b.convert_f_to_u(u, None, safe)?;
                        let big = self.b.f_ord_greater_than_equal(bl, None, a, hi)?;
                        let max = self.cu(u32::MAX);
                        self.b.select(u, None, big, max, r)?
                    }
                    Un::I32FromF32 => {
                        let lo = self.c(fl, (-2147483648.0f32).to_bits());
                        let hi = self.c(fl, 2147483648.0f32.to_bits());
                        let zf = self.c(fl, 0);
                        let ge = self.b.f_ord_greater_than_equal(bl, None, a, lo)?;
                        let lt = self.b.f_ord_less_than(bl, None, a, hi)?;
                        let inr = self.b.logical_and(bl, None, ge, lt)?;
                        let safe = self.b.select(fl, None, inr, a, zf)?;
                        let r = self.b.convert_f_to_s(self.t.i32_, None, safe)?;
                        let r = self.as_u32(r)?;
                        let big = self.b.f_ord_greater_than_equal(bl, None, a, hi)?;
                        let max = self.cu(0x7fff_ffff);
                        let r = self.b.select(u, None, big, max, r)?;
                        let small = self.b.f_ord_less_than(bl, None, a, lo)?;
                        let min = self.cu(0x8000_0000);
                        self.b.select(u, None, small, min, r)?
                    }
                    Un::CountOnes => self.b.bit_count(u, None, a)?,
                    Un::BitReverse => self.b.bit_reverse(u, None, a)?,
                    Un::IsNan => self.b.is_nan(bl, None, a)?,
                }
            }
            Op::Bin(op, a, b2) => {
                let (a, c) = (val(self, a), val(self, b2));
                self.bin(op, a, c)?
            }
            Op::Tri(op, a, b2, c2) => {
                let (a, b3, c3) = (val(self, a), val(self, b2), val(self, c2));
                match op {
                    Tri::Select => {
                        let ty = self.ty(self.f.ty(b2));
                        self.b.select(ty, None, a, b3, c3)?
                    }
                    Tri::Fma => self.fma(a, b3, c3)?,
                }
            }
            Op::Load(i) => {
                let l = self.f.loads[i as usize];
                self.load(&l)?
            }
            Op::Effect(i) => {
                let e = self.f.effects[i as usize];
                self.effect(&e)?;
                return Ok(());
            }
        };
        self.vals[v.0 as usize] = r;
        Ok(())
    }

    fn bin(&mut self, op: Bin, a: Word, c: Word) -> Result<Word, EmitError> {
        let u = self.t.u32_;
        let fl = self.t.f32_;
        let bl = self.t.bool_;
        let i = self.t.i32_;
        Ok(match op {
            Bin::Add => self.b.i_add(u, None, a, c)?,
            Bin::Sub => self.b.i_sub(u, None, a, c)?,
            Bin::Mul => self.b.i_mul(u, None, a, c)?,
            Bin::MulHiU => self.mul_hi_u(a, c)?,
            Bin::MulHiI => {
                // signed high = unsigned high − (a<0 ? b : 0) − (b<0 ? a : 0)
                let h = self.mul_hi_u(a, c)?;
                let z = self.cu(0);
                let ai = self.as_i32(a)?;
                let ci = self.as_i32(c)?;
                let zi = self.b.bitcast(i, None, z)?;
                let an = self.b.s_less_than(bl, None, ai, zi)?;
                let cn = self.b.s_less_than(bl, None, ci, zi)?;
                let sa = self.b.select(u, None, an, c, z)?;
                let sc = self.b.select(u, None, cn, a, z)?;
                let h = self.b.i_sub(u, None, h, sa)?;
                self.b.i_sub(u, None, h, sc)?
            }
            Bin::And => self.b.bitwise_and(u, None, a, c)?,
            Bin::Or => self.b.bitwise_or(u, None, a, c)?,
            Bin::Xor => self.b.bitwise_xor(u, None, a, c)?,
            Bin::Shl | Bin::ShrL | Bin::ShrA => {
                let m = self.cu(31);
                let s = self.b.bitwise_and(u, None, c, m)?;
                match op {
                    Bin::Shl => self.b.shift_left_logical(u, None, a, s)?,
                    Bin::ShrL => self.b.shift_right_logical(u, None, a, s)?,
                    _ => {
                        let ai = self.as_i32(a)?;
                        let r = self.b.shift_right_arithmetic(i, None, ai, s)?;
                        self.as_u32(r)?
                    }
                }
            }
            Bin::UMin | Bin::UMax => {
                let lt = self.b.u_less_than(bl, None, a, c)?;
                if op == Bin::UMin {
                    self.b.select(u, None, lt, a, c)?
                } else {
                    self.b.select(u, None, lt, c, a)?
                }
            }
            Bin::SMin | Bin::SMax => {
                let (ai, ci) = (self.as_i32(a)?, self.as_i32(c)?);
                let lt = self.b.s_less_than(bl, None, ai, ci)?;
                if op == Bin::SMin {
                    self.b.select(u, None, lt, a, c)?
                } else {
                    self.b.select(u, None, lt, c, a)?
                }
            }
            Bin::ICmp(k) => match k {
                ICmp::Eq => self.b.i_equal(bl, None, a, c)?,
                ICmp::Ne => self.b.i_not_equal(bl, None, a, c)?,
                ICmp::ULt => self.b.u_less_than(bl, None, a, c)?,
                ICmp::ULe => self.b.u_less_than_equal(bl, None, a, c)?,
                ICmp::SLt | ICmp::SLe => {
                    let (ai, ci) = (self.as_i32(a)?, self.as_i32(c)?);
                    if k == ICmp::SLt {
                        self.b.s_less_than(bl, None, ai, ci)?
                    } else {
                        self.b.s_less_than_equal(bl, None, ai, ci)?
                    }
                }
            },
            // The GPU rounds every v_add/v_mul separately: forbid the
            // driver from fusing them.
            Bin::FAdd | Bin::FSub | Bin::FMul => {
                let r = match op {
                    Bin::FAdd => self.b.f_add(fl, None, a, c)?,
                    Bin::FSub => self.b.f_sub(fl, None, a, c)?,
                    _ => self.b.f_mul(fl, None, a, c)?,
                };
                self.b.decorate(r, Decoration::NoContraction, vec![]);
                r
            }
            // IEEE-mode v_min/v_max return the other operand for a NaN.
            Bin::FMin => self.glsl2(fl, GlslStd450Op::NMin, a, c)?,
            Bin::FMax => self.glsl2(fl, GlslStd450Op::NMax, a, c)?,
            Bin::Ldexp => {
                let e = self.as_i32(c)?;
                self.glsl2(fl, GlslStd450Op::Ldexp, a, e)?
            }
            Bin::FCmp(FCmp(m)) => self.fcmp(m, a, c)?,
            Bin::BAnd => self.b.logical_and(bl, None, a, c)?,
            Bin::BOr => self.b.logical_or(bl, None, a, c)?,
            Bin::BXor => self.b.logical_not_equal(bl, None, a, c)?,
        })
    }

    /// A fused multiply-add rounded once, as the GPU's `v_fma_f32`. Drivers
    /// may implement SPIR-V `Fma` as a multiply and an add (lavapipe does),
    /// so it is computed in f64: the product of two f32 is exact there, the
    /// sum is rounded to f64 and then to f32, at most 1 ulp from the fused
    /// result (double rounding), usually exact.
    fn fma(&mut self, a: Word, b: Word, c: Word) -> Result<Word, EmitError> {
        let d = self.t.f64_;
        let fl = self.t.f32_;
        let a = self.b.f_convert(d, None, a)?;
        let b = self.b.f_convert(d, None, b)?;
        let c = self.b.f_convert(d, None, c)?;
        let p = self.b.f_mul(d, None, a, b)?;
        self.b.decorate(p, Decoration::NoContraction, vec![]);
        let s = self.b.f_add(d, None, p, c)?;
        self.b.decorate(s, Decoration::NoContraction, vec![]);
        Ok(self.b.f_convert(fl, None, s)?)
    }

    fn fcmp(&mut self, m: u8, a: Word, c: Word) -> Result<Word, EmitError> {
        let bl = self.t.bool_;
        const L: u8 = FCmp::LT;
        const E_: u8 = FCmp::EQ;
        const G: u8 = FCmp::GT;
        const U: u8 = FCmp::UNORD;
        Ok(match m & 15 {
            0 => self.c(bl, 0),
            15 => self.c(bl, 1),
            x if x == L => self.b.f_ord_less_than(bl, None, a, c)?,
            x if x == E_ => self.b.f_ord_equal(bl, None, a, c)?,
            x if x == L | E_ => self.b.f_ord_less_than_equal(bl, None, a, c)?,
            x if x == G => self.b.f_ord_greater_than(bl, None, a, c)?,
            x if x == L | G => self.b.f_ord_not_equal(bl, None, a, c)?,
            x if x == E_ | G => self.b.f_ord_greater_than_equal(bl, None, a, c)?,
            x if x == L | U => self.b.f_unord_less_than(bl, None, a, c)?,
            x if x == E_ | U => self.b.f_unord_equal(bl, None, a, c)?,
            x if x == L | E_ | U => self.b.f_unord_less_than_equal(bl, None, a, c)?,
            x if x == G | U => self.b.f_unord_greater_than(bl, None, a, c)?,
            x if x == L | G | U => self.b.f_unord_not_equal(bl, None, a, c)?,
            x if x == E_ | G | U => self.b.f_unord_greater_than_equal(bl, None, a, c)?,
            x => {
                // L|E|G (ordered) or U (unordered).
                let na = self.b.is_nan(bl, None, a)?;
                let nc = self.b.is_nan(bl, None, c)?;
                let un = self.b.logical_or(bl, None, na, nc)?;
                if x == U {
                    un
                } else {
                    self.b.logical_not(bl, None, un)?
                }
            }
        })
    }

    fn mul_hi_u(&mut self, a: Word, c: Word) -> Result<Word, EmitError> {
        let u = self.t.u32_;
        let m = self.cu(0xffff);
        let s16 = self.cu(16);
        let al = self.b.bitwise_and(u, None, a, m)?;
        let ah = self.b.shift_right_logical(u, None, a, s16)?;
        let cl = self.b.bitwise_and(u, None, c, m)?;
        let ch = self.b.shift_right_logical(u, None, c, s16)?;
        let p0 = self.b.i_mul(u, None, al, cl)?;
        let p1 = self.b.i_mul(u, None, al, ch)?;
        let p2 = self.b.i_mul(u, None, ah, cl)?;
        let p3 = self.b.i_mul(u, None, ah, ch)?;
        let p0h = self.b.shift_right_logical(u, None, p0, s16)?;
        let p1l = self.b.bitwise_and(u, None, p1, m)?;
        let p2l = self.b.bitwise_and(u, None, p2, m)?;
        let mid = self.b.i_add(u, None, p0h, p1l)?;
        let mid = self.b.i_add(u, None, mid, p2l)?;
        let midh = self.b.shift_right_logical(u, None, mid, s16)?;
        let p1h = self.b.shift_right_logical(u, None, p1, s16)?;
        let p2h = self.b.shift_right_logical(u, None, p2, s16)?;
        let h = self.b.i_add(u, None, p3, p1h)?;
        let h = self.b.i_add(u, None, h, p2h)?;
        Ok(self.b.i_add(u, None, h, midh)?)
    }

    /// 64-bit add of a u32 to a (lo, hi) pair.
    fn add64(&mut self, lo: Word, hi: Word, x: Word) -> Result<(Word, Word), EmitError> {
        let u = self.t.u32_;
        let bl = self.t.bool_;
        if self.const_val.get(&x) == Some(&0) {
            return Ok((lo, hi));
        }
        let l = self.b.i_add(u, None, lo, x)?;
        let carry = self.b.u_less_than(bl, None, l, lo)?;
        let one = self.cu(1);
        let zero = self.cu(0);
        let cw = self.b.select(u, None, carry, one, zero)?;
        let h = self.b.i_add(u, None, hi, cw)?;
        Ok((l, h))
    }

    fn read(&mut self, binding: Option<u16>, lo: Word, hi: Word) -> Result<Word, EmitError> {
        let key = match binding {
            Some(b) if self.read_fns.contains_key(&Some(b)) => Some(b),
            _ => None,
        };
        let u = self.t.u32_;
        match self.read_fns.get(&key).copied() {
            Some(f) => Ok(self.b.function_call(u, None, f, vec![lo, hi])?),
            None => Ok(self.cu(0)),
        }
    }

    /// `read_u_X(lo, hi)`: a dword at any byte address (two aligned reads
    /// and a funnel shift when the address is not a multiple of 4).
    fn unaligned_fn(&mut self, binding: Option<u16>) -> Result<Word, EmitError> {
        let u = self.t.u32_;
        let bl = self.t.bool_;
        let fid = self
            .b
            .begin_function(u, None, FunctionControl::NONE, self.t.fn_rd)?;
        let lo = self.b.function_parameter(u)?;
        let hi = self.b.function_parameter(u)?;
        self.b.begin_block(None)?;
        let three = self.cu(3);
        let nm = self.cu(!3);
        let sub = self.b.bitwise_and(u, None, lo, three)?;
        let alo = self.b.bitwise_and(u, None, lo, nm)?;
        let w0 = self.read(binding, alo, hi)?;
        let four = self.cu(4);
        let (nlo, nhi) = self.add64(alo, hi, four)?;
        let w1 = self.read(binding, nlo, nhi)?;
        let eight = self.cu(8);
        let sh = self.b.i_mul(u, None, sub, eight)?;
        let a = self.b.shift_right_logical(u, None, w0, sh)?;
        let thirty_two = self.cu(32);
        let rs = self.b.i_sub(u, None, thirty_two, sh)?;
        let m31 = self.cu(31);
        let rs = self.b.bitwise_and(u, None, rs, m31)?;
        let bpart = self.b.shift_left_logical(u, None, w1, rs)?;
        let comb = self.b.bitwise_or(u, None, a, bpart)?;
        let zero = self.cu(0);
        let aligned = self.b.i_equal(bl, None, sub, zero)?;
        let r = self.b.select(u, None, aligned, w0, comb)?;
        self.b.ret_value(r)?;
        self.b.end_function()?;
        self.b.name(
            fid,
            match binding {
                None => "read_window_unaligned".to_string(),
                Some(i) => format!("read_desc{i}_unaligned"),
            },
        );
        self.unaligned_fns.insert(binding, fid);
        Ok(fid)
    }

    /// A (possibly unaligned) dword at (lo, hi).
    fn read_unaligned(
        &mut self,
        binding: Option<u16>,
        lo: Word,
        hi: Word,
    ) -> Result<Word, EmitError> {
        let key = match binding {
            Some(b) if self.unaligned_fns.contains_key(&Some(b)) => Some(b),
            _ => None,
        };
        match self.unaligned_fns.get(&key).copied() {
            Some(f) => Ok(self.b.function_call(self.t.u32_, None, f, vec![lo, hi])?),
            None => Ok(self.cu(0)),
        }
    }

    /// Address and range facts of a buffer access, shared by its dwords.
    fn access_base(&mut self, a: &BufferAccess) -> Result<AccessBase, EmitError> {
        if let Some(x) = self.access_cache.get(&a.pc) {
            return Ok(*x);
        }
        let u = self.t.u32_;
        let bl = self.t.bool_;
        let w: Vec<Word> = a.desc.iter().map(|v| self.vals[v.0 as usize]).collect();
        let zero = self.cu(0);
        let m16 = self.cu(0xffff);
        let s16 = self.cu(16);
        let m14 = self.cu(0x3fff);
        let base_hi = self.b.bitwise_and(u, None, w[1], m16)?;
        let st0 = self.b.shift_right_logical(u, None, w[1], s16)?;
        let stride = self.b.bitwise_and(u, None, st0, m14)?;
        let nrec = w[2];
        let s28 = self.cu(28);
        let three = self.cu(3);
        let o0 = self.b.shift_right_logical(u, None, w[3], s28)?;
        let oob = self.b.bitwise_and(u, None, o0, three)?;
        let index = match a.index {
            Some(v) => self.vals[v.0 as usize],
            None => zero,
        };
        let voff = match a.voffset {
            Some(v) => self.vals[v.0 as usize],
            None => zero,
        };
        let imm = self.cu(a.imm);
        let off = self.iadd(voff, imm)?;
        // index × stride as a 64-bit value (stride < 2^14).
        let plo = self.b.i_mul(u, None, index, stride)?;
        let phi = self.mul_hi_u(index, stride)?;
        let (l, h) = self.add64(w[0], base_hi, plo)?;
        let h = self.b.i_add(u, None, h, phi)?;
        let (l, h) = self.add64(l, h, off)?;
        let soff = self.vals[a.soffset.0 as usize];
        let (l, h) = self.add64(l, h, soff)?;
        // Range classes.
        let two = self.cu(2);
        let stride0 = self.b.i_equal(bl, None, stride, zero)?;
        let oob3 = self.b.i_equal(bl, None, oob, three)?;
        let raw = self.b.logical_or(bl, None, stride0, oob3)?;
        let disabled = self.b.i_equal(bl, None, oob, two)?;
        let idx_ok = self.b.u_less_than(bl, None, index, nrec)?;
        let oob0 = self.b.i_equal(bl, None, oob, zero)?;
        let off_ok = self.b.u_less_than(bl, None, off, stride)?;
        let not0 = self.b.logical_not(bl, None, oob0)?;
        let off_ok = self.b.logical_or(bl, None, not0, off_ok)?;
        let structured_ok = self.b.logical_and(bl, None, idx_ok, off_ok)?;
        let raw_off = self.iadd(plo, off)?;
        let r = AccessBase {
            lo: l,
            hi: h,
            in_range: structured_ok,
            raw,
            raw_off,
            nrec,
            disabled,
        };
        self.access_cache.insert(a.pc, r);
        Ok(r)
    }

    fn buffer_addr(&mut self, a: &BufferAccess) -> Result<(Word, Word, Word), EmitError> {
        let bl = self.t.bool_;
        let base = self.access_base(a)?;
        let k4 = self.cu(4 * a.dword as u32);
        let (lo, hi) = self.add64(base.lo, base.hi, k4)?;
        let ro = self.iadd(base.raw_off, k4)?;
        let raw_ok = self.b.u_less_than(bl, None, ro, base.nrec)?;
        let chk = self.b.select(bl, None, base.raw, raw_ok, base.in_range)?;
        let ok = self.b.logical_or(bl, None, base.disabled, chk)?;
        Ok((lo, hi, ok))
    }

    fn load(&mut self, l: &Load) -> Result<Word, EmitError> {
        let u = self.t.u32_;
        let bl = self.t.bool_;
        match *l {
            Load::Scalar { lo, hi, offset, .. } => {
                let (lo, hi, off) = (
                    self.vals[lo.0 as usize],
                    self.vals[hi.0 as usize],
                    self.vals[offset.0 as usize],
                );
                let (l, h) = self.add64(lo, hi, off)?;
                let nm = self.cu(!3);
                let l = self.b.bitwise_and(u, None, l, nm)?;
                self.read(None, l, h)
            }
            Load::ScalarBuf {
                desc,
                offset,
                binding,
                ..
            } => {
                let w: Vec<Word> = desc.iter().map(|v| self.vals[v.0 as usize]).collect();
                let off = self.vals[offset.0 as usize];
                let m16 = self.cu(0xffff);
                let s16 = self.cu(16);
                let m14 = self.cu(0x3fff);
                let zero = self.cu(0);
                let nm = self.cu(!3);
                let base_hi = self.b.bitwise_and(u, None, w[1], m16)?;
                let st0 = self.b.shift_right_logical(u, None, w[1], s16)?;
                let stride = self.b.bitwise_and(u, None, st0, m14)?;
                let (l, h) = self.add64(w[0], base_hi, off)?;
                let l = self.b.bitwise_and(u, None, l, nm)?;
                // limit = stride ? num_records × stride : num_records
                let lim_lo = self.b.i_mul(u, None, w[2], stride)?;
                let lim_hi = self.mul_hi_u(w[2], stride)?;
                let s0 = self.b.i_equal(bl, None, stride, zero)?;
                let lim_lo = self.b.select(u, None, s0, w[2], lim_lo)?;
                let lim_hi = self.b.select(u, None, s0, zero, lim_hi)?;
                // in range: offset + 4 <= limit  (as 64-bit)
                let four = self.cu(4);
                let (el, eh) = self.add64(off, zero, four)?;
                let hi_lt = self.b.u_less_than(bl, None, eh, lim_hi)?;
                let hi_eq = self.b.i_equal(bl, None, eh, lim_hi)?;
                let lo_le = self.b.u_less_than_equal(bl, None, el, lim_lo)?;
                let eq_ok = self.b.logical_and(bl, None, hi_eq, lo_le)?;
                let ok = self.b.logical_or(bl, None, hi_lt, eq_ok)?;
                let word = self.read(binding, l, h)?;
                Ok(self.b.select(u, None, ok, word, zero)?)
            }
            Load::Buffer(a) => {
                let (lo, hi, ok) = self.buffer_addr(&a)?;
                let word = self.read_unaligned(a.binding, lo, hi)?;
                let zero = self.cu(0);
                Ok(self.b.select(u, None, ok, word, zero)?)
            }
        }
    }

    fn effect(&mut self, e: &Effect) -> Result<(), EmitError> {
        let u = self.t.u32_;
        let fl = self.t.f32_;
        let bl = self.t.bool_;
        match *e {
            Effect::Export {
                target,
                values,
                cond,
                ..
            } => {
                let var = match self.out_vars.get(&target) {
                    Some(v) => *v,
                    None => return Err(EmitError("export without an output".into())),
                };
                let c = self.vals[cond.0 as usize];
                let always = self.f.konst(cond) == Some(1);
                let all = values.iter().all(|x| x.is_some());
                let old = if always && all {
                    0
                } else {
                    self.b.load(self.t.v4f, None, var, None, vec![])?
                };
                let mut comps = Vec::new();
                for (i, x) in values.iter().enumerate() {
                    let prev = if always && x.is_some() {
                        0
                    } else {
                        self.b.composite_extract(fl, None, old, vec![i as u32])?
                    };
                    comps.push(match x {
                        Some(v) => {
                            let bits = self.vals[v.0 as usize];
                            let fv = self.b.bitcast(fl, None, bits)?;
                            if always {
                                fv
                            } else {
                                self.b.select(fl, None, c, fv, prev)?
                            }
                        }
                        None => prev,
                    });
                }
                let nv = self.b.composite_construct(self.t.v4f, None, comps)?;
                self.b.store(var, nv, None, vec![])?;
                if let Some((bnd, first, count)) = self.plan.test {
                    let slot = self.plan.outputs.iter().position(|t| *t == target);
                    if let Some(slot) = slot {
                        let n = self.plan.outputs.len() as u32;
                        self.test_store(bnd, first, count, n, slot as u32, &values, c)?;
                    }
                }
            }
            Effect::Check {
                binding,
                index,
                cond,
                ..
            } => {
                let (Some(fb), Some(slots)) =
                    (self.plan.feedback, self.plan.bindings.get(&binding))
                else {
                    return Ok(());
                };
                let Some(last) = slots.last else {
                    return Ok(());
                };
                let lastv = self.push_load(last)?;
                let idx = self.vals[index.0 as usize];
                let c = self.vals[cond.0 as usize];
                let past = self.b.u_less_than(bl, None, lastv, idx)?;
                let viol = self.b.logical_and(bl, None, past, c)?;
                let one = self.cu(1);
                let zero = self.cu(0);
                let add = self.b.select(u, None, viol, one, zero)?;
                let var = self.sb[&fb];
                let p = self
                    .b
                    .access_chain(self.t.p_sb_u32, None, var, vec![zero, zero])?;
                let scope = self.cu(spirv::Scope::Device as u32);
                let sem = self.cu(0);
                self.b.atomic_i_add(u, None, p, scope, sem, add)?;
            }
            Effect::Store { .. } | Effect::Problem { .. } => {
                return Err(EmitError(
                    "an effect with no translation reached emission".into(),
                ));
            }
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn test_store(
        &mut self,
        bnd: u32,
        first: u32,
        count: u32,
        n: u32,
        slot: u32,
        values: &[Option<Value>; 4],
        c: Word,
    ) -> Result<(), EmitError> {
        let u = self.t.u32_;
        let bl = self.t.bool_;
        let vid = self.input(Input::VertexId)?;
        let iid = self.input(Input::InstanceId)?;
        let fv = self.push_load(first)?;
        let vc = self.push_load(count)?;
        let rel = self.b.i_sub(u, None, vid, fv)?;
        let im = self.b.i_mul(u, None, iid, vc)?;
        let rec = self.b.i_add(u, None, rel, im)?;
        let per = self.cu(4 * n);
        let base = self.b.i_mul(u, None, rec, per)?;
        let so = self.cu(4 * slot);
        let base = self.b.i_add(u, None, base, so)?;
        let var = self.sb[&bnd];
        let len = self.b.array_length(u, None, var, 0)?;
        let three = self.cu(3);
        let end = self.b.i_add(u, None, base, three)?;
        let fits = self.b.u_less_than(bl, None, end, len)?;
        // No wrap-around: base + 3 must not overflow.
        let nowrap = self.b.u_less_than(bl, None, base, end)?;
        let fits = self.b.logical_and(bl, None, fits, nowrap)?;
        let doit = self.b.logical_and(bl, None, fits, c)?;
        let lt = self.b.id();
        let lm = self.b.id();
        self.b.selection_merge(lm, SelectionControl::NONE)?;
        self.b.branch_conditional(doit, lt, lm, vec![])?;
        self.b.begin_block(Some(lt))?;
        let zero = self.cu(0);
        for (i, x) in values.iter().enumerate() {
            if let Some(v) = x {
                let k = self.cu(i as u32);
                let idx = self.b.i_add(u, None, base, k)?;
                let p = self
                    .b
                    .access_chain(self.t.p_sb_u32, None, var, vec![zero, idx])?;
                let bits = self.vals[v.0 as usize];
                self.b.store(p, bits, None, vec![])?;
            }
        }
        self.b.branch(lm)?;
        self.b.begin_block(Some(lm))?;
        Ok(())
    }
}

fn arm_returns(f: &Func, arm: &[Node]) -> bool {
    match arm.last() {
        Some(Node::Block(b)) => matches!(f.blocks[b.0 as usize].term, Term::Return),
        Some(Node::If { merge: None, .. }) => true,
        _ => false,
    }
}
