//! Per-draw cost of the C API against the Rust API, in one run: the
//! `instanced` corpus shader (three descriptors, two narrowed, read from
//! tables in guest memory) with its bundled DRAWS.json memory and user data.
//!
//! - `rust_bind`: `BindPlan::bind` with the `SparseMemory`.
//! - `c_bind`: `shaderlift_bind` called through its `extern "C"` symbol,
//!   reading the same `SparseMemory` through a C read callback.
//!
//! After divan's report, `main` times both again, interleaved in short
//! samples so both see the same machine load, and prints the C / Rust
//! ratio (the goal is at most 1.5).

use core::ffi::c_void;
use divan::{black_box, Bencher};
use drawbind::draws::DrawsFile;
use drawbind::{BindPlan, BindRange, Draw, GuestMemory, SparseMemory};
use shaderlift_capi::plan::{
    shaderlift_bind, shaderlift_plan_free, shaderlift_plan_new, CallbackMemory,
};
use shaderlift_capi::shader::{shaderlift_shader_free, shaderlift_shader_open};
use shaderlift_capi::*;
use std::ffi::CString;
use std::ptr::null_mut;
use std::time::Instant;

const CAPTURE: &str = "corpus/radv/instanced";
const DRAWS: &str = "cli/tests/draws/instanced.json";

struct Setup {
    rust: BindPlan,
    c: *mut shaderlift_plan,
    memory: SparseMemory,
    user_data: Vec<u32>,
}

fn root(rel: &str) -> String {
    format!("{}/../{rel}", env!("CARGO_MANIFEST_DIR"))
}

fn setup() -> Setup {
    let capture = corpus::Capture::open(root(CAPTURE), &Default::default()).unwrap();
    let trace = shaderlift_cli::trace::trace_capture(&capture);
    let rust = BindPlan::new(&trace, capture.stage()).unwrap();
    let file = DrawsFile::parse(&std::fs::read_to_string(root(DRAWS)).unwrap()).unwrap();
    let path = CString::new(root(CAPTURE)).unwrap();
    let (mut shader, mut c) = (null_mut(), null_mut());
    // SAFETY: a valid C string and out-pointers; the shader is freed once.
    unsafe {
        assert_eq!(
            shaderlift_shader_open(path.as_ptr(), &mut shader),
            shaderlift_status::Ok
        );
        assert_eq!(shaderlift_plan_new(shader, &mut c), shaderlift_status::Ok);
        shaderlift_shader_free(shader);
    }
    Setup {
        rust,
        c,
        memory: file.memory(),
        user_data: file.user_data(),
    }
}

impl Drop for Setup {
    fn drop(&mut self) {
        // SAFETY: the plan from `setup`, freed once.
        unsafe { shaderlift_plan_free(self.c) };
    }
}

/// A C read callback over a `SparseMemory` (what an emulator's guest
/// memory lookup would be).
unsafe extern "C" fn read_sparse(
    ctx: *mut c_void,
    addr: u64,
    dst: *mut c_void,
    len: usize,
) -> bool {
    // SAFETY: the benchmark passes a live `SparseMemory` as ctx.
    let memory = unsafe { &*ctx.cast_const().cast::<SparseMemory>() };
    match memory.view(addr, len as u64) {
        Some(bytes) => {
            // SAFETY: shaderlift_bind passes `len` writable bytes at `dst`.
            unsafe { core::ptr::copy_nonoverlapping(bytes.as_ptr(), dst.cast::<u8>(), len) };
            true
        }
        None => false,
    }
}

const CHUNKS: [(u32, u32); 2] = [(0, 48), (48, 48)];
const C_CHUNKS: [shaderlift_chunk; 2] = [
    shaderlift_chunk {
        first: 0,
        count: 48,
    },
    shaderlift_chunk {
        first: 48,
        count: 48,
    },
];
const RUST_DRAW: Draw<'static> = Draw::Auto {
    first_vertex: 0,
    vertex_count: 96,
    instance_count: 7,
    chunks: &CHUNKS,
};

fn c_draw() -> shaderlift_draw {
    shaderlift_draw {
        vertex_count: 96,
        instance_count: 7,
        chunks: C_CHUNKS.as_ptr(),
        chunk_count: 2,
        ..Default::default()
    }
}

