//! `shaderlift_shader`: a loaded, traced shader; and its translation to
//! SPIR-V plus manifest into caller-owned buffers.

use crate::status::{guard, shaderlift_status, CapiError};
use crate::{c_str_arg, out_arg, ref_arg};
use analysis::trace::{trace_code, ShaderTrace, TraceConfig};
use core::ffi::c_char;
use corpus::{Capture, CaptureOptions, Meta, WaveSize};
use isa::{Abi, Stage, Target};

/// A shader loaded from a capture or from code bytes, with its trace
/// (`analysis::trace`, computed once at load). Immutable after creation.
#[allow(non_camel_case_types)]
pub struct shaderlift_shader {
    pub(crate) capture: Capture,
    pub(crate) trace: ShaderTrace,
}

/// A GPU target (`shaderlift_shader_desc::target`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum shaderlift_target {
    /// gfx10.3 (Navi 21, RDNA2).
    Gfx1030 = 0,
    /// gfx10.1 with the ray-tracing instructions.
    Gfx1013 = 1,
    /// gfx10.1 (Navi 10).
    Gfx1010 = 2,
}

/// A hardware stage (`shaderlift_shader_desc::stage`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum shaderlift_stage {
    /// NGG primitive shader.
    Ngg = 0,
    /// Legacy hardware vertex shader.
    LegacyVs = 1,
    /// Pixel shader.
    Ps = 2,
    /// Compute shader.
    Cs = 3,
}

/// Entry registers. A register field below 0 means "none".
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub struct shaderlift_abi {
    /// SGPR of user-data word 0 (word k is in SGPR user_data_sgpr + k).
    pub user_data_sgpr: u32,
    /// How many user-data words the hardware loads.
    pub user_data_count: u32,
    /// VGPR of the vertex id (without base vertex), or -1.
    pub vertex_id_vgpr: i32,
    /// VGPR of the instance id (without start instance), or -1.
    pub instance_id_vgpr: i32,
    /// SGPR of NGG merged_wave_info, or -1.
    pub merged_wave_info_sgpr: i32,
    /// SGPR of NGG gs_tg_info, or -1.
    pub gs_tg_info_sgpr: i32,
}

/// How to read code bytes (`shaderlift_shader_from_code`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub struct shaderlift_shader_desc {
    /// A `shaderlift_target`.
    pub target: u32,
    /// A `shaderlift_stage`.
    pub stage: u32,
    /// 32 or 64.
    pub wave_size: u32,
    /// The entry ABI (`shaderlift_abi_preset` fills RADV's for a stage).
    pub abi: shaderlift_abi,
}

/// Translation options (`shaderlift_translate`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub struct shaderlift_translate_options {
    /// Nonzero: compile in the narrowed-binding guards and the violation
    /// counter (`shaderlift translate --checked`).
    pub checked: u8,
    /// Nonzero: also store every export in a test-output buffer.
    pub test_outputs: u8,
}

fn stage_of(v: u32) -> Result<Stage, CapiError> {
    Ok(match v {
        0 => Stage::Ngg,
        1 => Stage::LegacyVs,
        2 => Stage::Ps,
        3 => Stage::Cs,
        _ => {
            return Err(CapiError::Invalid(format!(
                "stage {v} is not a shaderlift_stage"
            )))
        }
    })
}

fn target_of(v: u32) -> Result<Target, CapiError> {
    Ok(match v {
        0 => Target::Gfx1030,
        1 => Target::Gfx1013,
        2 => Target::Gfx1010,
        _ => {
            return Err(CapiError::Invalid(format!(
                "target {v} is not a shaderlift_target"
            )))
        }
    })
}

fn reg(v: i64, what: &str) -> Result<u8, CapiError> {
    u8::try_from(v).map_err(|_| CapiError::Invalid(format!("{what} {v} is not a register number")))
}

fn opt_reg(v: i32, what: &str) -> Result<Option<u8>, CapiError> {
    if v < 0 {
        Ok(None)
    } else {
        reg(v.into(), what).map(Some)
    }
}

impl shaderlift_abi {
    fn from_abi(a: Abi) -> shaderlift_abi {
        let r = |v: Option<u8>| v.map_or(-1, i32::from);
        shaderlift_abi {
            user_data_sgpr: a.user_data_sgpr.into(),
            user_data_count: a.user_data_count.into(),
            vertex_id_vgpr: r(a.vertex_id_vgpr),
            instance_id_vgpr: r(a.instance_id_vgpr),
            merged_wave_info_sgpr: r(a.merged_wave_info_sgpr),
            gs_tg_info_sgpr: r(a.gs_tg_info_sgpr),
        }
    }

