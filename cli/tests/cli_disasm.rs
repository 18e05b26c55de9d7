//! `shaderlift disasm`, run as a process: listings, exit codes and messages.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const S_ENDPGM: u32 = 0xbf81_0000;
const S_NOP_0: u32 = 0xbf80_0000;
/// `s_bfe_u32 s0, s3, 0x40018`: SOP2 with a literal (8 bytes).
const S_BFE_LIT: [u32; 2] = [0x9380_ff03, 0x0004_0018];

fn shaderlift(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shaderlift"))
        .args(args)
        .current_dir(repo_root())
        .output()
        .expect("run shaderlift")
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn radv_dir() -> PathBuf {
    repo_root().join("corpus/radv")
}

fn scratch_file(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_disasm");
    fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    fs::write(&p, bytes).unwrap();
    p
}

fn words(ws: &[u32]) -> Vec<u8> {
    ws.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 stdout")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exited normally")
}

/// The text of `llvm19_disasm.txt` (llvm-mc output): one instruction per
/// line without the leading tab and the `; encoding:` comment.
fn llvm_lines(entry: &str) -> Vec<String> {
    let text = fs::read_to_string(radv_dir().join(entry).join("llvm19_disasm.txt")).unwrap();
    text.lines()
        .filter(|l| l.starts_with('\t') && l.trim() != ".text")
        .map(|l| {
            let l = l.trim_start_matches('\t');
            let l = match l.find("; encoding:") {
                Some(i) => &l[..i],
                None => l,
            };
            l.trim_end().to_string()
        })
        .collect()
}

fn radv_entries() -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(radv_dir())
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.path().join("code.bin").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn assert_listings_equal_llvm19(entries: &[String]) {
    assert!(!entries.is_empty());
    for entry in entries {
        let path = radv_dir().join(entry);
        let o = shaderlift(&["disasm", path.to_str().unwrap()]);
        assert_eq!(code(&o), 0, "{entry}: {}", stderr(&o));
        let got: Vec<String> = stdout(&o).lines().map(str::to_string).collect();
        let want = llvm_lines(entry);
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(g, w, "{entry}: instruction {i}");
        }
        assert_eq!(got.len(), want.len(), "{entry}: instruction count");
    }
}

#[test]
fn radv_listings_without_culling_equal_llvm19_disasm() {
    let entries: Vec<String> = radv_entries()
        .into_iter()
        .filter(|e| !e.contains("nggc"))
        .collect();
    assert_eq!(entries.len(), 9);
    assert_listings_equal_llvm19(&entries);
}

#[test]
fn radv_culling_listings_equal_llvm19_disasm() {
    let entries: Vec<String> = radv_entries()
        .into_iter()
        .filter(|e| e.contains("nggc"))
        .collect();
    assert_eq!(entries.len(), 4);
    assert_listings_equal_llvm19(&entries);
}

/// `llvm19_disasm.txt` as (byte offset, text) pairs, offsets summed from
/// the encodings.
fn llvm_at_offsets(entry: &str) -> Vec<(u64, String)> {
    let text = fs::read_to_string(radv_dir().join(entry).join("llvm19_disasm.txt")).unwrap();
    let mut pc = 0u64;
    let mut out = Vec::new();
    for l in text
        .lines()
        .filter(|l| l.starts_with('\t') && l.trim() != ".text")
    {
        let (inst, enc) = l.split_once("; encoding: [").expect("encoding comment");
        out.push((pc, inst.trim().to_string()));
        pc += enc.trim_end_matches(']').split(',').count() as u64;
    }
    out
}

#[test]
fn decoded_radv_instructions_print_as_llvm19_does() {
    // Every instruction the decoder accepts at one of LLVM's instruction
    // offsets must print exactly as llvm-mc-19 did. (Offsets where decoding
    // failed are covered by the full-listing tests once every family has
    // landed.) Wave64 entries print lane masks as register pairs, as
    // llvm-mc-19 did for them.
    let mut compared = 0;
    for entry in radv_entries() {
        let path = radv_dir().join(&entry);
        let o = shaderlift(&["disasm", "--json", path.to_str().unwrap()]);
        assert_eq!(code(&o), 0, "{entry}: {}", stderr(&o));
        let want: std::collections::HashMap<u64, String> =
            llvm_at_offsets(&entry).into_iter().collect();
        for line in stdout(&o).lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            if v.get("error").is_some() {
                continue;
            }
            let pc = v["pc"].as_u64().unwrap();
            if let Some(w) = want.get(&pc) {
                assert_eq!(v["text"].as_str().unwrap(), w, "{entry} at offset {pc:#x}");
                compared += 1;
            }
        }
    }
    assert!(compared >= 800, "only {compared} instructions compared");
}

