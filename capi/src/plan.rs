//! `shaderlift_plan` (a `drawbind::BindPlan`) and the per-draw
//! `shaderlift_bind`, with guest memory read through a C callback.

use crate::reason::shaderlift_reason;
use crate::shader::shaderlift_shader;
use crate::status::{guard, shaderlift_status, CapiError};
use crate::{out_arg, ref_arg, slice_arg};
use core::ffi::{c_char, c_void};
use core::mem::MaybeUninit;
use drawbind::{BindPlan, BindRange, Draw, GuestMemory, IndexBuffer, IndexFormat, IndexRange};
use std::cell::RefCell;
use std::ffi::CString;

/// A bind plan: built once per shader, then used for every draw. Immutable:
/// any number of threads may call `shaderlift_bind` with one plan at once.
#[allow(non_camel_case_types)]
pub struct shaderlift_plan {
    pub(crate) plan: BindPlan,
    /// The source of each descriptor (`table(ud0)+0x0`), by descriptor id.
    sources: Vec<(u16, CString)>,
}

/// Reads guest GPU memory for `shaderlift_bind`: copy the `len` bytes at
/// the 48-bit guest address `addr` into `dst` and return true, or return
/// false when any of them is not mapped (the bind then fails with
/// `SHADERLIFT_STATUS_UNREADABLE_MEMORY`). `ctx` is the pointer given to
/// `shaderlift_bind`. Called only during `shaderlift_bind`, on its thread,
/// with `len` 4 (a dword) or 16 (a whole descriptor); must not throw or
/// longjmp.
#[allow(non_camel_case_types)]
pub type shaderlift_read_fn =
    Option<unsafe extern "C" fn(ctx: *mut c_void, addr: u64, dst: *mut c_void, len: usize) -> bool>;

/// A split-draw chunk: vertex-id VGPR values `first .. first + count - 1`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub struct shaderlift_chunk {
    /// First vertex id.
    pub first: u32,
    /// Vertices.
    pub count: u32,
}

/// `shaderlift_draw::kind`.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum shaderlift_draw_kind {
    /// A non-indexed draw (uses the auto fields).
    Auto = 0,
    /// An indexed draw (uses the indexed fields).
    Indexed = 1,
}

/// `shaderlift_draw::index_format`.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum shaderlift_index_format {
    /// 8-bit indices.
    U8 = 0,
    /// 16-bit indices.
    U16 = 1,
    /// 32-bit indices.
    U32 = 2,
}

/// One draw. `kind` says which fields count; `instance_count` counts for
/// both kinds (instance ids are 0 .. instance_count - 1).
///
/// The indexed fields describe the index buffer; today the binder keeps the
/// baseline for vertex-indexed descriptors of an indexed draw (it does not
/// read index buffers), so only `index_count` and `instance_count` change
/// the result. The other indexed fields are checked (a bad
/// `index_format` is an error) and will narrow once drawbind reads index
/// buffers.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub struct shaderlift_draw {
    /// A `shaderlift_draw_kind`.
    pub kind: u32,
    /// Instances (both kinds).
    pub instance_count: u32,
    /// Auto: the first value of the vertex-id VGPR.
    pub first_vertex: u32,
    /// Auto: vertices (ignored when `chunk_count` is not 0).
    pub vertex_count: u32,
    /// Auto: the hardware chunks of a split draw (NULL when `chunk_count`
    /// is 0).
    pub chunks: *const shaderlift_chunk,
    /// Auto: how many chunks; 0 for an unsplit draw.
    pub chunk_count: usize,
    /// Indexed: guest address of the index buffer.
    pub index_addr: u64,
    /// Indexed: a `shaderlift_index_format`.
    pub index_format: u32,
    /// Indexed: indices drawn.
    pub index_count: u32,
    /// Indexed: the first index read.
    pub first_index: u32,
    /// Indexed: what the hardware adds to every index (`VGT_INDX_OFFSET`;
    /// 0 for RADV, whose shaders add Vulkan's `vertexOffset` themselves).
    pub base_vertex: i32,
    /// Indexed: nonzero when primitive restart is on.
    pub has_restart: u8,
    /// Indexed: a `shaderlift_index_range_kind`: 0 unknown (vertex-id
    /// bindings keep the baseline), 1 `index_min`/`index_max` hold the
    /// smallest and largest index that names a vertex (from
    /// `shaderlift_index_scan_copy` or your own scan), 2 no index names a
    /// vertex (only restart values).
    pub has_index_range: u8,
    /// Indexed: the restart index (when `has_restart`).
    pub restart: u32,
    /// Indexed: the smallest index (when `has_index_range`).
    pub index_min: u32,
    /// Indexed: the largest index (when `has_index_range`).
    pub index_max: u32,
}