    fn to_abi(self) -> Result<Abi, CapiError> {
        Ok(Abi {
            user_data_sgpr: reg(self.user_data_sgpr.into(), "user_data_sgpr")?,
            user_data_count: reg(self.user_data_count.into(), "user_data_count")?,
            vertex_id_vgpr: opt_reg(self.vertex_id_vgpr, "vertex_id_vgpr")?,
            instance_id_vgpr: opt_reg(self.instance_id_vgpr, "instance_id_vgpr")?,
            merged_wave_info_sgpr: opt_reg(self.merged_wave_info_sgpr, "merged_wave_info_sgpr")?,
            gs_tg_info_sgpr: opt_reg(self.gs_tg_info_sgpr, "gs_tg_info_sgpr")?,
            ps_input_ena: 0,
        })
    }
}

impl shaderlift_shader {
    /// Trace a capture with the stage, ABI and wave size it records (what
    /// `shaderlift bind` and `shaderlift translate` do).
    pub(crate) fn new(capture: Capture) -> Box<shaderlift_shader> {
        let config = TraceConfig::new(
            capture.stage(),
            capture.abi(),
            capture.wave_size() == WaveSize::W32,
        );
        let trace = trace_code(&capture.code, capture.target(), &config);
        Box::new(shaderlift_shader { capture, trace })
    }
}

/// Fill `*abi` with RADV's entry ABI for a `shaderlift_stage` (the ABI a
/// capture without one gets).
///
/// # Safety
/// `abi` is NULL or points to writable memory for one `shaderlift_abi`.
#[no_mangle]
pub unsafe extern "C" fn shaderlift_abi_preset(
    stage: u32,
    abi: *mut shaderlift_abi,
) -> shaderlift_status {
    guard(|| {
        // SAFETY: the caller promises `abi` is NULL or writable.
        let abi = unsafe { out_arg(abi, "abi") }?;
        *abi = shaderlift_abi::from_abi(corpus::default_abi(stage_of(stage)?));
        Ok(())
    })
}

/// Load a capture in any form `shaderlift` reads (a capture directory, the
/// ELF capture form, an llvm-mc code object; a `.bin` file is raw code with
/// RADV NGG defaults) and trace it. On success `*shader` owns the result;
/// free it with `shaderlift_shader_free`. On failure `*shader` is NULL.
///
/// # Safety
/// `path` is NULL or a NUL-terminated string; `shader` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn shaderlift_shader_open(
    path: *const c_char,
    shader: *mut *mut shaderlift_shader,
) -> shaderlift_status {
    guard(|| {
        // SAFETY: the caller promises `shader` is NULL or writable.
        let out = unsafe { out_arg(shader, "shader") }?;
        *out = core::ptr::null_mut();
        // SAFETY: the caller promises `path` is NULL or NUL-terminated.
        let path = unsafe { c_str_arg(path, "path") }?;
        let capture = Capture::open(path, &CaptureOptions::default())?;
        *out = Box::into_raw(shaderlift_shader::new(capture));
        Ok(())
    })
}

/// Load a shader from machine code (little-endian, from the entry point)
/// and trace it. On success `*shader` owns the result; free it with
/// `shaderlift_shader_free`. On failure `*shader` is NULL.
///
/// # Safety
/// `code` points to `len` readable bytes (or is anything when `len` is 0);
/// `desc` is NULL or points to a `shaderlift_shader_desc`; `shader` is NULL
/// or writable.
#[no_mangle]
pub unsafe extern "C" fn shaderlift_shader_from_code(
    code: *const u8,
    len: usize,
    desc: *const shaderlift_shader_desc,
    shader: *mut *mut shaderlift_shader,
) -> shaderlift_status {
    guard(|| {
        // SAFETY: the caller promises `shader` is NULL or writable.
        let out = unsafe { out_arg(shader, "shader") }?;
        *out = core::ptr::null_mut();
        // SAFETY: the caller promises `desc` is NULL or valid.
        let desc = unsafe { ref_arg(desc, "desc") }?;
        // SAFETY: the caller promises `code` holds `len` bytes.
        let code = unsafe { crate::slice_arg(code, len, "code") }?;
        let wave = WaveSize::from_lanes(desc.wave_size.into()).ok_or_else(|| {
            CapiError::Invalid(format!("wave size {} is not 32 or 64", desc.wave_size))
        })?;
        let mut meta = Meta::new(target_of(desc.target)?, stage_of(desc.stage)?, wave);
        meta.abi = desc.abi.to_abi()?;
        let capture = Capture::new("code", code.to_vec(), meta);
        *out = Box::into_raw(shaderlift_shader::new(capture));
        Ok(())
    })
}

