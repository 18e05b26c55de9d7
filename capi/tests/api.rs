//! The C API called through its `extern "C"` functions: results equal the
//! Rust API's, and bad arguments are status codes, never crashes.

use core::ffi::{c_char, c_void};
use drawbind::{
    BindPlan, BindRange, Draw, GuestMemory, IndexBuffer, IndexFormat, IndexRange, SparseMemory,
};
use shaderlift_capi::draws::*;
use shaderlift_capi::plan::*;
use shaderlift_capi::reason::shaderlift_reason_text;
use shaderlift_capi::shader::*;
use shaderlift_capi::status::shaderlift_last_error;
use shaderlift_capi::*;
use std::ffi::{CStr, CString};
use std::ptr::{null, null_mut};

fn path(rel: &str) -> CString {
    CString::new(format!("{}/../{rel}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn last_error() -> String {
    // SAFETY: shaderlift_last_error returns a NUL-terminated string valid
    // until the next failing call on this thread.
    unsafe { CStr::from_ptr(shaderlift_last_error()) }
        .to_string_lossy()
        .into_owned()
}

/// A loaded corpus shader with its plan and DRAWS.json file.
struct Fixture {
    shader: *mut shaderlift_shader,
    plan: *mut shaderlift_plan,
    draws: *mut shaderlift_draws,
}

impl Fixture {
    fn new(capture: &str, draws: &str) -> Fixture {
        let mut f = Fixture {
            shader: null_mut(),
            plan: null_mut(),
            draws: null_mut(),
        };
        // SAFETY: valid C strings and out-pointers.
        unsafe {
            assert_eq!(
                shaderlift_shader_open(path(capture).as_ptr(), &mut f.shader),
                shaderlift_status::Ok,
                "{}",
                last_error()
            );
            assert_eq!(
                shaderlift_plan_new(f.shader, &mut f.plan),
                shaderlift_status::Ok
            );
            assert_eq!(
                shaderlift_draws_load(path(draws).as_ptr(), &mut f.draws),
                shaderlift_status::Ok,
                "{}",
                last_error()
            );
        }
        f
    }

    fn cube() -> Fixture {
        Fixture::new("corpus/radv/cube", "cli/tests/draws/cube.json")
    }

    fn user_data(&self) -> &[u32] {
        let mut n = 0;
        // SAFETY: a live handle; the words live as long as it.
        let p = unsafe { shaderlift_draws_user_data(self.draws, &mut n) };
        // SAFETY: `p` holds `n` words.
        unsafe { std::slice::from_raw_parts(p, n) }
    }

    fn draw(&self, i: usize) -> shaderlift_draw {
        // SAFETY: a live handle; index checked by the callee.
        let p = unsafe { shaderlift_draws_get(self.draws, i) };
        assert!(!p.is_null(), "draw {i}");
        // SAFETY: non-NULL and live.
        unsafe { *p }
    }

    /// `shaderlift_bind` with the file's memory.
    fn bind(
        &self,
        draw: &shaderlift_draw,
        out: &mut [shaderlift_range],
    ) -> (shaderlift_status, usize) {
        self.bind_with(draw, shaderlift_draws_read, self.draws.cast(), out)
    }

    /// `shaderlift_bind` with the file's user data and another reader.
    fn bind_with(
        &self,
        draw: &shaderlift_draw,
        read: unsafe extern "C" fn(*mut c_void, u64, *mut c_void, usize) -> bool,
        ctx: *mut c_void,
        out: &mut [shaderlift_range],
    ) -> (shaderlift_status, usize) {
        let ud = self.user_data();
        let mut written = usize::MAX;
        // SAFETY: every pointer is live and sized as passed.
        let s = unsafe {
            shaderlift_bind(
                self.plan,
                draw,
                ud.as_ptr(),
                ud.len(),
                Some(read),
                ctx,
                out.as_mut_ptr(),
                out.len(),
                &mut written,
            )
        };
        (s, written)
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        // SAFETY: handles from this fixture, freed once.
        unsafe {
            shaderlift_plan_free(self.plan);
            shaderlift_draws_free(self.draws);
            shaderlift_shader_free(self.shader);
        }
    }
}

const EMPTY: shaderlift_range = shaderlift_range {
    base: 0,
    size: 0,
    descriptor: 0,
    reason: shaderlift_reason::BaselineRules,
    narrowed: false,
};

#[test]
fn bind_through_c_equals_bindplan_bind_for_every_bundled_draw() {
    for (capture, draws) in [
        ("corpus/radv/cube", "cli/tests/draws/cube.json"),
        ("corpus/radv/instanced", "cli/tests/draws/instanced.json"),
    ] {
        let f = Fixture::new(capture, draws);
        let cap =
            corpus::Capture::open(path(capture).to_str().unwrap(), &Default::default()).unwrap();
        let trace = shaderlift_cli::trace::trace_capture(&cap);
        let plan = BindPlan::new(&trace, cap.stage()).unwrap();
        let text = std::fs::read_to_string(path(draws).to_str().unwrap()).unwrap();
        let file = drawbind::draws::DrawsFile::parse(&text).unwrap();
        let memory = file.memory();
        // SAFETY: a live plan.
        assert_eq!(unsafe { shaderlift_plan_range_count(f.plan) }, plan.len());
        for (i, spec) in file.draws.iter().enumerate() {
            let mut want = vec![BindRange::EMPTY; plan.len()];
            plan.bind(&spec.as_draw(), &file.user_data(), &memory, &mut want)
                .unwrap();
            let mut got = vec![EMPTY; 8];
            let (s, n) = f.bind(&f.draw(i), &mut got);
            assert_eq!(
                (s, n),
                (shaderlift_status::Ok, plan.len()),
                "{capture} draw {i}"
            );
            for (g, w) in got[..n].iter().zip(&want) {
                assert_eq!(*g, shaderlift_range::from(*w), "{capture} draw {i}");
            }
        }
    }
}

#[test]
fn null_pointers_are_status_codes() {
    let f = Fixture::cube();
    let draw = f.draw(0);
    let ud = f.user_data();
    let mut out = [EMPTY; 4];
    let mut n = 0usize;
    let read: shaderlift_read_fn = Some(shaderlift_draws_read);
    let ctx: *mut c_void = f.draws.cast();
    // SAFETY: every pointer is NULL or valid; NULL is what is tested.
    unsafe {
        let cases = [
            (
                "plan",
                shaderlift_bind(
                    null(),
                    &draw,
                    ud.as_ptr(),
                    ud.len(),
                    read,
                    ctx,
                    out.as_mut_ptr(),
                    4,
                    &mut n,
                ),
            ),
            (
                "draw",
                shaderlift_bind(
                    f.plan,
                    null(),
                    ud.as_ptr(),
                    ud.len(),
                    read,
                    ctx,
                    out.as_mut_ptr(),
                    4,
                    &mut n,
                ),
            ),
            (
                "user_data",
                shaderlift_bind(
                    f.plan,
                    &draw,
                    null(),
                    ud.len(),
                    read,
                    ctx,
                    out.as_mut_ptr(),
                    4,
                    &mut n,
                ),
            ),
            (
                "read",
                shaderlift_bind(
                    f.plan,
                    &draw,
                    ud.as_ptr(),
                    ud.len(),
                    None,
                    ctx,
                    out.as_mut_ptr(),
                    4,
                    &mut n,
                ),
            ),
            (
                "out",
                shaderlift_bind(
                    f.plan,
                    &draw,
                    ud.as_ptr(),
                    ud.len(),
                    read,
                    ctx,
                    null_mut(),
                    4,
                    &mut n,
                ),
            ),
            (
                "written",
                shaderlift_bind(
                    f.plan,
                    &draw,
                    ud.as_ptr(),
                    ud.len(),
                    read,
                    ctx,
                    out.as_mut_ptr(),
                    4,
                    null_mut(),
                ),
            ),
        ];
        for (what, s) in cases {
            assert_eq!(s, shaderlift_status::NullPointer, "{what}");
        }
        let chunked = shaderlift_draw {
            chunks: null(),
            chunk_count: 2,
            ..draw
        };
        let s = shaderlift_bind(
            f.plan,
            &chunked,
            ud.as_ptr(),
            ud.len(),
            read,
            ctx,
            out.as_mut_ptr(),
            4,
            &mut n,
        );
        assert_eq!(s, shaderlift_status::NullPointer);
        assert_eq!(last_error(), "`draw.chunks` is NULL");

        let mut shader = null_mut();
        assert_eq!(
            shaderlift_shader_open(null(), &mut shader),
            shaderlift_status::NullPointer
        );
        assert_eq!(last_error(), "`path` is NULL");
        assert_eq!(
            shaderlift_shader_open(path("corpus/radv/cube").as_ptr(), null_mut()),
            shaderlift_status::NullPointer
        );
        let mut plan = null_mut();
        assert_eq!(
            shaderlift_plan_new(null(), &mut plan),
            shaderlift_status::NullPointer
        );
        assert!(plan.is_null());
        assert_eq!(shaderlift_plan_range_count(null()), 0);
        assert!(shaderlift_plan_descriptor_source(null(), 0).is_null());
        assert!(shaderlift_draws_get(null(), 0).is_null());
        assert!(!shaderlift_draws_read(null_mut(), 0, null_mut(), 4));
        let (mut words, mut bytes) = (0, 0);
        assert_eq!(
            shaderlift_translate(
                null(),
                null(),
                null_mut(),
                0,
                &mut words,
                null_mut(),
                0,
                &mut bytes
            ),
            shaderlift_status::NullPointer
        );
        assert_eq!(
            shaderlift_abi_preset(0, null_mut()),
            shaderlift_status::NullPointer
        );
        // Freeing NULL is a no-op.
        shaderlift_plan_free(null_mut());
        shaderlift_shader_free(null_mut());
        shaderlift_draws_free(null_mut());
    }
}

#[test]
fn too_small_output_is_a_status_with_the_count_needed() {
    let f = Fixture::cube();
    let mut out = [EMPTY; 1];
    let (s, n) = f.bind(&f.draw(0), &mut out);
    assert_eq!((s, n), (shaderlift_status::OutputTooSmall, 2));
    assert_eq!(out[0], EMPTY, "nothing written on failure");
    assert_eq!(
        last_error(),
        "the output buffer (ranges) holds 1 but 2 are needed"
    );
    let (s, n) = f.bind(&f.draw(0), &mut []);
    assert_eq!(
        (s, n),
        (shaderlift_status::OutputTooSmall, 2),
        "NULL/0 asks"
    );
    let mut out = [EMPTY; 2];
    assert_eq!(f.bind(&f.draw(0), &mut out), (shaderlift_status::Ok, 2));
}

/// A read callback over a SparseMemory that refuses every address in
/// `[deny, deny + 16)` and counts its calls.
struct Refusing {
    memory: SparseMemory,
    deny: u64,
    calls: std::cell::Cell<u32>,
}

unsafe extern "C" fn refusing_read(
    ctx: *mut c_void,
    addr: u64,
    dst: *mut c_void,
    len: usize,
) -> bool {
    // SAFETY: the tests pass a live `Refusing` as ctx.
    let r = unsafe { &*ctx.cast::<Refusing>() };
    r.calls.set(r.calls.get() + 1);
    if addr < r.deny + 16 && addr + len as u64 > r.deny {
        return false;
    }
    // SAFETY: shaderlift_bind passes `len` writable bytes.
    let dst = unsafe { std::slice::from_raw_parts_mut(dst.cast::<u8>(), len) };
    r.memory.read_bytes(addr, dst)
}

#[test]
fn failing_read_callback_is_unreadable_memory_naming_the_address() {
    let f = Fixture::cube();
    let text =
        std::fs::read_to_string(path("cli/tests/draws/cube.json").to_str().unwrap()).unwrap();
    let file = drawbind::draws::DrawsFile::parse(&text).unwrap();
    let ud = file.user_data();
    // The cube's first descriptor sits at ud0 (0x1000) in table 0x8000_0000_xxxx.
    let deny = 0x8000_0000_0000 | u64::from(ud[0]);
    let ctx = Refusing {
        memory: file.memory(),
        deny,
        calls: Default::default(),
    };
    let draw = f.draw(0);
    let mut out = [EMPTY; 2];
    let as_ctx = |r: &Refusing| (r as *const Refusing).cast_mut().cast::<c_void>();
    let (s, _) = f.bind_with(&draw, refusing_read, as_ctx(&ctx), &mut out);
    assert_eq!(s, shaderlift_status::UnreadableMemory);
    assert!(ctx.calls.get() > 0, "the callback was asked");
    assert_eq!(
        last_error(),
        format!("guest memory at {deny:#x} cannot be read (word 0 of descriptor 0)")
    );
    assert_eq!(out, [EMPTY; 2]);
    // The same callback with nothing refused binds.
    let ok = Refusing { deny: 0, ..ctx };
    let (s, n) = f.bind_with(&draw, refusing_read, as_ctx(&ok), &mut out);
    assert_eq!((s, n), (shaderlift_status::Ok, 2), "{}", last_error());
}

#[test]
fn missing_user_data_bad_kind_and_bad_index_format_are_status_codes() {
    let f = Fixture::cube();
    let mut out = [EMPTY; 2];
    let mut n = 0;
    let draw = f.draw(0);
    // SAFETY: live pointers; zero user-data words.
    let s = unsafe {
        shaderlift_bind(
            f.plan,
            &draw,
            null(),
            0,
            Some(shaderlift_draws_read),
            f.draws.cast(),
            out.as_mut_ptr(),
            2,
            &mut n,
        )
    };
    assert_eq!(s, shaderlift_status::MissingUserData);
    assert!(
        last_error().contains("only 0 user-data words were given"),
        "{}",
        last_error()
    );
    let bad_kind = shaderlift_draw { kind: 7, ..draw };
    assert_eq!(
        f.bind(&bad_kind, &mut out).0,
        shaderlift_status::InvalidArgument
    );
    assert_eq!(last_error(), "draw kind 7 is not a shaderlift_draw_kind");
    let indexed = shaderlift_draw {
        kind: shaderlift_draw_kind::Indexed as u32,
        index_count: 36,
        index_format: 3,
        ..draw
    };
    assert_eq!(
        f.bind(&indexed, &mut out).0,
        shaderlift_status::InvalidArgument
    );
    let indexed = shaderlift_draw {
        index_format: shaderlift_index_format::U32 as u32,
        ..indexed
    };
    assert_eq!(f.bind(&indexed, &mut out), (shaderlift_status::Ok, 2));
    // SAFETY: reason codes index a static table.
    let reason = unsafe { CStr::from_ptr(shaderlift_reason_text(out[0].reason as i32)) };
    assert_eq!(reason.to_str().unwrap(), "indexed-draw");
}

#[test]
fn indexed_and_chunked_c_draws_map_to_the_rust_draws() {
    let chunks = [
        shaderlift_chunk {
            first: 5,
            count: 50,
        },
        shaderlift_chunk {
            first: 55,
            count: 50,
        },
    ];
    let auto = shaderlift_draw {
        first_vertex: 5,
        vertex_count: 100,
        instance_count: 2,
        chunks: chunks.as_ptr(),
        chunk_count: 2,
        ..Default::default()
    };
    let f = Fixture::cube();
    let cap = corpus::Capture::open(
        path("corpus/radv/cube").to_str().unwrap(),
        &Default::default(),
    )
    .unwrap();
    let plan = BindPlan::new(&shaderlift_cli::trace::trace_capture(&cap), cap.stage()).unwrap();
    let text =
        std::fs::read_to_string(path("cli/tests/draws/cube.json").to_str().unwrap()).unwrap();
    let file = drawbind::draws::DrawsFile::parse(&text).unwrap();
    let rust_chunks = [(5, 50), (55, 50)];
    for (c, r) in [
        (
            auto,
            Draw::Auto {
                first_vertex: 5,
                vertex_count: 100,
                instance_count: 2,
                chunks: &rust_chunks,
            },
        ),
        (
            shaderlift_draw {
                kind: shaderlift_draw_kind::Indexed as u32,
                index_count: 30,
                instance_count: 3,
                ..Default::default()
            },
            Draw::indexed(
                IndexBuffer {
                    addr: 0,
                    format: IndexFormat::U16,
                    count: 30,
                    first_index: 0,
                },
                3,
            ),
        ),
        (
            shaderlift_draw {
                kind: shaderlift_draw_kind::Indexed as u32,
                index_addr: 0x9000,
                index_format: shaderlift_index_format::U32 as u32,
                index_count: 30,
                first_index: 4,
                base_vertex: -3,
                has_restart: 1,
                restart: 77,
                has_index_range: 1,
                index_min: 5,
                index_max: 20,
                instance_count: 1,
                ..Default::default()
            },
            Draw::Indexed {
                index_buffer: IndexBuffer {
                    addr: 0x9000,
                    format: IndexFormat::U32,
                    count: 30,
                    first_index: 4,
                },
                base_vertex: -3,
                restart: Some(77),
                instance_count: 1,
                indices: IndexRange::Span { min: 5, max: 20 },
            },
        ),
        (
            shaderlift_draw {
                kind: shaderlift_draw_kind::Indexed as u32,
                index_count: 30,
                has_index_range: 2,
                ..Default::default()
            },
            Draw::Indexed {
                index_buffer: IndexBuffer {
                    addr: 0,
                    format: IndexFormat::U16,
                    count: 30,
                    first_index: 0,
                },
                base_vertex: 0,
                restart: None,
                instance_count: 1,
                indices: IndexRange::Empty,
            },
        ),
    ] {
        let mut want = [BindRange::EMPTY; 2];
        plan.bind(&r, &file.user_data(), &file.memory(), &mut want)
            .unwrap();
        let mut got = [EMPTY; 2];
        assert_eq!(f.bind(&c, &mut got), (shaderlift_status::Ok, 2));
        assert_eq!(got, want.map(shaderlift_range::from), "{r:?}");
    }
}

#[test]
fn a_binding_through_lds_narrows_only_after_the_caller_honours_the_contract() {
    let f = Fixture::new("corpus/radv/cube-nggc", "cli/tests/draws/cube.json");
    let d = f.draw(0);
    let mut out = [EMPTY; 4];
    let (s, n) = f.bind(&d, &mut out);
    assert_eq!((s, n), (shaderlift_status::Ok, 2));
    assert_eq!(out[0].reason, shaderlift_reason::LdsContract);
    assert!(!out[0].narrowed);
    // SAFETY: a live plan used by this thread only.
    unsafe {
        assert_eq!(
            shaderlift_plan_set_honour_lds_init(f.plan, 2),
            shaderlift_status::InvalidArgument
        );
        assert_eq!(
            shaderlift_plan_set_honour_lds_init(null_mut(), 1),
            shaderlift_status::NullPointer
        );
        assert_eq!(
            shaderlift_plan_set_honour_lds_init(f.plan, 1),
            shaderlift_status::Ok
        );
    }
    let (s, _) = f.bind(&d, &mut out);
    assert_eq!(s, shaderlift_status::Ok);
    assert_eq!(out[0].reason, shaderlift_reason::Narrowed);
    assert!(out[0].narrowed);
}

#[test]
fn descriptor_sources_name_the_trace_descriptors() {
    let f = Fixture::new("corpus/radv/instanced", "cli/tests/draws/instanced.json");
    let name = |d| {
        // SAFETY: a live plan; the string lives as long as it.
        let p = unsafe { shaderlift_plan_descriptor_source(f.plan, d) };
        // SAFETY: non-NULL pointers are NUL-terminated.
        (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_str().unwrap().to_owned())
    };
    assert_eq!(name(0).as_deref(), Some("table(ud0)+0x0"));
    assert_eq!(name(1).as_deref(), Some("table(ud0)+0x10"));
    assert_eq!(name(2).as_deref(), Some("table(ud3)+0x0"));
    assert_eq!(name(3), None);
}

#[test]
fn bad_captures_and_draws_files_are_status_codes_with_the_path() {
    let mut shader = null_mut();
    let missing = path("no/such/capture");
    // SAFETY: valid C strings and out-pointers.
    unsafe {
        assert_eq!(
            shaderlift_shader_open(missing.as_ptr(), &mut shader),
            shaderlift_status::Capture
        );
        assert!(shader.is_null());
        assert!(last_error().contains("no/such/capture"), "{}", last_error());
        let mut draws = null_mut();
        assert_eq!(
            shaderlift_draws_load(missing.as_ptr(), &mut draws),
            shaderlift_status::Draws
        );
        assert!(draws.is_null());
        let not_utf8 = [0xffu8, 0xfe, 0];
        assert_eq!(
            shaderlift_shader_open(not_utf8.as_ptr().cast::<c_char>(), &mut shader),
            shaderlift_status::InvalidArgument
        );
    }
}

#[test]
fn code_bytes_with_a_preset_abi_trace_like_the_capture() {
    let cap = corpus::Capture::open(
        path("corpus/radv/instanced").to_str().unwrap(),
        &Default::default(),
    )
    .unwrap();
    let mut desc = shaderlift_shader_desc {
        target: shaderlift_target::Gfx1030 as u32,
        stage: shaderlift_stage::Ngg as u32,
        wave_size: 64,
        abi: shaderlift_abi {
            user_data_sgpr: 0,
            user_data_count: 0,
            vertex_id_vgpr: -1,
            instance_id_vgpr: -1,
            merged_wave_info_sgpr: -1,
            gs_tg_info_sgpr: -1,
        },
    };
    let mut shader = null_mut();
    let mut plan = null_mut();
    // SAFETY: valid pointers and lengths.
    unsafe {
        assert_eq!(
            shaderlift_abi_preset(shaderlift_stage::Ngg as u32, &mut desc.abi),
            shaderlift_status::Ok
        );
        assert_eq!(desc.abi.vertex_id_vgpr, 5);
        assert_eq!(
            shaderlift_abi_preset(9, &mut desc.abi),
            shaderlift_status::InvalidArgument
        );
        let bad = shaderlift_shader_desc {
            wave_size: 48,
            ..desc
        };
        assert_eq!(
            shaderlift_shader_from_code(cap.code.as_ptr(), cap.code.len(), &bad, &mut shader),
            shaderlift_status::InvalidArgument
        );
        assert_eq!(last_error(), "wave size 48 is not 32 or 64");
        let bad = shaderlift_shader_desc {
            abi: shaderlift_abi {
                vertex_id_vgpr: 300,
                ..desc.abi
            },
            ..desc
        };
        assert_eq!(
            shaderlift_shader_from_code(cap.code.as_ptr(), cap.code.len(), &bad, &mut shader),
            shaderlift_status::InvalidArgument
        );
        assert_eq!(
            shaderlift_shader_from_code(cap.code.as_ptr(), cap.code.len(), &desc, &mut shader),
            shaderlift_status::Ok,
            "{}",
            last_error()
        );
        assert_eq!(
            shaderlift_plan_new(shader, &mut plan),
            shaderlift_status::Ok
        );
        assert_eq!(shaderlift_plan_range_count(plan), 3);
        let src = CStr::from_ptr(shaderlift_plan_descriptor_source(plan, 1));
        assert_eq!(src.to_str().unwrap(), "table(ud0)+0x10");
        shaderlift_plan_free(plan);
        shaderlift_shader_free(shader);
    }
}

#[test]
fn translate_asks_for_sizes_then_fills_caller_buffers_like_the_translator() {
    let f = Fixture::cube();
    let (mut words, mut bytes) = (0usize, 0usize);
    // SAFETY: NULL buffers with zero capacity ask for the sizes.
    let s = unsafe {
        shaderlift_translate(
            f.shader,
            null(),
            null_mut(),
            0,
            &mut words,
            null_mut(),
            0,
            &mut bytes,
        )
    };
    assert_eq!(s, shaderlift_status::OutputTooSmall);
    assert!(words > 5 && bytes > 2, "{words} {bytes}");
    let mut spirv = vec![0u32; words];
    let mut manifest = vec![0 as c_char; bytes - 1];
    let translate_into = |spirv: &mut [u32], manifest: &mut [c_char]| {
        let (mut words, mut bytes) = (0, 0);
        // SAFETY: buffers sized as passed.
        let s = unsafe {
            shaderlift_translate(
                f.shader,
                null(),
                spirv.as_mut_ptr(),
                spirv.len(),
                &mut words,
                manifest.as_mut_ptr(),
                manifest.len(),
                &mut bytes,
            )
        };
        assert_eq!(
            (words, bytes),
            (
                spirv.len(),
                manifest.len() + 1 - usize::from(s == shaderlift_status::Ok)
            )
        );
        s
    };
    let s = translate_into(&mut spirv, &mut manifest);
    assert_eq!(s, shaderlift_status::OutputTooSmall, "no room for the NUL");
    assert!(
        spirv.iter().all(|w| *w == 0),
        "nothing copied when one buffer is short"
    );
    manifest.push(0);
    let s = translate_into(&mut spirv, &mut manifest);
    assert_eq!(s, shaderlift_status::Ok, "{}", last_error());
    let cap = corpus::Capture::open(
        path("corpus/radv/cube").to_str().unwrap(),
        &Default::default(),
    )
    .unwrap();
    let input = cap.shader_input();
    let want = translator::translate(
        &input,
        translator::trace_for(&input).as_ref(),
        &Default::default(),
    )
    .unwrap();
    assert_eq!(spirv, want.spirv);
    // SAFETY: the manifest buffer is NUL-terminated.
    let json = unsafe { CStr::from_ptr(manifest.as_ptr()) }
        .to_str()
        .unwrap();
    assert_eq!(json, want.manifest.to_json());

    let mut ps = null_mut();
    // SAFETY: valid pointers.
    unsafe {
        assert_eq!(
            shaderlift_shader_open(path("corpus/radv/cube-nggc").as_ptr(), &mut ps),
            shaderlift_status::Ok
        );
        let s = shaderlift_translate(
            ps,
            null(),
            null_mut(),
            0,
            &mut words,
            null_mut(),
            0,
            &mut bytes,
        );
        assert_eq!(s, shaderlift_status::Unsupported);
        assert!(last_error().contains("LDS access"), "{}", last_error());
        shaderlift_shader_free(ps);
    }
}

#[test]
fn plans_bind_from_many_threads_at_once() {
    let f = Fixture::new("corpus/radv/instanced", "cli/tests/draws/instanced.json");
    let mut want = [EMPTY; 3];
    assert_eq!(f.bind(&f.draw(2), &mut want), (shaderlift_status::Ok, 3));
    struct Shared(*const shaderlift_plan, *const shaderlift_draws);
    // SAFETY: the C API documents plans and draws as immutable and
    // shareable; this is what the test checks.
    unsafe impl Sync for Shared {}
    let shared = Shared(f.plan, f.draws);
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                let shared = &shared;
                for _ in 0..200 {
                    let mut ud_n = 0;
                    let mut out = [EMPTY; 3];
                    let mut n = 0;
                    // SAFETY: live, shared immutable handles.
                    let st = unsafe {
                        let ud = shaderlift_draws_user_data(shared.1, &mut ud_n);
                        let draw = shaderlift_draws_get(shared.1, 2);
                        shaderlift_bind(
                            shared.0,
                            draw,
                            ud,
                            ud_n,
                            Some(shaderlift_draws_read),
                            shared.1.cast_mut().cast(),
                            out.as_mut_ptr(),
                            3,
                            &mut n,
                        )
                    };
                    assert_eq!((st, n), (shaderlift_status::Ok, 3));
                    assert_eq!(out, want);
                }
            });
        }
    });
}