#[test]
fn every_radv_entry_lists_to_s_endpgm_with_exit_0() {
    for entry in radv_entries() {
        let path = radv_dir().join(&entry);
        let o = shaderlift(&["disasm", path.to_str().unwrap()]);
        assert_eq!(code(&o), 0, "{entry}: {}", stderr(&o));
        assert_eq!(stderr(&o), "", "{entry}");
        let text = stdout(&o);
        assert_eq!(text.lines().last(), Some("s_endpgm"), "{entry}");
        // Never fewer lines than LLVM's instructions: undecoded
        // multi-dword instructions print one `.long` per dword.
        assert!(text.lines().count() >= llvm_lines(&entry).len(), "{entry}");
    }
}

#[test]
fn relative_path_from_the_repo_root_works() {
    let o = shaderlift(&["disasm", "corpus/radv/cube"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().next(), Some("s_setprio 3"));
}

#[test]
fn empty_file_exits_1_naming_the_file() {
    let p = scratch_file("empty.bin", &[]);
    let o = shaderlift(&["disasm", p.to_str().unwrap()]);
    assert_eq!(code(&o), 1);
    assert_eq!(stdout(&o), "");
    let err = stderr(&o);
    assert!(
        err.contains("empty.bin: the shader code is empty (0 bytes)"),
        "{err}"
    );
}

#[test]
fn nonexistent_file_exits_1_naming_the_file() {
    let o = shaderlift(&["disasm", "no/such/capture.bin"]);
    assert_eq!(code(&o), 1);
    assert_eq!(stdout(&o), "");
    let err = stderr(&o);
    assert!(err.contains("no/such/capture.bin: cannot read"), "{err}");
}

#[test]
fn three_byte_file_lists_a_byte_line_then_exits_1() {
    let p = scratch_file("three.bin", &[0x01, 0x02, 0x03]);
    let o = shaderlift(&["disasm", p.to_str().unwrap()]);
    assert_eq!(stdout(&o), ".byte 0x01, 0x02, 0x03\n");
    assert_eq!(code(&o), 1);
    let err = stderr(&o);
    assert!(
        err.contains("note: ") && err.contains("code length 3 is not a multiple of 4"),
        "{err}"
    );
    assert!(
        err.contains(
            "three.bin: the code ends inside an instruction: offset 0x0: bytes 01 02 03: \
             truncated instruction: 4 bytes needed, 3 available"
        ),
        "{err}"
    );
}

#[test]
fn file_cut_inside_a_64_bit_instruction_lists_then_exits_1() {
    // Cut after the first dword of s_bfe_u32's literal form.
    let p = scratch_file("cut8.bin", &words(&[S_NOP_0, S_BFE_LIT[0]]));
    let o = shaderlift(&["disasm", p.to_str().unwrap()]);
    assert_eq!(stdout(&o), "s_nop 0\n.long 0x9380ff03\n");
    assert_eq!(code(&o), 1);
    let err = stderr(&o);
    assert!(
        err.contains(
            "cut8.bin: the code ends inside an instruction: offset 0x4: dwords 0x9380ff03: \
             truncated instruction: 8 bytes needed, 4 available"
        ),
        "{err}"
    );

    // Cut inside the literal dword: the partial dword prints as `.byte`.
    let mut b = words(&[S_NOP_0, S_BFE_LIT[0], S_BFE_LIT[1]]);
    b.truncate(10);
    let p = scratch_file("cut10.bin", &b);
    let o = shaderlift(&["disasm", p.to_str().unwrap()]);
    assert_eq!(stdout(&o), "s_nop 0\n.long 0x9380ff03\n.byte 0x18, 0x00\n");
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("offset 0x4: "), "{}", stderr(&o));
}

