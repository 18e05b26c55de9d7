//! From decoded instructions to IR.
//!
//! The lifter walks the blocks of the analysis CFG ([`analysis::cfg::Cfg`],
//! the graph the tracer uses) in reverse postorder, running each block
//! symbolically over a register state: every
//! SGPR, VGPR and SCC holds an IR value. Joins turn disagreeing registers
//! into block parameters. The [`crate::ir::Builder`] folds constants as it
//! goes, so a conditional branch whose condition is constant for the chosen
//! system-SGPR values keeps only its live edge, and blocks no live edge
//! reaches are never lifted.
//!
//! # Lanes
//!
//! One host invocation is one guest lane. An SGPR holds either a uniform
//! word or a lane mask; a lane mask is held as this lane's bit (a Bool), in
//! both registers of a wave64 pair. EXEC is such a mask: VALU writes become
//! `select(active, new, old)`, VOPC results are `active && cmp`. Converting
//! a uniform word to a lane bit is exact only for 0 and all-ones, and
//! reading a lane mask as a word needs every lane's bit; both are recorded
//! as unsupported values (an error only if the value is used).
//!
//! `s_cbranch_execz`/`execnz` on a per-lane EXEC becomes a per-lane branch
//! ("this lane is inactive"): exact for VGPRs, exports and loads, because an
//! inactive lane's state does not change inside the skipped region. Scalar
//! registers written inside such a region and read after it are the one
//! thing this cannot know (the hardware ran the region if any lane was
//! active); `crate::passes` rejects them when they are live.
//!
//! # Layout
//!
//! Split by idea, after naga's `back/spv`:
//!
//! - this file: [`lift`], the entry, and the per-instruction dispatch
//!   (`Lifter::inst`), with the problem and unsupported-value helpers;
//! - `state`: the register state the lifter keeps (an `Sgpr` per scalar
//!   code, a value per VGPR, SCC) and reading and writing it, lane masks
//!   included;
//! - `blocks`: the lifter's edges over the CFG's blocks, the walk in
//!   reverse postorder and the joins that turn disagreeing registers into
//!   block parameters;
//! - `control`: program control (`s_branch`, `s_cbranch_*`, the other SOPP
//!   instructions) and whether an instruction may raise EXEC;
//! - `salu`, `valu`: scalar and vector ALU instructions;
//! - `mem`: scalar-memory and buffer loads and stores;
//! - `export`: exports.

mod atomic;
mod blocks;
mod control;
mod export;
mod format;
mod half;
mod image;
mod lanes;
mod lds;
mod mem;
mod ngg;
mod packed;
mod ps;
mod salu;
mod state;
mod support;
mod undef;
mod valu;

use crate::ir::{Block, Builder, Effect, Input, Source, Ty, Unsupported, Value};
use crate::manifest::{Dropped, SystemSgpr};
use crate::{Construct, Lds, Memory, OpcodeClass};
use analysis::cfg::{Cfg, Program};
use analysis::trace::ShaderTrace;
pub(crate) use control::exec_bit_implies;
pub use image::LANE_TABLE_SLOTS;
pub(crate) use image::{host_images, implicit_lod_in_regions, HostImage};
use isa::{Abi, Formatter, Instruction, OpSpace, Operand, Stage, Target};
pub(crate) use ps::hoist_quads;
use state::{Half, Sgpr, State};
use std::collections::{HashMap, HashSet};
pub use support::{support, Support};