#[test]
fn index_scan_copy_copies_and_finds_the_range_or_names_the_bad_argument() {
    let src: Vec<u8> = [9u16, 0xffff, 2, 40, 7]
        .iter()
        .flat_map(|i| i.to_le_bytes())
        .collect();
    let mut dst = vec![0u8; src.len()];
    let (mut kind, mut lo, mut hi) = (0u8, 0u32, 0u32);
    let call =
        |dst: *mut u8, format: u32, has_restart: u8, kind: &mut u8, lo: &mut u32, hi: &mut u32| {
            // SAFETY: the buffers hold `src.len()` bytes; the out-pointers are
            // live locals.
            unsafe {
                shaderlift_index_scan_copy(
                    src.as_ptr(),
                    dst,
                    src.len(),
                    format,
                    has_restart,
                    0xffff,
                    kind,
                    lo,
                    hi,
                )
            }
        };
    let u16f = shaderlift_index_format::U16 as u32;
    assert_eq!(
        call(dst.as_mut_ptr(), u16f, 1, &mut kind, &mut lo, &mut hi),
        shaderlift_status::Ok
    );
    assert_eq!((kind, lo, hi), (1, 2, 40));
    assert_eq!(dst, src, "the copy is exact");
    assert_eq!(
        call(null_mut(), u16f, 0, &mut kind, &mut lo, &mut hi),
        shaderlift_status::Ok
    );
    assert_eq!(
        (kind, lo, hi),
        (1, 2, 0xffff),
        "without restart all-ones is a vertex"
    );
    assert_eq!(
        call(null_mut(), 7, 0, &mut kind, &mut lo, &mut hi),
        shaderlift_status::InvalidArgument
    );
    // SAFETY: NULL out-pointers are refused before anything is written.
    let s = unsafe {
        shaderlift_index_scan_copy(
            src.as_ptr(),
            null_mut(),
            src.len(),
            u16f,
            0,
            0,
            null_mut(),
            null_mut(),
            null_mut(),
        )
    };
    assert_eq!(s, shaderlift_status::NullPointer);
    assert!(last_error().contains("range_kind"), "{}", last_error());
}