impl Default for shaderlift_draw {
    fn default() -> Self {
        shaderlift_draw {
            kind: shaderlift_draw_kind::Auto as u32,
            instance_count: 1,
            first_vertex: 0,
            vertex_count: 0,
            chunks: core::ptr::null(),
            chunk_count: 0,
            index_addr: 0,
            index_format: shaderlift_index_format::U16 as u32,
            index_count: 0,
            first_index: 0,
            base_vertex: 0,
            has_restart: 0,
            has_index_range: 0,
            restart: 0,
            index_min: 0,
            index_max: 0,
        }
    }
}

/// The bytes one descriptor binds for one draw.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub struct shaderlift_range {
    /// Guest base address (the descriptor's base).
    pub base: u64,
    /// Bytes from the base.
    pub size: u64,
    /// The trace's descriptor id (`shaderlift_plan_descriptor_source`
    /// names it).
    pub descriptor: u32,
    /// Why the range is what it is.
    pub reason: shaderlift_reason,
    /// True when the narrowing rule set the end (false: the baseline).
    pub narrowed: bool,
}

impl Default for shaderlift_range {
    /// An empty range (to fill output buffers with).
    fn default() -> Self {
        BindRange::EMPTY.into()
    }
}

impl From<BindRange> for shaderlift_range {
    #[inline]
    fn from(r: BindRange) -> shaderlift_range {
        shaderlift_range {
            base: r.base,
            size: r.size,
            descriptor: r.descriptor.0.into(),
            reason: r.reason.into(),
            narrowed: r.narrowed,
        }
    }
}

// `shaderlift_chunk` arrays are read as `&[(u32, u32)]` without copying.
// Tuple layout is not specified in general, so check this build's.
const _: () = {
    use core::mem::{align_of, offset_of, size_of};
    assert!(size_of::<(u32, u32)>() == size_of::<shaderlift_chunk>());
    assert!(align_of::<(u32, u32)>() == align_of::<shaderlift_chunk>());
    assert!(offset_of!((u32, u32), 0) == offset_of!(shaderlift_chunk, first));
    assert!(offset_of!((u32, u32), 1) == offset_of!(shaderlift_chunk, count));
};

/// Why `shaderlift_bind` failed. Small and `Copy`, so the per-draw path
/// moves no large values; it becomes a [`CapiError`] only on failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BindCallError {
    /// A NULL argument.
    #[error("`{0}` is NULL")]
    Null(&'static str),
    /// `out_cap` is below the plan's range count.
    #[error("the output buffer (ranges) holds {got} but {needed} are needed")]
    TooSmall {
        /// The capacity given.
        got: usize,
        /// The plan's range count.
        needed: usize,
    },
    /// An unknown `shaderlift_draw::kind`.
    #[error("draw kind {0} is not a shaderlift_draw_kind")]
    DrawKind(u32),
    /// An unknown `shaderlift_draw::index_format`.
    #[error("index format {0} is not a shaderlift_index_format")]
    IndexFormat(u32),
    /// An unknown `shaderlift_draw::has_index_range`.
    #[error("has_index_range {0} is not 0 (unknown), 1 (index_min/index_max) or 2 (no vertex)")]
    IndexRangeKind(u8),
    /// The read callback called `shaderlift_bind` on the same thread.
    #[error("shaderlift_bind was called from its own read callback")]
    Reentered,
    /// drawbind's per-draw failure.
    #[error(transparent)]
    Bind(#[from] drawbind::BindError),
}

impl From<crate::NullArg> for BindCallError {
    fn from(n: crate::NullArg) -> BindCallError {
        BindCallError::Null(n.0)
    }
}

/// The `drawbind::Draw` of a C draw: the one place that maps the C struct
/// onto drawbind's draw, so it changes alone when `Draw` does.
///
/// # Safety
/// `d.chunks` is NULL or points to `d.chunk_count` chunks that outlive `'a`.
pub(crate) unsafe fn to_draw<'a>(d: &'a shaderlift_draw) -> Result<Draw<'a>, BindCallError> {
    match d.kind {
        0 => {
            // SAFETY: the caller promises `chunks` holds `chunk_count`
            // chunks; `slice_arg` refuses NULL with a non-zero count.
            let chunks = unsafe { slice_arg(d.chunks, d.chunk_count, "draw.chunks") }?;
            // SAFETY: the const block above proves `(u32, u32)` and
            // `shaderlift_chunk` have the same size, alignment and field
            // offsets in this build, and every bit pattern is valid for both.
            let chunks: &[(u32, u32)] = unsafe {
                core::slice::from_raw_parts(chunks.as_ptr().cast::<(u32, u32)>(), chunks.len())
            };
            Ok(Draw::Auto {
                first_vertex: d.first_vertex,
                vertex_count: d.vertex_count,
                instance_count: d.instance_count,
                chunks,
            })
        }
        1 => {
            let format = index_format(d.index_format)?;
            let indices = match d.has_index_range {
                0 => IndexRange::Unknown,
                1 => IndexRange::Span {
                    min: d.index_min,
                    max: d.index_max,
                },
                2 => IndexRange::Empty,
                k => return Err(BindCallError::IndexRangeKind(k)),
            };
            Ok(Draw::Indexed {
                index_buffer: IndexBuffer {
                    addr: d.index_addr,
                    format,
                    count: d.index_count,
                    first_index: d.first_index,
                },
                base_vertex: d.base_vertex,
                restart: (d.has_restart != 0).then_some(d.restart),
                instance_count: d.instance_count,
                indices,
            })
        }
        k => Err(BindCallError::DrawKind(k)),
    }
}