/// What the lifter needs to know about the shader.
#[derive(Clone, Copy, Debug)]
pub struct LiftOptions {
    /// Decoding target.
    pub target: Target,
    /// Guest stage.
    pub stage: Stage,
    /// Entry ABI.
    pub abi: Abi,
    /// 64 lanes per wave (else 32).
    pub wave64: bool,
    /// Emit `--checked` guards.
    pub checked: bool,
    /// Compute shaders: the entry state (`None`: no compute entry, and a
    /// compute shader is refused).
    pub compute: Option<crate::wave::ComputeEntry>,
    /// NGG shaders as a compute pass ([`crate::wave::ngg`]): `compute` is
    /// then one wave of lanes, and the entry state is computed from the
    /// draw.
    pub ngg: Option<crate::wave::NggEntry>,
    /// Compute shaders whose workgroup is one wave: `s_cbranch_execz/
    /// execnz` is the wave's branch on whether any lane of EXEC is on (a
    /// ballot), not a per-lane selection, so control flow stays uniform
    /// across the workgroup, a divergent loop runs until no lane is active
    /// and scalar state written inside an exec region is exact (the NGG
    /// pass branches so too).
    pub wave_branches: bool,
    /// Broken lowerings (negative controls only; none otherwise).
    pub faults: crate::wave::ComputeFaults,
    /// Broken pixel-shader rules (negative controls).
    pub ps_faults: crate::PsFaults,
    /// Negative-control faults of the ALU and format lowerings
    /// ([`crate::Faults`]).
    pub alu_faults: crate::Faults,
    /// [`crate::Options::trust_lane_table_slots`].
    pub trust_lane_table_slots: bool,
    /// [`crate::Options::shading_rate`].
    pub shading_rate: crate::ShadingRateSource,
}

/// The lifted function and what was found on the way.
#[derive(Debug)]
pub struct Lifted {
    /// The IR.
    pub b: Builder,
    /// Constructs that cannot be translated, whatever is used later.
    pub problems: Vec<Unsupported>,
    /// Instructions deliberately left out.
    pub dropped: Vec<Dropped>,
    /// System-SGPR values assumed.
    pub system_sgprs: Vec<SystemSgpr>,
    /// Blocks ending in a per-lane (exec) branch, with the branch's pc.
    pub divergent: HashMap<Block, u32>,
    /// Block parameters that hold scalar state (SGPRs, SCC), with the
    /// register's name.
    pub scalar_params: HashMap<Value, String>,
    /// Blocks with instructions that may turn on lanes EXEC had off: each
    /// one's pc and the new EXEC (this lane's bit; `None` when EXEC is not
    /// held as a lane bit after it).
    pub raises_exec: HashMap<Block, Vec<(u32, Option<Value>)>>,
    /// Blocks ending in a per-lane `s_cbranch_execz/execnz`, with EXEC
    /// (this lane's bit) at the branch: the lanes its region starts with.
    pub branch_exec: HashMap<Block, Value>,
    /// The text of each image instruction, by pc (for refusals decided
    /// after the passes).
    pub image_texts: HashMap<u32, String>,
    /// Image instructions whose descriptor a per-lane slot of a table
    /// selects (expanded over the slots, `image::LANE_TABLE_SLOTS`).
    pub lane_tables: Vec<crate::manifest::LaneTable>,
}

struct Lifter<'a> {
    b: Builder,
    o: LiftOptions,
    fmt: Formatter,
    trace: Option<&'a ShaderTrace>,
    st: State,
    pc: u32,
    text: String,
    text_valid: bool,
    cur: Option<Instruction>,
    problems: Vec<Unsupported>,
    dropped: Vec<Dropped>,
    divergent: HashMap<Block, u32>,
    scalar_params: HashMap<Value, String>,
    raises_exec: HashMap<Block, Vec<(u32, Option<Value>)>>,
    branch_exec: HashMap<Block, Value>,
    /// EXEC at the `s_cbranch_execz/execnz` `branch_cond` just lifted.
    exec_at_branch: Option<Value>,
    /// The unsupported values entry VGPRs the ABI does not define start as.
    undefined: HashSet<Value>,
    /// Pixel shaders: barycentrics and interpolation in progress.
    ps: ps::PsState,
    /// The text of each image instruction, by pc.
    image_texts: HashMap<u32, String>,
    lane_tables: Vec<crate::manifest::LaneTable>,
}

