//! `shaderlift_draws`: a DRAWS.json file (user data, guest memory, draws)
//! for examples and tests, with a read callback over its memory.

use crate::plan::{shaderlift_chunk, shaderlift_draw, shaderlift_draw_kind};
use crate::status::{guard, shaderlift_status, CapiError};
use crate::{c_str_arg, out_arg, ref_arg};
use core::ffi::{c_char, c_void};
use drawbind::draws::{DrawSpec, DrawsFile};
use drawbind::{Draw, GuestMemory, IndexRange, SparseMemory};

/// The contents of a DRAWS.json file (the format `shaderlift bind` reads):
/// user-data words, guest memory and draws. Immutable after loading.
#[allow(non_camel_case_types)]
pub struct shaderlift_draws {
    user_data: Vec<u32>,
    memory: SparseMemory,
    draws: Vec<shaderlift_draw>,
    /// The chunk arrays `draws` point into (never moved after loading).
    _chunks: Vec<Box<[shaderlift_chunk]>>,
}

impl shaderlift_draws {
    fn new(file: &DrawsFile) -> Box<shaderlift_draws> {
        let mut chunks = Vec::new();
        let memory = file.memory();
        let draws = file
            .draws
            .iter()
            .map(|spec| match spec {
                DrawSpec::Auto {
                    first_vertex,
                    vertex_count,
                    instance_count,
                    chunks: c,
                } => {
                    let c: Box<[shaderlift_chunk]> = c
                        .iter()
                        .map(|&(first, count)| shaderlift_chunk { first, count })
                        .collect();
                    let d = shaderlift_draw {
                        kind: shaderlift_draw_kind::Auto as u32,
                        instance_count: *instance_count,
                        first_vertex: *first_vertex,
                        vertex_count: *vertex_count,
                        chunks: if c.is_empty() {
                            core::ptr::null()
                        } else {
                            c.as_ptr()
                        },
                        chunk_count: c.len(),
                        ..shaderlift_draw::default()
                    };
                    chunks.push(c);
                    d
                }
                DrawSpec::Indexed {
                    index_count,
                    instance_count,
                    first_index,
                    index_format,
                    base_vertex,
                    ..
                } => {
                    let (addr, restart) = spec
                        .index_buffer()
                        .map_or((0, None), |(ib, r)| (ib.addr, r));
                    // The range `shaderlift bind` uses: scanned from the
                    // file's memory (unknown without an index buffer, or
                    // when it cannot be read).
                    let indices = match spec.as_draw_scanned(&memory) {
                        Ok(Draw::Indexed { indices, .. }) => indices,
                        _ => IndexRange::Unknown,
                    };
                    let (has_index_range, index_min, index_max) = match indices {
                        IndexRange::Unknown => (0, 0, 0),
                        IndexRange::Span { min, max } => (1, min, max),
                        IndexRange::Empty => (2, 0, 0),
                    };
                    shaderlift_draw {
                        kind: shaderlift_draw_kind::Indexed as u32,
                        instance_count: *instance_count,
                        index_addr: addr,
                        index_format: index_format.unwrap_or_default() as u32,
                        index_count: *index_count,
                        first_index: *first_index,
                        base_vertex: *base_vertex,
                        has_restart: restart.is_some() as u8,
                        restart: restart.unwrap_or(0),
                        has_index_range,
                        index_min,
                        index_max,
                        ..shaderlift_draw::default()
                    }
                }
                // A draw kind the C API does not know yet: an unknown kind,
                // which shaderlift_bind refuses.
                _ => shaderlift_draw {
                    kind: u32::MAX,
                    ..shaderlift_draw::default()
                },
            })
            .collect();
        Box::new(shaderlift_draws {
            user_data: file.user_data(),
            memory,
            draws,
            _chunks: chunks,
        })
    }
}