/// The index format a `shaderlift_index_format` value names.
pub(crate) fn index_format(f: u32) -> Result<IndexFormat, BindCallError> {
    match f {
        0 => Ok(IndexFormat::U8),
        1 => Ok(IndexFormat::U16),
        2 => Ok(IndexFormat::U32),
        f => Err(BindCallError::IndexFormat(f)),
    }
}

/// Guest memory behind a C read callback (what `shaderlift_bind` reads
/// through; public so benchmarks can time `BindPlan::bind` over it).
pub struct CallbackMemory {
    read: unsafe extern "C" fn(*mut c_void, u64, *mut c_void, usize) -> bool,
    ctx: *mut c_void,
}

impl CallbackMemory {
    /// Memory read through `read(ctx, ...)`.
    ///
    /// # Safety
    /// `read` keeps the `shaderlift_read_fn` contract for `ctx` as long as
    /// the memory is used.
    pub unsafe fn new(
        read: unsafe extern "C" fn(*mut c_void, u64, *mut c_void, usize) -> bool,
        ctx: *mut c_void,
    ) -> CallbackMemory {
        CallbackMemory { read, ctx }
    }

    #[inline]
    fn fill(&self, addr: u64, out: &mut [u8]) -> bool {
        // SAFETY: `out` is writable for its length; the callback's contract
        // (shaderlift_read_fn) is to write at most `len` bytes to `dst`.
        unsafe { (self.read)(self.ctx, addr, out.as_mut_ptr().cast(), out.len()) }
    }
}

impl GuestMemory for CallbackMemory {
    #[inline]
    fn read_u32(&self, addr: u64) -> Option<u32> {
        let mut b = [0u8; 4];
        self.fill(addr, &mut b).then(|| u32::from_le_bytes(b))
    }

    #[inline]
    fn read_u32x4(&self, addr: u64) -> Option<[u32; 4]> {
        let mut b = [0u8; 16];
        if !self.fill(addr, &mut b) {
            return None;
        }
        let w = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        Some([w(0), w(4), w(8), w(12)])
    }

    fn read_bytes(&self, addr: u64, out: &mut [u8]) -> bool {
        self.fill(addr, out)
    }
}

/// Plans of up to this many descriptors bind through a stack scratch.
const STACK_RANGES: usize = 32;

thread_local! {
    /// Per-thread scratch for `BindPlan::bind`'s output for plans of more
    /// than [`STACK_RANGES`] descriptors (grown once per thread).
    static BIG_SCRATCH: RefCell<Vec<BindRange>> = const { RefCell::new(Vec::new()) };
}

