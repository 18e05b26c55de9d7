//! The capture forms: reading each, writing the ELF form, and refusing bad
//! input with errors that say where and why (never a panic).

use corpus::{
    bundled, bundled_root, find_captures, Capture, CaptureError, CaptureOptions, Form, Meta, Note,
    WaveSize,
};
use isa::{Abi, Stage, Target};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

const S_ENDPGM: [u8; 4] = [0x00, 0x00, 0x81, 0xbf];
const S_NOP_0: [u8; 4] = [0x00, 0x00, 0x80, 0xbf];

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("capture_forms")
        .join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn open(path: &Path) -> Result<Capture, CaptureError> {
    Capture::open(path, &CaptureOptions::default())
}

fn radv(name: &str) -> Capture {
    open(&bundled_root().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// A small valid capture in memory.
fn small_capture() -> Capture {
    let mut code = Vec::new();
    code.extend_from_slice(&S_NOP_0);
    code.extend_from_slice(&S_ENDPGM);
    let mut meta = Meta::new(Target::Gfx1030, Stage::Ngg, WaveSize::W64);
    meta.user_data = Some(vec![0x1000, 0xffff_8000]);
    meta.provenance
        .insert("emulator".into(), "unit-test".into());
    Capture::new("small", code, meta)
}

fn tool(name: &str) -> Option<&'static str> {
    let path: &'static str = match name {
        "objdump" => "llvm-objdump-19",
        "mc" => "llvm-mc-19",
        _ => unreachable!(),
    };
    match Command::new(path).arg("--version").output() {
        Ok(o) if o.status.success() => Some(path),
        _ => {
            eprintln!("note: {path} not found; skipping the part of this test that needs it");
            None
        }
    }
}

#[test]
fn radv_entries_map_stage_wave_and_abi_from_their_meta_json() {
    // (entry, stage, wave, user-data sgpr, user-data count, vertex id, instance id)
    type Case = (
        &'static str,
        Stage,
        WaveSize,
        u8,
        u8,
        Option<u8>,
        Option<u8>,
    );
    let cases: &[Case] = &[
        ("cube", Stage::Ngg, WaveSize::W64, 8, 3, Some(5), Some(8)),
        (
            "cube-w32",
            Stage::Ngg,
            WaveSize::W32,
            8,
            3,
            Some(5),
            Some(8),
        ),
        (
            "cube-nggc",
            Stage::Ngg,
            WaveSize::W64,
            8,
            8,
            Some(5),
            Some(8),
        ),
        (
            "cube-nggc-w32",
            Stage::Ngg,
            WaveSize::W32,
            8,
            8,
            Some(5),
            Some(8),
        ),
        (
            "cube-legacy-vs",
            Stage::LegacyVs,
            WaveSize::W64,
            2,
            3,
            Some(0),
            Some(3),
        ),
        (
            "instanced",
            Stage::Ngg,
            WaveSize::W64,
            8,
            4,
            Some(5),
            Some(8),
        ),
        (
            "instanced-nggc",
            Stage::Ngg,
            WaveSize::W64,
            8,
            9,
            Some(5),
            Some(8),
        ),
        (
            "instanced-legacy-vs",
            Stage::LegacyVs,
            WaveSize::W64,
            2,
            4,
            Some(0),
            Some(3),
        ),
        ("fragment-color", Stage::Ps, WaveSize::W64, 2, 0, None, None),
        ("compute", Stage::Cs, WaveSize::W64, 2, 3, None, None),
        ("compute-w32", Stage::Cs, WaveSize::W32, 2, 3, None, None),
    ];
    for &(name, stage, wave, ud, count, vid, iid) in cases {
        let c = radv(name);
        assert_eq!(c.form, Form::RadvDirectory, "{name}");
        assert_eq!(c.name, name);
        assert_eq!(c.target(), Target::Gfx1030, "{name}");
        assert_eq!(c.stage(), stage, "{name}");
        assert_eq!(c.wave_size(), wave, "{name}");
        let abi = c.abi();
        assert_eq!(abi.user_data_sgpr, ud, "{name}");
        assert_eq!(abi.user_data_count, count, "{name}");
        assert_eq!(abi.vertex_id_vgpr, vid, "{name}");
        assert_eq!(abi.instance_id_vgpr, iid, "{name}");
        assert_eq!(c.meta.user_data, None, "{name}");
        assert!(c.notes.is_empty(), "{name}: {:?}", c.notes);
    }
    let ngg = radv("cube").abi();
    assert_eq!(ngg.merged_wave_info_sgpr, Some(3));
    assert_eq!(ngg.gs_tg_info_sgpr, Some(2));
    assert_eq!(radv("cube-legacy-vs").abi().merged_wave_info_sgpr, None);
}