#[inline(always)]
fn rust_once(s: &Setup, out: &mut [BindRange; 3]) {
    let n = s
        .rust
        .bind(
            black_box(&RUST_DRAW),
            black_box(&s.user_data),
            &s.memory,
            out,
        )
        .unwrap();
    black_box((n, &out));
}

#[inline(always)]
fn c_once(s: &Setup, draw: &shaderlift_draw, out: &mut [shaderlift_range; 3]) {
    let mut n = 0;
    // SAFETY: live plan, memory and buffers sized as passed.
    let st = unsafe {
        shaderlift_bind(
            s.c,
            black_box(draw),
            black_box(s.user_data.as_ptr()),
            s.user_data.len(),
            Some(read_sparse),
            (&s.memory as *const SparseMemory).cast_mut().cast(),
            out.as_mut_ptr(),
            out.len(),
            &mut n,
        )
    };
    assert_eq!(st, shaderlift_status::Ok);
    black_box((n, &out));
}

#[divan::bench]
fn rust_bind(b: Bencher) {
    let s = setup();
    let mut out = [BindRange::EMPTY; 3];
    b.bench_local(|| rust_once(&s, &mut out));
}

#[divan::bench]
fn c_bind(b: Bencher) {
    let s = setup();
    let draw = c_draw();
    let mut out = [shaderlift_range::default(); 3];
    b.bench_local(|| c_once(&s, &draw, &mut out));
}

/// Median ns/draw of short samples of each function, interleaved so all
/// see the same machine load.
fn per_draw_ns<const N: usize>(mut fs: [&mut dyn FnMut(); N]) -> [f64; N] {
    const SAMPLES: usize = 2001;
    const ITERS: u32 = 2000;
    let mut times: [Vec<f64>; N] = std::array::from_fn(|_| Vec::with_capacity(SAMPLES));
    for _ in 0..SAMPLES {
        for (f, t) in fs.iter_mut().zip(times.iter_mut()) {
            let start = Instant::now();
            for _ in 0..ITERS {
                f();
            }
            t.push(start.elapsed().as_nanos() as f64 / f64::from(ITERS));
        }
    }
    times.map(|mut t| {
        t.sort_by(f64::total_cmp);
        t[SAMPLES / 2]
    })
}

fn main() {
    divan::main();
    let s = setup();
    let draw = c_draw();
    // All paths must give the same ranges before their times mean anything.
    let mut rust_out = [BindRange::EMPTY; 3];
    let mut c_out = [shaderlift_range::default(); 3];
    let mut cb_out = [BindRange::EMPTY; 3];
    // SAFETY: read_sparse over the memory, which outlives `callback`.
    let callback = unsafe {
        CallbackMemory::new(
            // Opaque, as it is to shaderlift_bind: no inlining through it.
            black_box(read_sparse as unsafe extern "C" fn(_, _, _, _) -> _),
            (&s.memory as *const SparseMemory).cast_mut().cast(),
        )
    };
    let rust_callback = |out: &mut [BindRange; 3]| {
        let n = s
            .rust
            .bind(
                black_box(&RUST_DRAW),
                black_box(&s.user_data),
                &callback,
                out,
            )
            .unwrap();
        black_box((n, &out));
    };
    rust_once(&s, &mut rust_out);
    c_once(&s, &draw, &mut c_out);
    rust_callback(&mut cb_out);
    assert_eq!(c_out, rust_out.map(shaderlift_range::from));
    assert_eq!(cb_out, rust_out);
    let [r, c, rc] = per_draw_ns([
        &mut || rust_once(&s, &mut rust_out),
        &mut || c_once(&s, &draw, &mut c_out),
        &mut || rust_callback(&mut cb_out),
    ]);
    println!(
        "bind per draw, instanced (3 descriptors, median of 2001 samples): Rust BindPlan::bind \
         {r:.1} ns, C shaderlift_bind with a read callback {c:.1} ns, ratio C/Rust {:.2} \
         (Rust BindPlan::bind over the same callback: {rc:.1} ns)",
        c / r
    );
}