/// Build the bind plan of a shader (`drawbind::BindPlan::new` over its
/// trace and stage). On success `*plan` owns the plan, which does not
/// borrow the shader; free it with `shaderlift_plan_free`.
///
/// # Safety
/// `shader` is NULL or a live shader; `plan` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn shaderlift_plan_new(
    shader: *const shaderlift_shader,
    plan: *mut *mut shaderlift_plan,
) -> shaderlift_status {
    guard(|| {
        // SAFETY: the caller promises both are NULL or valid.
        let (out, shader) = unsafe { (out_arg(plan, "plan")?, ref_arg(shader, "shader")?) };
        *out = core::ptr::null_mut();
        let bind = BindPlan::new(&shader.trace, shader.capture.stage())?;
        let sources = shader
            .trace
            .descriptors
            .iter()
            .map(|d| {
                let s = shader.trace.descriptor_source(d).replace('\0', "");
                (d.id.0, CString::new(s).unwrap_or_default())
            })
            .collect();
        *out = Box::into_raw(Box::new(shaderlift_plan {
            plan: bind,
            sources,
        }));
        Ok(())
    })
}

/// Tell a plan where the shader's code lives in guest memory (the address
/// of its first byte, what `s_getpc_b64` counts from), so descriptors and
/// tables built over the constant data after the code resolve
/// (`drawbind::BindPlan::with_code_address`). A plan whose trace has such
/// words fails every bind with `SHADERLIFT_STATUS_INVALID_ARGUMENT` until it
/// knows. Call it before the plan is shared between threads.
///
/// # Safety
/// `plan` is NULL or a live plan no other thread is using.
#[no_mangle]
pub unsafe extern "C" fn shaderlift_plan_set_code_address(
    plan: *mut shaderlift_plan,
    code_addr: u64,
) -> shaderlift_status {
    guard(|| {
        // SAFETY: the caller promises `plan` is NULL or live and unshared.
        unsafe { out_arg(plan, "plan") }?
            .plan
            .set_code_address(code_addr);
        Ok(())
    })
}

/// Declare whether the caller honours the shader trace's LDS contracts: it
/// fills every cell of each contract's class (the 4 bytes at
/// `offset + k * stride` of the workgroup's LDS) with the draw's first id,
/// or 0, before each workgroup runs. Only then does `shaderlift_bind` narrow
/// bindings whose index is read back from LDS; by default (`honour` 0) they
/// keep the baseline with the reason `lds-contract`. `honour` is 0 or 1.
///
/// # Safety
/// `plan` is NULL or a live plan no other thread is using.
#[no_mangle]
pub unsafe extern "C" fn shaderlift_plan_set_honour_lds_init(
    plan: *mut shaderlift_plan,
    honour: u32,
) -> shaderlift_status {
    guard(|| {
        if honour > 1 {
            return Err(CapiError::Invalid(format!(
                "`honour` is {honour}; it must be 0 or 1"
            )));
        }
        // SAFETY: the caller promises `plan` is NULL or live and unshared.
        unsafe { out_arg(plan, "plan") }?
            .plan
            .set_honour_lds_init(honour == 1);
        Ok(())
    })
}

/// Free a plan (NULL is ignored).
///
/// # Safety
/// `plan` is NULL or was returned by `shaderlift_plan_new` and not freed
/// yet, and no other thread is using it.
#[no_mangle]
pub unsafe extern "C" fn shaderlift_plan_free(plan: *mut shaderlift_plan) {
    // SAFETY: the caller promises `plan` came from this crate and is freed
    // once, by its last user.
    unsafe { crate::free_box(plan) }
}

/// How many ranges `shaderlift_bind` writes for this plan (one per traced
/// descriptor); 0 for NULL.
///
/// # Safety
/// `plan` is NULL or a live plan.
#[no_mangle]
pub unsafe extern "C" fn shaderlift_plan_range_count(plan: *const shaderlift_plan) -> usize {
    crate::guard_value(0, || {
        // SAFETY: the caller promises `plan` is NULL or live.
        Ok(unsafe { ref_arg(plan, "plan") }?.plan.len())
    })
}

/// Where a descriptor's words come from, as `shaderlift bind` prints it
/// (`"table(ud0)+0x10"`); NULL for an unknown descriptor id or a NULL plan.
/// The string lives as long as the plan.
///
/// # Safety
/// `plan` is NULL or a live plan.
#[no_mangle]
pub unsafe extern "C" fn shaderlift_plan_descriptor_source(
    plan: *const shaderlift_plan,
    descriptor: u32,
) -> *const c_char {
    crate::guard_value(core::ptr::null(), || {
        // SAFETY: the caller promises `plan` is NULL or live.
        let plan = unsafe { ref_arg(plan, "plan") }?;
        Ok(plan
            .sources
            .iter()
            .find(|(id, _)| u32::from(*id) == descriptor)
            .map_or(core::ptr::null(), |(_, s)| s.as_ptr()))
    })
}

