//! `verify`: for every draw, trace → bind → interpret, and check every
//! fetched byte against drawbind's range for its descriptor.
//!
//! The oracle shares no code with what it checks except `isa`'s
//! instruction facts: the tracer decides which descriptor each buffer
//! instruction uses and drawbind decides the ranges; the interpreter
//! executes the draw on its own and records the bytes each active lane
//! fetched after the hardware's range checks.
//!
//! Indexed draws that name their index buffer (`index_addr`) run the ids
//! the interpreter reads from it itself ([`index_buffer_ids`]: first index,
//! restart and base vertex honoured), while drawbind binds with its own
//! scan of the same bytes. An indexed draw without an index buffer is run
//! with the vertex ids `0 ..= index_count − 1`, one sample of index values:
//! its vertex-id bindings keep the baseline, which every in-range record
//! satisfies; instance-id bindings are narrowed and checked as for auto
//! draws.

use crate::check::{check_draw, Binding, DrawCheck};
use crate::driver::{
    index_buffer_ids, run_draw, Draw, DrawConfig, LdsInit, PrimLayout, MAX_GROUP_PRIMS,
};
use crate::exec::Limits;
use crate::memory::GuestMemory;
use crate::program::Program;
use analysis::trace::{ShaderTrace, TraceConfig};
use drawbind::draws::DrawSpec;
use drawbind::{BindPlan, BindRange};
use isa::{Abi, Mode, Stage, Target};
use serde::Serialize;

/// The shader to verify.
#[derive(Clone, Copy, Debug)]
pub struct Shader<'a> {
    /// A name for reports.
    pub name: &'a str,
    /// The code.
    pub code: &'a [u8],
    /// The target.
    pub target: Target,
    /// NGG or legacy VS.
    pub stage: Stage,
    /// Entry registers.
    pub abi: Abi,
    /// 64 lanes per wave.
    pub wave64: bool,
}

/// How to verify.
#[derive(Clone, Copy, Debug)]
pub struct VerifyOptions {
    /// NGG primitives per workgroup (1..=42).
    pub group_prims: u32,
    /// The NGG primitive-VGPR layout (`None`: detect from the code).
    pub prim_layout: Option<PrimLayout>,
    /// Step bound per wave.
    pub limits: Limits,
    /// The guest address of the code's first byte: the interpreter's
    /// `s_getpc_b64` counts from it and the bind plan resolves code-relative
    /// words with it. The caller maps the code and its constant data there.
    pub code_addr: u64,
    /// The bind plan narrows bounds that went through LDS
    /// ([`drawbind::BindPlan::honour_lds_init`]). Default on, with
    /// [`VerifyOptions::init_lds`]: the contract honoured on both sides.
    pub honour_lds_contract: bool,
    /// The interpreter initialises the cells of the trace's LDS contracts
    /// with the draw's first id before each workgroup (otherwise fresh LDS
    /// is undefined, and a read of a cell no write reached makes the draw
    /// not verified). Default on.
    pub init_lds: bool,
}

impl Default for VerifyOptions {
    fn default() -> Self {
        VerifyOptions {
            group_prims: MAX_GROUP_PRIMS,
            prim_layout: None,
            limits: Limits::default(),
            code_addr: drawbind::draws::DEFAULT_CODE_ADDR,
            honour_lds_contract: true,
            init_lds: true,
        }
    }
}

/// Why nothing could be verified.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// The stage runs no vertex work.
    #[error("{0}: verify needs a vertex or primitive shader (stage ngg or vs)")]
    NotVertex(String),
    /// drawbind cannot plan the shader.
    #[error("{name}: cannot plan the bind: {error}")]
    Plan {
        /// The shader.
        name: String,
        /// drawbind's message.
        error: String,
    },
}

/// The result for one draw.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DrawReport {
    /// Position in the draw list.
    pub index: usize,
    /// The draw as given.
    pub draw: DrawSpec,
    /// The check (bindings, violations, undefined accesses).
    #[serde(flatten)]
    pub check: DrawCheck,
    /// Why the draw could not be verified (bind or interpreter error).
    pub error: Option<String>,
}

impl DrawReport {
    /// True when the draw was run and checked completely: no error and no
    /// access with an undefined address through a traced descriptor.
    pub fn verified(&self) -> bool {
        self.error.is_none() && self.check.undefined.is_empty()
    }
}

/// The result for a shader and a list of draws.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// The shader's name.
    pub shader: String,
    /// Per draw.
    pub draws: Vec<DrawReport>,
    /// Violations over every draw.
    pub violations: usize,
    /// Draws that could not be verified completely.
    pub unverified: usize,
}

/// A shader prepared for many draws: its trace, bind plan and decoded code.
pub struct Verifier<'a> {
    shader: Shader<'a>,
    trace: ShaderTrace,
    plan: BindPlan,
    program: Program,
    cfg: DrawConfig,
    out: Vec<BindRange>,
}

impl<'a> Verifier<'a> {
    /// Trace and plan a shader.
    pub fn new(shader: Shader<'a>, opts: &VerifyOptions) -> Result<Verifier<'a>, VerifyError> {
        let trace = analysis::trace::trace_code(
            shader.code,
            shader.target,
            &TraceConfig::new(shader.stage, shader.abi, !shader.wave64),
        );
        Verifier::with_trace(shader, trace, opts)
    }

    /// Use a trace made elsewhere (for example with a deliberately broken
    /// tracer, in the negative-control tests).
    pub fn with_trace(
        shader: Shader<'a>,
        trace: ShaderTrace,
        opts: &VerifyOptions,
    ) -> Result<Verifier<'a>, VerifyError> {
        if !shader.stage.is_vertex() {
            return Err(VerifyError::NotVertex(shader.name.to_string()));
        }
        let plan = BindPlan::new(&trace, shader.stage).map_err(|e| VerifyError::Plan {
            name: shader.name.to_string(),
            error: e.to_string(),
        })?;
        Ok(Verifier::with_plan(shader, trace, plan, opts))
    }