#[test]
fn bundled_corpus_lists_all_thirteen_entries_in_name_order() {
    let all = bundled().unwrap();
    let names: Vec<&str> = all.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "compute",
            "compute-w32",
            "cube",
            "cube-legacy-vs",
            "cube-nggc",
            "cube-nggc-w32",
            "cube-w32",
            "fragment-color",
            "instanced",
            "instanced-legacy-vs",
            "instanced-nggc",
            "instanced-nggc-w32",
            "instanced-w32",
        ]
    );
    for c in &all {
        assert_eq!(c.code.len() % 4, 0, "{}", c.name);
        assert_eq!(
            c.code[c.code.len() - 4..],
            S_ENDPGM,
            "{} ends in s_endpgm",
            c.name
        );
    }
}

#[test]
fn elf_form_round_trips_code_and_metadata() {
    for c in [small_capture(), radv("cube-legacy-vs"), radv("compute-w32")] {
        let bytes = c.to_elf().unwrap();
        let back = Capture::from_file_bytes("x.elf", bytes, &CaptureOptions::default()).unwrap();
        assert_eq!(back.form, Form::Elf);
        assert_eq!(back.code, c.code, "{}", c.name);
        assert_eq!(back.meta, c.meta, "{}", c.name);
        assert_eq!(back.name, "x");
    }
}

#[test]
fn elf_form_header_is_amdgpu_elf64_with_the_targets_mach() {
    for (target, mach) in [
        (Target::Gfx1010, 0x33u32),
        (Target::Gfx1013, 0x42),
        (Target::Gfx1030, 0x36),
    ] {
        let mut c = small_capture();
        c.meta.target = target;
        let b = c.to_elf().unwrap();
        assert_eq!(&b[..4], b"\x7fELF");
        assert_eq!(b[4], 2, "ELFCLASS64");
        assert_eq!(b[5], 1, "little-endian");
        assert_eq!(b[7], 64, "OS/ABI AMDGPU HSA");
        assert_eq!(u16::from_le_bytes([b[18], b[19]]), 224, "EM_AMDGPU");
        assert_eq!(u32::from_le_bytes([b[48], b[49], b[50], b[51]]), mach);
    }
}