/// Bind one draw: write one range per descriptor of the plan to `out` and
/// their count to `*written`. Takes no lock and allocates nothing on
/// success (plans of more than 32 descriptors: once per thread, on its
/// first such bind, for a per-thread scratch); the plan is only read.
///
/// `user_data` holds `user_data_count` user-data words (word k is in SGPR
/// `abi.user_data_sgpr + k` at entry; NULL when the count is 0). `read`
/// reads guest memory (tables and descriptors the trace points into), with
/// `ctx` passed through.
///
/// Errors: a NULL `plan`, `draw`, `read` or `written` (or NULL `out` /
/// `user_data` / `draw->chunks` with a non-zero count) is
/// `SHADERLIFT_STATUS_NULL_POINTER`; `out_cap` smaller than the plan's
/// range count is `SHADERLIFT_STATUS_OUTPUT_TOO_SMALL` with `*written` set
/// to the count needed (so `out = NULL, out_cap = 0` asks); a read the
/// callback refuses is `SHADERLIFT_STATUS_UNREADABLE_MEMORY`; a user-data
/// word past `user_data_count` is `SHADERLIFT_STATUS_MISSING_USER_DATA`; a
/// bad draw kind or index format is `SHADERLIFT_STATUS_INVALID_ARGUMENT`.
/// `shaderlift_last_error()` then names the address and the word. On any
/// error `out` is left unchanged.
///
/// # Safety
/// Every pointer is NULL or valid for its count; `plan` is live.
#[no_mangle]
pub unsafe extern "C" fn shaderlift_bind(
    plan: *const shaderlift_plan,
    draw: *const shaderlift_draw,
    user_data: *const u32,
    user_data_count: usize,
    read: shaderlift_read_fn,
    ctx: *mut c_void,
    out: *mut shaderlift_range,
    out_cap: usize,
    written: *mut usize,
) -> shaderlift_status {
    guard(|| {
        // SAFETY: the caller's promises, passed on.
        unsafe {
            bind_draw(
                plan,
                draw,
                user_data,
                user_data_count,
                read,
                ctx,
                out,
                out_cap,
                written,
            )
        }
        .map_err(CapiError::from)
    })
}

/// The body of [`shaderlift_bind`], with a small error type.
///
/// # Safety
/// As [`shaderlift_bind`].
#[allow(clippy::too_many_arguments)]
#[inline]
unsafe fn bind_draw(
    plan: *const shaderlift_plan,
    draw: *const shaderlift_draw,
    user_data: *const u32,
    user_data_count: usize,
    read: shaderlift_read_fn,
    ctx: *mut c_void,
    out: *mut shaderlift_range,
    out_cap: usize,
    written: *mut usize,
) -> Result<(), BindCallError> {
    // SAFETY: the caller promises every pointer is NULL or valid for its
    // count; the helpers refuse NULL where a value is needed.
    let (plan, draw, user_data, written) = unsafe {
        (
            ref_arg(plan, "plan")?,
            ref_arg(draw, "draw")?,
            slice_arg(user_data, user_data_count, "user_data")?,
            out_arg(written, "written")?,
        )
    };
    let read = read.ok_or(BindCallError::Null("read"))?;
    let n = plan.plan.len();
    if out_cap < n {
        *written = n;
        return Err(BindCallError::TooSmall {
            got: out_cap,
            needed: n,
        });
    }
    // SAFETY: the caller promises `out` holds `out_cap` ranges, and
    // `out_cap >= n`.
    let out = unsafe { crate::slice_out(out, n, "out") }?;
    // SAFETY: the caller promises `draw.chunks` holds `chunk_count`.
    let draw = unsafe { to_draw(draw) }?;
    let memory = CallbackMemory { read, ctx };
    with_scratch(n, |scratch| {
        plan.plan.bind(&draw, user_data, &memory, scratch)?;
        for (o, r) in out.iter_mut().zip(scratch.iter()) {
            *o = (*r).into();
        }
        *written = n;
        Ok(())
    })
}