/// Free a shader (NULL is ignored). Plans made from it stay valid.
///
/// # Safety
/// `shader` is NULL or was returned by `shaderlift_shader_open` /
/// `shaderlift_shader_from_code` and not freed yet.
#[no_mangle]
pub unsafe extern "C" fn shaderlift_shader_free(shader: *mut shaderlift_shader) {
    // SAFETY: the caller promises `shader` came from this crate and is
    // freed once.
    unsafe { crate::free_box(shader) }
}

/// Translate a shader (vertex, primitive, pixel, or a compute capture that
/// records its entry state) to SPIR-V 1.3 and its layout manifest (JSON),
/// as `shaderlift translate` does, into caller-owned buffers.
///
/// Size query: `*spirv_words` gets the module's length in 32-bit words and
/// `*manifest_bytes` the manifest's length in bytes including its
/// terminating NUL, whenever the translation succeeds. When `spirv_cap`
/// (words) or `manifest_cap` (bytes) is smaller, nothing is copied and the
/// result is `SHADERLIFT_STATUS_OUTPUT_TOO_SMALL`; call again with buffers
/// that size (pass NULL and 0 to ask). Each call translates afresh (the
/// result is deterministic), so pass generous buffers to translate once.
/// `options` may be NULL (all off).
///
/// # Safety
/// `shader` is NULL or a live shader; `options` is NULL or valid; `spirv`
/// is NULL or holds `spirv_cap` writable words; `manifest` is NULL or holds
/// `manifest_cap` writable bytes; `spirv_words` and `manifest_bytes` are
/// NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn shaderlift_translate(
    shader: *const shaderlift_shader,
    options: *const shaderlift_translate_options,
    spirv: *mut u32,
    spirv_cap: usize,
    spirv_words: *mut usize,
    manifest: *mut c_char,
    manifest_cap: usize,
    manifest_bytes: *mut usize,
) -> shaderlift_status {
    guard(|| {
        // SAFETY: the caller promises these are NULL or valid.
        let (shader, spirv_words, manifest_bytes) = unsafe {
            (
                ref_arg(shader, "shader")?,
                out_arg(spirv_words, "spirv_words")?,
                out_arg(manifest_bytes, "manifest_bytes")?,
            )
        };
        // SAFETY: the caller promises `options` is NULL or valid.
        let options = unsafe { options.as_ref() }.copied().unwrap_or_default();
        let input = shader.capture.shader_input();
        let opts = translator::Options {
            checked: options.checked != 0,
            test_outputs: options.test_outputs != 0,
            validate: true,
            precise: false,
            trust_lane_table_slots: false,
            shading_rate: Default::default(),
            lane_table_arrays: true,
            faults: Default::default(),
        };
        // A compute capture that records its entry state translates under the
        // compute model, as `shaderlift translate` does.
        let t = match shader.capture.compute_entry() {
            Some(entry) => translator::translate_compute(&input, &entry, &opts)?,
            None => translator::translate(&input, Some(&shader.trace), &opts)?,
        };
        let json = t.manifest.to_json();
        *spirv_words = t.spirv.len();
        *manifest_bytes = json.len() + 1;
        if spirv_cap < t.spirv.len() {
            return Err(CapiError::TooSmall {
                what: "the SPIR-V buffer (words)",
                got: spirv_cap,
                needed: t.spirv.len(),
            });
        }
        if manifest_cap < json.len() + 1 {
            return Err(CapiError::TooSmall {
                what: "the manifest buffer (bytes)",
                got: manifest_cap,
                needed: json.len() + 1,
            });
        }
        // SAFETY: the caller promises the buffers hold their capacities,
        // which were just checked (a non-empty module needs a non-NULL
        // buffer; `slice_out` refuses NULL with a capacity needed).
        let (spirv, manifest) = unsafe {
            (
                crate::slice_out(spirv, t.spirv.len(), "spirv")?,
                crate::slice_out(manifest.cast::<u8>(), json.len() + 1, "manifest")?,
            )
        };
        spirv.copy_from_slice(&t.spirv);
        manifest[..json.len()].copy_from_slice(json.as_bytes());
        manifest[json.len()] = 0;
        Ok(())
    })
}