#[test]
fn undecodable_dword_prints_as_long_and_decoding_goes_on() {
    let p = scratch_file(
        "bad-word.bin",
        &words(&[0xffff_ffff, S_BFE_LIT[0], S_BFE_LIT[1], S_ENDPGM]),
    );
    let o = shaderlift(&["disasm", p.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        ".long 0xffffffff\ns_bfe_u32 s0, s3, 0x40018\ns_endpgm\n"
    );
    assert_eq!(stderr(&o), "");
}

/// xorshift64*: a fixed, seeded byte stream.
fn random_bytes(n: usize, mut seed: u64) -> Vec<u8> {
    let mut out = Vec::with_capacity(n + 8);
    while out.len() < n {
        seed ^= seed >> 12;
        seed ^= seed << 25;
        seed ^= seed >> 27;
        out.extend_from_slice(&seed.wrapping_mul(0x2545_f491_4f6c_dd1d).to_le_bytes());
    }
    out.truncate(n);
    out
}

#[test]
fn random_megabyte_lists_without_panicking() {
    // 1 MiB of random bytes, then five s_endpgm dwords: no instruction is
    // longer than 20 bytes, so nothing runs off the end and the exit code
    // must be 0.
    let mut b = random_bytes(1 << 20, 0x5eed_0001);
    b.extend(words(&[S_ENDPGM; 5]));
    let p = scratch_file("random.bin", &b);
    let o = shaderlift(&["disasm", p.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    let lines = text.lines().count();
    assert!(lines >= (1 << 20) / 20, "{lines} lines");
    assert!(lines <= (1 << 20) / 4 + 5, "{lines} lines");
    assert_eq!(text.lines().last(), Some("s_endpgm"));

    // The same bytes as JSON: every line is a JSON object with a pc.
    let o = shaderlift(&["disasm", "--json", p.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let mut n = 0;
    for line in stdout(&o).lines() {
        let v: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        assert!(v["pc"].is_u64(), "{line}");
        n += 1;
    }
    assert_eq!(n, lines);
}

#[test]
fn random_files_of_every_small_length_never_panic() {
    // Lengths 1..=64 of random bytes: the tail may cut an instruction
    // (exit 1) or not (exit 0), but never a panic (exit 101).
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_disasm");
    fs::create_dir_all(&dir).unwrap();
    for len in 1..=64 {
        let b = random_bytes(len, 0xabc0 + len as u64);
        let p = scratch_file(&format!("small-{len}.bin"), &b);
        let o = shaderlift(&["disasm", p.to_str().unwrap()]);
        let c = code(&o);
        assert!(c == 0 || c == 1, "length {len}: exit {c}: {}", stderr(&o));
        assert_eq!(
            c == 1,
            stderr(&o).contains("ends inside an instruction"),
            "length {len}"
        );
    }
}

#[test]
fn elf_capture_lists_like_the_directory_it_was_made_from() {
    let cube = corpus::Capture::open(radv_dir().join("cube"), &Default::default()).unwrap();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_disasm");
    fs::create_dir_all(&dir).unwrap();
    let elf = dir.join("cube.elf");
    cube.write_elf(&elf).unwrap();
    let from_dir = shaderlift(&["disasm", "corpus/radv/cube"]);
    let from_elf = shaderlift(&["disasm", elf.to_str().unwrap()]);
    assert_eq!(code(&from_elf), 0, "{}", stderr(&from_elf));
    assert_eq!(stdout(&from_elf), stdout(&from_dir));

    // A file that is neither ELF nor `.bin` needs --raw.
    let p = scratch_file("code.raw", &words(&[S_NOP_0, S_ENDPGM]));
    let o = shaderlift(&["disasm", p.to_str().unwrap()]);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("not a recognised capture"),
        "{}",
        stderr(&o)
    );
    let o = shaderlift(&["disasm", "--raw", p.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o), "s_nop 0\ns_endpgm\n");
}

#[test]
fn bad_flags_are_usage_errors_with_exit_2() {
    for args in [
        &["disasm", "corpus/radv/cube", "--abi", "hull"][..],
        &["disasm", "corpus/radv/cube", "--wave", "48"],
        &["disasm", "corpus/radv/cube", "--target", "gfx900"],
        &["disasm", "corpus/radv/cube", "--stage", "gs"],
        &["disasm", "corpus/radv/cube", "--user-data-sgpr", "v3"],
        &["disasm"],
        &["no-such-subcommand"],
    ] {
        let o = shaderlift(args);
        assert_eq!(code(&o), 2, "{args:?}: {}", stderr(&o));
        assert_eq!(stdout(&o), "", "{args:?}");
    }
}

#[test]
fn json_lists_operands_with_their_roles() {
    let p = scratch_file(
        "json.bin",
        &words(&[S_BFE_LIT[0], S_BFE_LIT[1], 0xffff_ffff]),
    );
    let o = shaderlift(&["disasm", "--json", p.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    let i = &lines[0];
    assert_eq!(i["pc"], 0);
    assert_eq!(i["bytes"], "03ff809318000400");
    assert_eq!(i["text"], "s_bfe_u32 s0, s3, 0x40018");
    assert_eq!(i["family"], "sop2");
    assert_eq!(i["opcode"], "s_bfe_u32");
    let ops = i["operands"].as_array().unwrap();
    assert_eq!(ops.len(), 3);
    assert_eq!(ops[0]["kind"], "reg");
    assert_eq!(ops[0]["file"], "sgpr");
    assert_eq!(ops[0]["index"], 0);
    assert_eq!(ops[0]["access"], "write");
    assert_eq!(ops[1]["text"], "s3");
    assert_eq!(ops[1]["access"], "read");
    assert_eq!(ops[2]["kind"], "literal");
    assert_eq!(ops[2]["value"], 0x40018);
    let bad = &lines[1];
    assert_eq!(bad["pc"], 8);
    assert_eq!(bad["bytes"], "ffffffff");
    assert_eq!(bad["text"], ".long 0xffffffff");
    assert_eq!(bad["error"], "no encoding family matches");
    assert!(bad.get("operands").is_none());
}

/// Scalar code from `corpus/radv/cube`, an undecodable dword, and the end.
fn mixed_program() -> Vec<u8> {
    words(&[
        0xbf8f_0003, // s_setprio 3
        S_BFE_LIT[0],
        S_BFE_LIT[1],
        0x8f01_8c01, // s_lshl_b32 s1, s1, 12
        0xbe80_0309, // s_mov_b32 s0, s9
        0xbf0d_8602, // s_bitcmp1_b32 s2, 6
        0x85fe_00c1, // s_cselect_b64 exec, -1, s[0:1]
        0xffff_ffff, // no family
        S_ENDPGM,
    ])
}

#[test]
fn mixed_program_listing_snapshot() {
    let p = scratch_file("mixed.bin", &mixed_program());
    let o = shaderlift(&["disasm", p.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    insta::assert_snapshot!(stdout(&o));
}

#[test]
fn mixed_program_json_snapshot() {
    let p = scratch_file("mixed-json.bin", &mixed_program());
    let o = shaderlift(&["disasm", "--json", p.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    insta::assert_snapshot!(stdout(&o));
}

/// A reader handing out at most `step` bytes per call, as a pipe may.
struct Trickle<'a> {
    rest: &'a [u8],
    step: usize,
}

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.step.min(buf.len()).min(self.rest.len());
        buf[..n].copy_from_slice(&self.rest[..n]);
        self.rest = &self.rest[n..];
        Ok(n)
    }
}

#[test]
fn raw_code_read_in_pieces_lists_as_the_whole_code() {
    use shaderlift_cli::disasm::{write_listing, write_listing_read, Style};
    // Random bytes: instructions of every length straddle the piece
    // boundaries, undecodable dwords and (for odd lengths) a cut end.
    for (len, seed) in [(2 * 65_536 + 18, 1), (65_536 + 3, 2), ((1 << 18) + 1, 3)] {
        let b = random_bytes(len, 0x9_1ece + seed);
        for wave64 in [false, true] {
            let mode =
                isa::Mode::with_wave_size(isa::Target::Gfx1030, if wave64 { 64 } else { 32 });
            for style in [Style::Text, Style::Json] {
                let mut whole = Vec::new();
                let listed = write_listing(&b, mode, style, &mut whole).unwrap();
                for (head, step) in [(65_536, 65_536), (4, 7), (65_536, 1000)] {
                    let mut got = Vec::new();
                    let rest = Trickle {
                        rest: &b[head..],
                        step,
                    };
                    let l = write_listing_read(b[..head].to_vec(), rest, mode, style, &mut got)
                        .unwrap_or_else(|e| panic!("{e:?}"));
                    assert!(got == whole, "length {len}, head {head}, step {step}");
                    assert_eq!(l, listed, "length {len}, head {head}, step {step}");
                }
            }
        }
        // The command reads a raw file in pieces: the same listing, and
        // the cut end's message and exit code.
        let p = scratch_file(&format!("pieces-{seed}.bin"), &b);
        let o = shaderlift(&["disasm", "--wave", "32", p.to_str().unwrap()]);
        let mut whole = Vec::new();
        let mode = isa::Mode::wave32(isa::Target::Gfx1030);
        let listed = write_listing(&b, mode, Style::Text, &mut whole).unwrap();
        assert!(o.stdout == whole, "length {len}");
        assert_eq!(code(&o) == 1, listed.truncated.is_some(), "length {len}");
        if let Some(e) = listed.truncated {
            assert!(
                stderr(&o).contains(&format!("offset {:#x}", e.offset)),
                "{}",
                stderr(&o)
            );
        }
    }
}