#[test]
fn llvm_objdump_disassembles_the_elf_form() {
    let Some(objdump) = tool("objdump") else {
        return;
    };
    let c = radv("cube");
    let path = scratch("objdump").join("cube.elf");
    c.write_elf(&path).unwrap();
    let out = Command::new(objdump)
        .args(["-d", "--mcpu=gfx1030"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("file format elf64-amdgpu"), "{text}");
    // The mnemonics objdump sees are those llvm-mc saw for code.bin.
    let mnemonics = |s: &str, skip: &str| -> Vec<String> {
        s.lines()
            .filter(|l| l.starts_with('\t') && !l.trim().starts_with('.') && !l.contains(skip))
            .filter_map(|l| l.split_whitespace().next().map(str::to_string))
            .collect()
    };
    let want_text = fs::read_to_string(bundled_root().join("cube/llvm19_disasm.txt")).unwrap();
    let want = mnemonics(&want_text, "\u{0}");
    let got = mnemonics(&text, "\u{0}");
    assert_eq!(got, want);
    assert_eq!(got.len(), 56, "cube has 56 instructions");
}

#[test]
fn code_objects_from_llvm_mc_take_their_target_from_e_flags() {
    let Some(mc) = tool("mc") else { return };
    let dir = scratch("code_object");
    let src = dir.join("a.s");
    fs::write(&src, "s_nop 0\ns_endpgm\n").unwrap();
    for target in Target::ALL {
        let obj = dir.join(format!("{target}.o"));
        let st = Command::new(mc)
            .args(["-triple=amdgcn-amd-amdhsa", "-filetype=obj"])
            .arg(format!("-mcpu={target}"))
            .arg(&src)
            .arg("-o")
            .arg(&obj)
            .status()
            .unwrap();
        assert!(st.success());
        let c = open(&obj).unwrap();
        assert_eq!(c.form, Form::CodeObject);
        assert_eq!(c.target(), target);
        assert_eq!(c.stage(), Stage::Ngg);
        assert_eq!(c.abi(), Abi::ngg());
        assert_eq!(c.code, [S_NOP_0, S_ENDPGM].concat());
        let opts = CaptureOptions {
            stage: Some(Stage::LegacyVs),
            wave_size: Some(WaveSize::W32),
            ..Default::default()
        };
        let c = Capture::open(&obj, &opts).unwrap();
        assert_eq!(c.abi(), Abi::legacy_vs());
        assert_eq!(c.wave_size(), WaveSize::W32);
    }
}

/// `bytes` with every occurrence of `from` replaced by `to` (same length).
fn patch(mut bytes: Vec<u8>, from: &[u8], to: &[u8]) -> Vec<u8> {
    assert_eq!(from.len(), to.len());
    let at = bytes
        .windows(from.len())
        .position(|w| w == from)
        .expect("pattern present");
    bytes[at..at + to.len()].copy_from_slice(to);
    bytes
}

fn set_e_flags(mut bytes: Vec<u8>, flags: u32) -> Vec<u8> {
    bytes[48..52].copy_from_slice(&flags.to_le_bytes());
    bytes
}

#[test]
fn code_object_of_an_unsupported_gpu_needs_an_explicit_target() {
    let elf = small_capture().to_elf().unwrap();
    // No metadata section any more: a plain code object, for gfx1031.
    let elf = patch(elf, b".shaderlift.meta", b".shaderlift.xxxx");
    let elf = set_e_flags(elf, 0x37);
    let e = Capture::from_file_bytes("g.o", elf.clone(), &CaptureOptions::default()).unwrap_err();
    let msg = e.to_string();
    assert!(
        matches!(e, CaptureError::UnsupportedMach { mach: 0x37, .. }),
        "{msg}"
    );
    assert!(
        msg.contains("g.o") && msg.contains("0x37 (gfx1031)"),
        "{msg}"
    );
    let opts = CaptureOptions {
        target: Some(Target::Gfx1030),
        ..Default::default()
    };
    let c = Capture::from_file_bytes("g.o", elf, &opts).unwrap();
    assert_eq!(c.target(), Target::Gfx1030);
}

#[test]
fn elf_capture_whose_header_and_metadata_disagree_is_refused() {
    let elf = set_e_flags(small_capture().to_elf().unwrap(), 0x33);
    let e = Capture::from_file_bytes("m.elf", elf, &CaptureOptions::default()).unwrap_err();
    assert!(matches!(e, CaptureError::Inconsistent { .. }), "{e}");
    assert!(
        e.to_string().contains("gfx1010") && e.to_string().contains("gfx1030"),
        "{e}"
    );
}

#[test]
fn bad_json_in_the_elf_metadata_names_line_and_column() {
    let elf = small_capture().to_elf().unwrap();
    // The pretty JSON's second line is `  "version": 1,`: break its colon.
    let elf = patch(elf, b"\"version\": 1", b"\"version\"! 1");
    let e = Capture::from_file_bytes("j.elf", elf, &CaptureOptions::default()).unwrap_err();
    match &e {
        CaptureError::Json {
            where_,
            line,
            column,
            ..
        } => {
            assert_eq!(where_, "section .shaderlift.meta");
            assert_eq!((*line, *column), (2, 12));
        }
        other => panic!("{other}"),
    }
    assert!(
        e.to_string()
            .starts_with("j.elf: section .shaderlift.meta: line 2, column 12: "),
        "{e}"
    );
}

#[test]
fn truncated_and_corrupted_elf_files_are_errors_never_panics() {
    let good = small_capture().to_elf().unwrap();
    let opts = CaptureOptions::default();
    // Every prefix of a good file.
    for n in 0..good.len() {
        let r = Capture::from_file_bytes("t.elf", good[..n].to_vec(), &opts);
        match r {
            Err(_) => {}
            // The metadata JSON is the last thing before the section
            // headers: no prefix can hold them all.
            Ok(c) => panic!("prefix of {n} bytes loaded: {c:?}"),
        }
    }
    // Seeded single-byte corruptions: any outcome but a panic.
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..4000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let mut bad = good.clone();
        let at = (state % bad.len() as u64) as usize;
        bad[at] ^= (state >> 32) as u8 | 1;
        let _ = Capture::from_file_bytes("c.elf", bad, &opts);
    }
}