/// Values of the NGG system SGPRs: a full wave of vertices and primitives,
/// wave 0 of its threadgroup.
fn ngg_system_sgprs(abi: &Abi, wave64: bool) -> Vec<SystemSgpr> {
    let lanes: u32 = if wave64 { 64 } else { 32 };
    let mut out = Vec::new();
    if let Some(r) = abi.gs_tg_info_sgpr {
        out.push(SystemSgpr {
            sgpr: format!("s{r}"),
            name: "gs_tg_info".into(),
            value: (lanes << 12) | (lanes << 22),
            meaning: format!(
                "{lanes} vertices (bits 12..20) and {lanes} primitives (bits 22..30) in the threadgroup"
            ),
        });
    }
    if let Some(r) = abi.merged_wave_info_sgpr {
        out.push(SystemSgpr {
            sgpr: format!("s{r}"),
            name: "merged_wave_info".into(),
            value: lanes | (lanes << 8),
            meaning: format!(
                "a full wave: {lanes} vertex lanes (bits 0..6), {lanes} primitive lanes (bits 8..14), wave 0 (bits 24..27); every host invocation is a vertex lane"
            ),
        });
    }
    out
}

/// An instruction's written operands and the ones it only reads.
fn defs_and_srcs(inst: &Instruction) -> (Vec<isa::Slot>, Vec<isa::Slot>) {
    let ops = inst.operands.as_slice();
    let defs = ops.iter().filter(|s| s.is_def()).copied().collect();
    (defs, srcs_of(inst))
}

/// The operands an instruction only reads.
fn srcs_of(inst: &Instruction) -> Vec<isa::Slot> {
    inst.operands
        .iter()
        .filter(|s| s.is_use() && !s.is_def())
        .copied()
        .collect()
}