/// Load a DRAWS.json file. On success `*draws` owns it; free it with
/// `shaderlift_draws_free`. On failure `*draws` is NULL.
///
/// # Safety
/// `path` is NULL or NUL-terminated; `draws` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn shaderlift_draws_load(
    path: *const c_char,
    draws: *mut *mut shaderlift_draws,
) -> shaderlift_status {
    guard(|| {
        // SAFETY: the caller promises both are NULL or valid.
        let (out, path) = unsafe { (out_arg(draws, "draws")?, c_str_arg(path, "path")?) };
        *out = core::ptr::null_mut();
        let text =
            std::fs::read_to_string(path).map_err(|e| CapiError::Draws(format!("{path}: {e}")))?;
        let file = DrawsFile::parse(&text).map_err(|e| CapiError::Draws(format!("{path}: {e}")))?;
        *out = Box::into_raw(shaderlift_draws::new(&file));
        Ok(())
    })
}

/// Free loaded draws (NULL is ignored).
///
/// # Safety
/// `draws` is NULL or was returned by `shaderlift_draws_load` and not freed.
#[no_mangle]
pub unsafe extern "C" fn shaderlift_draws_free(draws: *mut shaderlift_draws) {
    // SAFETY: the caller promises `draws` came from this crate and is freed
    // once.
    unsafe { crate::free_box(draws) }
}

/// How many draws the file lists (0 for NULL).
///
/// # Safety
/// `draws` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn shaderlift_draws_count(draws: *const shaderlift_draws) -> usize {
    crate::guard_value(0, || {
        // SAFETY: the caller promises `draws` is NULL or live.
        Ok(unsafe { ref_arg(draws, "draws") }?.draws.len())
    })
}

/// Draw `index` (NULL past the end or for NULL `draws`); it lives as long
/// as `draws`.
///
/// # Safety
/// `draws` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn shaderlift_draws_get(
    draws: *const shaderlift_draws,
    index: usize,
) -> *const shaderlift_draw {
    crate::guard_value(core::ptr::null(), || {
        // SAFETY: the caller promises `draws` is NULL or live.
        let d = unsafe { ref_arg(draws, "draws") }?.draws.get(index);
        Ok(d.map_or(core::ptr::null(), |d| d as *const shaderlift_draw))
    })
}

/// The user-data words; their count goes to `*count` (0 and NULL when
/// there are none). They live as long as `draws`.
///
/// # Safety
/// `draws` is NULL or live; `count` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn shaderlift_draws_user_data(
    draws: *const shaderlift_draws,
    count: *mut usize,
) -> *const u32 {
    crate::guard_value(core::ptr::null(), || {
        // SAFETY: the caller promises both are NULL or valid.
        let (draws, count) = unsafe { (ref_arg(draws, "draws")?, out_arg(count, "count")?) };
        *count = draws.user_data.len();
        Ok(if draws.user_data.is_empty() {
            core::ptr::null()
        } else {
            draws.user_data.as_ptr()
        })
    })
}

/// A `shaderlift_read_fn` over the file's memory: pass it to
/// `shaderlift_bind` with `ctx` = the `shaderlift_draws` pointer.
///
/// # Safety
/// `ctx` is NULL or a live `shaderlift_draws`; `dst` is NULL or holds `len`
/// writable bytes.
#[no_mangle]
pub unsafe extern "C" fn shaderlift_draws_read(
    ctx: *mut c_void,
    addr: u64,
    dst: *mut c_void,
    len: usize,
) -> bool {
    crate::guard_value(false, || {
        // SAFETY: the caller promises `ctx` is NULL or a live shaderlift_draws.
        let draws = unsafe { ref_arg(ctx.cast_const().cast::<shaderlift_draws>(), "ctx") }?;
        // SAFETY: the caller promises `dst` holds `len` writable bytes.
        let dst = unsafe { crate::slice_out(dst.cast::<u8>(), len, "dst") }?;
        Ok(draws.memory.read_bytes(addr, dst))
    })
}