#[test]
fn garbage_inputs_get_errors_that_say_what_is_wrong() {
    let opts = CaptureOptions::default();
    let mut elf32 = small_capture().to_elf().unwrap();
    elf32[4] = 1;
    let mut big = small_capture().to_elf().unwrap();
    big[5] = 2;
    let x86 = {
        let mut b = small_capture().to_elf().unwrap();
        b[18..20].copy_from_slice(&62u16.to_le_bytes());
        b
    };
    let no_text = patch(small_capture().to_elf().unwrap(), b".text\0", b".txet\0");
    let mut header_only = vec![0u8; 64];
    header_only[..4].copy_from_slice(b"\x7fELF");
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("empty", vec![], "the shader code is empty"),
        (
            "magic only",
            b"\x7fELF".to_vec(),
            "shorter than the 64-byte ELF64 header",
        ),
        ("zero class", header_only, "offset 0x4: unknown ELF class"),
        ("elf32", elf32, "ELF32 file"),
        ("big endian", big, "big-endian"),
        ("x86-64", x86, "e_machine is 62, expected EM_AMDGPU (224)"),
        ("no .text", no_text, "no .text section"),
        (
            "text file",
            b"hello world".to_vec(),
            "first bytes 68 65 6c 6c 6f 20 77 6f",
        ),
    ];
    for (what, bytes, want) in cases {
        let e = Capture::from_file_bytes("g.elf", bytes, &opts).unwrap_err();
        let msg = e.to_string();
        assert!(msg.starts_with("g.elf: "), "{what}: {msg}");
        assert!(msg.contains(want), "{what}: `{msg}` lacks `{want}`");
    }
}

#[test]
fn raw_code_uses_the_options_and_notes_a_partial_dword() {
    let dir = scratch("raw");
    let p = dir.join("shader.bin");
    fs::write(&p, [S_ENDPGM.as_slice(), &[1, 2]].concat()).unwrap();
    let c = open(&p).unwrap();
    assert_eq!(c.form, Form::Raw);
    assert_eq!(c.name, "shader");
    assert_eq!(
        c.meta,
        Meta::new(Target::Gfx1030, Stage::Ngg, WaveSize::W64)
    );
    assert_eq!(c.notes, [Note::UnalignedLength { len: 6 }]);
    assert!(c.notes[0].to_string().contains("last 2 byte(s)"));

    // Without `.bin` and without --raw, non-ELF bytes are refused...
    let q = dir.join("shader.dat");
    fs::write(&q, S_ENDPGM).unwrap();
    assert!(matches!(open(&q), Err(CaptureError::Unrecognised { .. })));
    // ...and accepted with it.
    let opts = CaptureOptions {
        raw: true,
        target: Some(Target::Gfx1013),
        stage: Some(Stage::Cs),
        ..Default::default()
    };
    let c = Capture::open(&q, &opts).unwrap();
    assert_eq!((c.target(), c.stage()), (Target::Gfx1013, Stage::Cs));
    assert_eq!(c.abi(), corpus::default_abi(Stage::Cs));

    let empty = dir.join("empty.bin");
    fs::write(&empty, []).unwrap();
    let e = open(&empty).unwrap_err();
    assert!(
        e.to_string()
            .contains("empty.bin: the shader code is empty"),
        "{e}"
    );
}

#[test]
fn options_override_recorded_metadata_with_a_note() {
    let opts = CaptureOptions {
        stage: Some(Stage::LegacyVs),
        vertex_id_vgpr: Some(7),
        ..Default::default()
    };
    let c = Capture::open(bundled_root().join("cube"), &opts).unwrap();
    assert_eq!(c.stage(), Stage::LegacyVs);
    let mut want = Abi::legacy_vs();
    want.vertex_id_vgpr = Some(7);
    assert_eq!(c.abi(), want);
    let whats: Vec<&str> = c
        .notes
        .iter()
        .map(|n| match n {
            Note::Overridden { what, .. } => *what,
            other => panic!("{other}"),
        })
        .collect();
    assert_eq!(whats, ["stage", "abi", "abi registers"]);
}