/// Lift a decoded program over its control-flow graph (`cfg` is
/// [`Cfg::build`] of `program`, which was decoded in `o`'s wave size).
pub fn lift(program: &Program, cfg: &Cfg, trace: Option<&ShaderTrace>, o: LiftOptions) -> Lifted {
    let mut b = Builder::new();
    let fmt = Formatter::new(o.target);
    let zero = b.u32(0);
    let fls = b.bool(false);
    let tru = b.bool(true);
    let mut st = State {
        s: vec![Sgpr::Word(zero); 128],
        v: vec![zero; 256],
        scc: fls,
    };
    for k in 0..o.abi.user_data_count {
        let r = o.abi.user_data_sgpr as usize + k as usize;
        // A compute wave's user SGPRs end where its system SGPRs begin.
        let user = o.compute.is_none_or(|c| r < c.user_sgprs as usize);
        if r < 106 && user {
            let src = b.func.source(Source::UserData(k));
            st.s[r] = Sgpr::Word(b.input(Input::Param(src)));
        }
    }
    let system_sgprs = if o.stage == Stage::Ngg && o.ngg.is_none() {
        ngg_system_sgprs(&o.abi, o.wave64)
    } else {
        Vec::new()
    };
    for s in &system_sgprs {
        if let Ok(r) = s.sgpr[1..].parse::<usize>() {
            st.s[r] = Sgpr::Word(b.u32(s.value));
        }
    }
    if o.wave64 {
        st.s[126] = Sgpr::Mask(tru, Half::Lo);
        st.s[127] = Sgpr::Mask(tru, Half::Hi);
    } else {
        st.s[126] = Sgpr::Mask(tru, Half::Full);
    }
    if let Some(c) = o.compute {
        for (k, r) in c.workgroup_id_sgprs().iter().enumerate() {
            if let Some(r) = r.filter(|&r| r < 106) {
                st.s[r as usize] = Sgpr::Word(b.input(Input::WorkgroupId(k as u8)));
            }
        }
        if let Some(r) = c.tg_size_sgpr().filter(|&r| r < 106) {
            // Waves in the group | this wave's index << (20 or 6).
            let lanes: u32 = if o.wave64 { 64 } else { 32 };
            let waves = c.invocations().unwrap_or(1).div_ceil(lanes);
            let index = b.input(Input::LocalIndex);
            let k = b.u32(lanes.trailing_zeros());
            let wave = b.bin(crate::ir::Bin::ShrL, index, k);
            let at = b.u32(if o.target == Target::Gfx1030 { 20 } else { 6 });
            let wave = if o.faults.tg_size_wave_zero {
                b.u32(0)
            } else {
                b.bin(crate::ir::Bin::Shl, wave, at)
            };
            let n = b.u32(waves & 0x3f);
            st.s[r as usize] = Sgpr::Word(b.bin(crate::ir::Bin::Or, wave, n));
        }
        let shift = usize::from(o.faults.local_ids_shifted);
        for k in 0..c.local_id_vgprs.min(3) {
            st.v[k as usize + shift] = b.input(Input::LocalId(k));
        }
    }
    if let Some(v) = o.abi.vertex_id_vgpr {
        st.v[v as usize] = b.input(Input::VertexId);
    }
    if let Some(v) = o.abi.instance_id_vgpr {
        st.v[v as usize] = b.input(Input::InstanceId);
    }
    let mut l = Lifter {
        b,
        o,
        fmt,
        trace,
        st,
        pc: 0,
        text: String::new(),
        text_valid: true,
        cur: None,
        problems: Vec::new(),
        dropped: Vec::new(),
        divergent: HashMap::new(),
        scalar_params: HashMap::new(),
        raises_exec: HashMap::new(),
        branch_exec: HashMap::new(),
        exec_at_branch: None,
        undefined: HashSet::new(),
        ps: ps::PsState::default(),
        image_texts: HashMap::new(),
        lane_tables: Vec::new(),
    };
    if let Some(e) = o.ngg {
        l.ngg_entry(e);
    }
    l.run(program, cfg);
    let zero = l.b.u32(0);
    undef::settle(
        &mut l.b.func,
        &l.undefined,
        zero,
        undef::UndefFaults {
            zeroes_defined: o.faults.undefined_join_zeroes_defined,
            never_demanded: o.faults.undefined_never_demanded,
        },
    );
    Lifted {
        b: l.b,
        problems: l.problems,
        dropped: l.dropped,
        system_sgprs,
        divergent: l.divergent,
        scalar_params: l.scalar_params,
        raises_exec: l.raises_exec,
        branch_exec: l.branch_exec,
        image_texts: l.image_texts,
        lane_tables: l.lane_tables,
    }
}