/// Run `f` on a scratch of exactly `n` ranges: on the stack for up to
/// [`STACK_RANGES`], else in this thread's [`BIG_SCRATCH`] (which a
/// re-entrant call finds borrowed: [`BindCallError::Reentered`]).
#[inline]
fn with_scratch(
    n: usize,
    f: impl FnOnce(&mut [BindRange]) -> Result<(), BindCallError>,
) -> Result<(), BindCallError> {
    if n <= STACK_RANGES {
        let mut stack = [MaybeUninit::<BindRange>::uninit(); STACK_RANGES];
        for slot in &mut stack[..n] {
            slot.write(BindRange::EMPTY);
        }
        // SAFETY: the first `n` slots were just initialised, and
        // `MaybeUninit<BindRange>` has `BindRange`'s layout.
        let scratch = unsafe { &mut *(core::ptr::from_mut(&mut stack[..n]) as *mut [BindRange]) };
        f(scratch)
    } else {
        BIG_SCRATCH.with(|s| {
            let mut s = s.try_borrow_mut().map_err(|_| BindCallError::Reentered)?;
            if s.len() < n {
                s.resize(n, BindRange::EMPTY);
            }
            f(&mut s[..n])
        })
    }
}

/// Copy `len` bytes of indices from `src` to `dst` and find, in the same
/// pass, the smallest and largest index that names a vertex: the
/// `index_min`/`index_max` an indexed `shaderlift_draw` wants. `format` is
/// a `shaderlift_index_format`; with `has_restart`, indices equal to
/// `restart` are skipped. On success `*range_kind` is 1 with
/// `*index_min`/`*index_max` set, or 2 when no index names a vertex
/// (`shaderlift_draw::has_index_range` takes the value as it is). `dst` may
/// be NULL to scan without copying. A trailing partial index is copied but
/// not scanned. Allocates nothing; safe to call from any thread.
///
/// # Safety
/// `src` holds `len` readable bytes; `dst` is NULL or holds `len` writable
/// bytes not overlapping `src`; the out-pointers are writable.
#[no_mangle]
pub unsafe extern "C" fn shaderlift_index_scan_copy(
    src: *const u8,
    dst: *mut u8,
    len: usize,
    format: u32,
    has_restart: u8,
    restart: u32,
    range_kind: *mut u8,
    index_min: *mut u32,
    index_max: *mut u32,
) -> shaderlift_status {
    guard(|| {
        // SAFETY: the caller promises the out-pointers are NULL or writable
        // and `src` holds `len` bytes.
        let (kind, lo, hi, src) = unsafe {
            (
                out_arg(range_kind, "range_kind")?,
                out_arg(index_min, "index_min")?,
                out_arg(index_max, "index_max")?,
                slice_arg(src, len, "src")?,
            )
        };
        let format = index_format(format)?;
        let restart = (has_restart != 0).then_some(restart);
        let range = if dst.is_null() {
            drawbind::index::scan(src, format, restart)
        } else {
            // SAFETY: the caller promises `dst` holds `len` writable bytes
            // that do not overlap `src`.
            let dst = unsafe { core::slice::from_raw_parts_mut(dst, len) };
            drawbind::index::scan_copy(src, dst, format, restart)
                .map_err(|e| CapiError::Invalid(e.to_string()))?
        };
        (*kind, *lo, *hi) = match range {
            IndexRange::Span { min, max } => (1, min, max),
            IndexRange::Empty | IndexRange::Unknown => (2, 0, 0),
        };
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scratch_has_exactly_n_ranges_on_the_stack_and_past_it() {
        for n in [0, 1, STACK_RANGES, STACK_RANGES + 1, 3 * STACK_RANGES] {
            let mut seen = None;
            with_scratch(n, |s| {
                seen = Some(s.len());
                s.fill(BindRange {
                    size: 7,
                    ..BindRange::EMPTY
                });
                Ok(())
            })
            .unwrap();
            assert_eq!(seen, Some(n));
        }
    }

    #[test]
    fn a_reentrant_bind_past_the_stack_is_an_error_not_a_panic() {
        let n = STACK_RANGES + 1;
        let inner = with_scratch(n, |_| with_scratch(n, |_| Ok(())));
        assert_eq!(inner, Err(BindCallError::Reentered));
        // Small plans bind re-entrantly: each call has its own stack scratch.
        assert_eq!(with_scratch(2, |_| with_scratch(2, |_| Ok(()))), Ok(()));
        // The per-thread scratch is free again afterwards.
        assert_eq!(with_scratch(n, |_| Ok(())), Ok(()));
    }
}