#[test]
fn capture_directories_report_missing_and_broken_files() {
    let root = scratch("dirs");
    let code = [S_NOP_0, S_ENDPGM].concat();
    let meta = small_capture().meta.to_json();

    let ok = root.join("ok");
    fs::create_dir(&ok).unwrap();
    fs::write(ok.join("code.bin"), &code).unwrap();
    fs::write(ok.join("meta.json"), &meta).unwrap();
    let c = open(&ok).unwrap();
    assert_eq!(c.form, Form::Directory);
    assert_eq!(c.meta, small_capture().meta);

    let no_code = root.join("no-code");
    fs::create_dir(&no_code).unwrap();
    fs::write(no_code.join("meta.json"), &meta).unwrap();
    let e = open(&no_code).unwrap_err();
    assert!(
        e.to_string()
            .ends_with("no-code: capture directory has no code.bin"),
        "{e}"
    );

    let no_meta = root.join("no-meta");
    fs::create_dir(&no_meta).unwrap();
    fs::write(no_meta.join("code.bin"), &code).unwrap();
    let e = open(&no_meta).unwrap_err();
    assert!(
        e.to_string()
            .ends_with("no-meta: capture directory has no meta.json"),
        "{e}"
    );

    let empty = root.join("empty");
    fs::create_dir(&empty).unwrap();
    fs::write(empty.join("code.bin"), []).unwrap();
    fs::write(empty.join("meta.json"), &meta).unwrap();
    let e = open(&empty).unwrap_err();
    assert!(
        e.to_string()
            .contains("empty/code.bin: the shader code is empty"),
        "{e}"
    );

    let bad = root.join("bad-json");
    fs::create_dir(&bad).unwrap();
    fs::write(bad.join("code.bin"), &code).unwrap();
    fs::write(
        bad.join("meta.json"),
        "{\n  \"target\": \"gfx1030\",\n  \"stage\": ngg\n}",
    )
    .unwrap();
    let e = open(&bad).unwrap_err();
    assert!(
        matches!(
            e,
            CaptureError::Json {
                line: 3,
                column: 13,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(
        e.to_string()
            .contains("bad-json/meta.json: line 3, column 13: expected ident"),
        "{e}"
    );

    let future = root.join("future");
    fs::create_dir(&future).unwrap();
    fs::write(future.join("code.bin"), &code).unwrap();
    fs::write(
        future.join("meta.json"),
        meta.replace("\"version\": 1", "\"version\": 9"),
    )
    .unwrap();
    let e = open(&future).unwrap_err();
    assert!(
        e.to_string()
            .contains("field `version`: version 9 is not supported"),
        "{e}"
    );

    let radv_bad = root.join("radv-bad");
    fs::create_dir(&radv_bad).unwrap();
    fs::write(radv_bad.join("code.bin"), &code).unwrap();
    let radv_meta = fs::read_to_string(bundled_root().join("cube/meta.json")).unwrap();
    fs::write(
        radv_bad.join("meta.json"),
        radv_meta.replace("\"vertex_ngg\"", "\"tess_eval_ngg\""),
    )
    .unwrap();
    let e = open(&radv_bad).unwrap_err();
    assert!(
        e.to_string()
            .contains("field `aco_stage`: `tess_eval_ngg` is not a supported stage"),
        "{e}"
    );
    // The RADV meta records 280 code bytes; this code.bin has 8.
    fs::write(radv_bad.join("meta.json"), &radv_meta).unwrap();
    let c = open(&radv_bad).unwrap();
    assert_eq!(
        c.notes,
        [Note::LengthMismatch {
            recorded: 280,
            actual: 8
        }]
    );

    let e = open(&root.join("nonexistent")).unwrap_err();
    assert!(matches!(e, CaptureError::Io { .. }), "{e}");
    assert!(e.to_string().contains("nonexistent: cannot read"), "{e}");
}

#[test]
fn find_captures_walks_every_form_in_name_order() {
    let root = scratch("walk");
    let dir = root.join("b-dir");
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("code.bin"), S_ENDPGM).unwrap();
    fs::write(dir.join("meta.json"), small_capture().meta.to_json()).unwrap();
    fs::write(dir.join("code_full.bin"), S_ENDPGM).unwrap(); // inside a capture: not separate
    fs::create_dir_all(root.join("a-sub/deeper")).unwrap();
    small_capture()
        .write_elf(root.join("a-sub/deeper/shader.capture"))
        .unwrap();
    fs::write(root.join("a-sub/raw.bin"), S_ENDPGM).unwrap();
    fs::write(root.join("a-sub/notes.txt"), "not a capture").unwrap();
    fs::create_dir_all(root.join(".hidden")).unwrap();
    fs::write(root.join(".hidden/x.bin"), S_ENDPGM).unwrap();
    fs::write(root.join("c.bin"), S_ENDPGM).unwrap();

    let found = find_captures(&root).unwrap();
    let rel: Vec<String> = found
        .iter()
        .map(|p| {
            p.strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    assert_eq!(
        rel,
        [
            "a-sub/deeper/shader.capture",
            "a-sub/raw.bin",
            "b-dir",
            "c.bin"
        ]
    );
    let forms: Vec<Form> = found.iter().map(|p| open(p).unwrap().form).collect();
    assert_eq!(forms, [Form::Elf, Form::Raw, Form::Directory, Form::Raw]);

    assert_eq!(find_captures(&dir).unwrap(), vec![dir]);
}