impl Lifter<'_> {
    /// The current instruction's text (formatted only when a message needs
    /// it).
    fn txt(&mut self) -> String {
        if !self.text_valid {
            self.text.clear();
            if let Some(i) = self.cur {
                let _ = self.fmt.write(&i, &mut self.text);
            }
            self.text_valid = true;
        }
        self.text.clone()
    }

    fn problem(&mut self, construct: impl Into<Construct>) {
        let u = Unsupported {
            pc: self.pc,
            inst: self.txt(),
            construct: construct.into(),
        };
        self.problems.push(u.clone());
        // Keep what the instruction reads alive, so the unsupported values
        // it depends on are listed too.
        let mut args = Vec::new();
        if let Some(inst) = self.cur {
            for s in inst.operands.iter().filter(|s| s.is_use()) {
                if let Operand::Reg { code, count } = s.op {
                    for k in 0..count as u16 {
                        let c = (code + k) as usize;
                        if code >= 256 {
                            if let Some(v) = self.st.v.get(c - 256) {
                                args.push(*v);
                            }
                        } else if c < 128 {
                            args.push(match self.st.s[c] {
                                Sgpr::Word(v) | Sgpr::Mask(v, _) => v,
                            });
                        }
                    }
                }
            }
        }
        self.b.func.unsupported.push(u.clone());
        let index = self.b.func.unsupported.len() as u32 - 1;
        self.b.func.problem_args.insert(index, args);
        self.b.effect(Effect::Problem { index });
        // The VGPRs it writes hold what it computes, which is this same
        // construct (listed once): not the value they had before, and not
        // an undefined entry value.
        if let Some(inst) = self.cur {
            for s in inst.operands.iter().filter(|s| s.is_def()) {
                if let Operand::Reg { code, count } = s.op {
                    for k in 0..count as usize {
                        let r = (code as usize + k).wrapping_sub(256);
                        if code >= 256 && r < 256 {
                            self.st.v[r] = self.b.unsupported(Ty::U32, u.clone());
                        }
                    }
                }
            }
        }
    }
    fn unsup(&mut self, ty: Ty, construct: impl Into<Construct>) -> Value {
        let u = Unsupported {
            pc: self.pc,
            inst: self.txt(),
            construct: construct.into(),
        };
        self.b.unsupported(ty, u)
    }
    /// The current instruction is one the lifter has no translation for.
    fn unhandled(&mut self, class: OpcodeClass) {
        let opcode = self.cur.map_or(isa::Opcode::S_NOP, |i| i.opcode);
        self.problem(Construct::Opcode { opcode, class });
    }
    fn const_u32(&mut self, c: u32) -> Value {
        self.b.u32(c)
    }

    /// A vector compare's result (already masked by the active lanes) to
    /// EXEC when it is a `v_cmpx`, else to its SDST (VCC when it names
    /// none).
    fn write_compare(&mut self, to_exec: bool, defs: &[isa::Slot], bit: Value) {
        let dcode = if to_exec {
            126
        } else {
            defs.first()
                .and_then(|d| match d.op {
                    Operand::Reg { code, .. } => Some(code as usize),
                    _ => None,
                })
                .unwrap_or(106)
        };
        self.write_mask(dcode, bit);
    }

    fn inst(&mut self, inst: &Instruction) {
        let before = (self.st.s[126], self.st.s[127]);
        self.inst_body(inst);
        let after = (self.st.s[126], self.st.s[127]);
        if before != after && self.may_raise(before.0, after.0, after.1) {
            if let Some(b) = self.b.cur {
                let bit = self.exec_bit();
                self.raises_exec.entry(b).or_default().push((self.pc, bit));
            }
        }
    }

    fn inst_body(&mut self, inst: &Instruction) {
        let code = inst.opcode;
        match code.space() {
            OpSpace::Sop1 | OpSpace::Sop2 | OpSpace::Sopk | OpSpace::Sopc => {
                if !self.ps_salu(code, inst) {
                    let scc = self.st.scc;
                    let exec = (self.st.s[126], self.st.s[127]);
                    self.salu(code, inst);
                    if self.o.stage == Stage::Ps {
                        self.ps_after_salu(inst, scc, exec);
                    }
                }
            }
            OpSpace::Sopp => self.sopp(code, inst),
            OpSpace::Smem => self.smem(code, inst),
            OpSpace::Mubuf | OpSpace::Mtbuf => self.buffer(code, inst),
            OpSpace::Vop if self.o.compute.is_some() && self.lane_op(code, inst) => {}
            OpSpace::Vop => {
                if !self.ps_valu(code, inst) {
                    self.valu(code, inst)
                }
            }
            OpSpace::Exp => self.export(inst),
            OpSpace::Ds if self.o.compute.is_some() => self.lds(code, inst),
            OpSpace::Ds => self.problem(Lds::Access),
            OpSpace::Vintrp => self.interp(inst),
            OpSpace::Mimg => self.image(code, inst),
            OpSpace::Global => self.global(code, inst),
            OpSpace::Flat | OpSpace::Scratch => self.problem(Memory::FlatGlobalScratch),
            OpSpace::Vop3p => self.vop3p(code, inst),
        }
    }
}