    /// Use a trace and plan made elsewhere.
    pub fn with_plan(
        shader: Shader<'a>,
        trace: ShaderTrace,
        plan: BindPlan,
        opts: &VerifyOptions,
    ) -> Verifier<'a> {
        let program = Program::new(
            shader.code,
            Mode::with_wave_size(shader.target, if shader.wave64 { 64 } else { 32 }),
        );
        let mut cfg = DrawConfig::new(&program, shader.stage, shader.abi, shader.wave64);
        cfg.group_prims = opts.group_prims;
        cfg.limits = opts.limits;
        cfg.code_addr = opts.code_addr;
        let plan = plan
            .with_code_address(opts.code_addr)
            .honour_lds_init(opts.honour_lds_contract);
        if opts.init_lds {
            let mut k = 0;
            for d in &trace.descriptors {
                let Some(b) = d.bound else { continue };
                let Some(c) = b.through_lds else { continue };
                let init = LdsInit {
                    class: c.class,
                    id: b.id,
                };
                if cfg.lds_init[..k].contains(&Some(init)) {
                    continue;
                }
                if let Some(slot) = cfg.lds_init.get_mut(k) {
                    *slot = Some(init);
                    k += 1;
                }
            }
        }
        if let Some(l) = opts.prim_layout {
            cfg.prim_layout = l;
        }
        let out = vec![BindRange::EMPTY; plan.len()];
        Verifier {
            shader,
            trace,
            plan,
            program,
            cfg,
            out,
        }
    }

    /// The trace.
    pub fn trace(&self) -> &ShaderTrace {
        &self.trace
    }

    /// The draw configuration (change the workgroup size between draws).
    pub fn config_mut(&mut self) -> &mut DrawConfig {
        &mut self.cfg
    }

    /// Verify one draw.
    pub fn draw(
        &mut self,
        index: usize,
        spec: &DrawSpec,
        user_data: &[u32],
        memory: &dyn GuestMemory,
    ) -> DrawReport {
        let mut report = DrawReport {
            index,
            draw: spec.clone(),
            check: DrawCheck::default(),
            error: None,
        };
        let bound = match self.plan.scan_draw(spec, memory) {
            Ok(d) => self.plan.bind(&d, user_data, memory, &mut self.out),
            Err(e) => {
                report.error = Some(format!("bind: {e}"));
                return report;
            }
        };
        let n = match bound {
            Ok(n) => n,
            Err(e) => {
                report.error = Some(format!("bind: {e}"));
                return report;
            }
        };
        let bindings: Vec<Binding> = self.out[..n]
            .iter()
            .map(|r| Binding {
                descriptor: r.descriptor,
                base: r.base,
                size: r.size,
                narrowed: r.narrowed,
                reason: r.reason.as_str().to_string(),
            })
            .collect();
        let draw = match spec {
            DrawSpec::Auto {
                first_vertex,
                vertex_count,
                instance_count,
                chunks,
            } => Draw::Auto {
                first_vertex: *first_vertex,
                vertex_count: *vertex_count,
                instance_count: *instance_count,
                chunks: chunks.clone(),
            },
            DrawSpec::Indexed {
                index_count,
                instance_count,
                first_index,
                index_addr,
                index_format,
                base_vertex,
                restart,
            } => {
                let ids = match index_addr {
                    None => Ok((0..*index_count).collect()),
                    Some(addr) => index_buffer_ids(
                        memory,
                        addr.0,
                        index_format.map_or(2, |f| f.bytes() as u32),
                        *first_index,
                        *index_count,
                        restart.map(|r| r.0),
                        *base_vertex,
                    ),
                };
                match ids {
                    Ok(ids) => Draw::Ids {
                        ids,
                        instance_count: *instance_count,
                    },
                    Err(e) => {
                        report.error = Some(format!("{}: {e}", self.shader.name));
                        return report;
                    }
                }
            }
            _ => {
                report.error = Some(format!(
                    "{}: the interpreter does not run this kind of draw",
                    self.shader.name
                ));
                return report;
            }
        };
        match run_draw(&self.program, memory, user_data, &draw, &self.cfg) {
            Ok(run) => report.check = check_draw(&run, &self.trace, &bindings),
            Err(e) => report.error = Some(format!("{}: {e}", self.shader.name)),
        }
        report
    }
}

/// Verify a list of draws of a shader with one set of user data and guest
/// memory.
pub fn verify(
    shader: &Shader<'_>,
    draws: &[DrawSpec],
    user_data: &[u32],
    memory: &dyn GuestMemory,
    opts: &VerifyOptions,
) -> Result<Report, VerifyError> {
    let mut v = Verifier::new(*shader, opts)?;
    let mut report = Report {
        shader: shader.name.to_string(),
        draws: Vec::with_capacity(draws.len()),
        violations: 0,
        unverified: 0,
    };
    for (i, d) in draws.iter().enumerate() {
        let r = v.draw(i, d, user_data, memory);
        report.violations += r.check.violations.len();
        report.unverified += !r.verified() as usize;
        report.draws.push(r);
    }
    Ok(report)
}
