//! LLVM 19 as a decoding oracle.
//!
//! The oracle disassembles many independent *regions* in one process run.
//! Each region is a byte string; LLVM decodes the first instruction at the
//! start of the region, exactly as it would at the start of a code blob.
//! Regions are emitted as separately labelled byte runs, and `llvm-objdump`
//! restarts decoding at every symbol, so regions do not influence each
//! other (the decoder may read past a region's end into the next one, so
//! callers pad every region to at least 20 bytes; see [`PAD_DWORD`]).
//!
//! The first line of each region's listing is taken as the oracle's answer:
//! the printed text (without the address/encoding comment) and the number
//! of bytes LLVM consumed. An undecodable dword prints as `.long 0x...`.
//!
//! When `llvm-objdump` crashes (LLVM 19 aborts on some SDWA words), the
//! batch is bisected and the crashing regions are reported as
//! [`Answer::Crash`].

#![forbid(unsafe_code)]

use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The dword used to pad regions: `s_nop 0`.
pub const PAD_DWORD: u32 = 0xbf80_0000;
/// Minimum region length the callers should provide.
pub const MIN_REGION: usize = 20;

/// Errors from running the LLVM tools.
#[derive(Debug, thiserror::Error)]
pub enum OracleError {
    /// A tool was not found.
    #[error("{0} not found (install llvm-19, or set LLVM_MC / LLVM_OBJDUMP)")]
    Missing(&'static str),
    /// Running a tool failed.
    #[error("running {tool}: {source}")]
    Io {
        /// Which tool.
        tool: String,
        /// The error.
        source: io::Error,
    },
    /// A tool exited unsuccessfully.
    #[error("{tool} failed: {stderr}")]
    Failed {
        /// Which tool.
        tool: String,
        /// Its stderr.
        stderr: String,
    },
    /// The output could not be matched to the regions.
    #[error("unexpected llvm-objdump output: {0}")]
    Parse(String),
}

/// The oracle's answer for one region.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// LLVM decoded `len` bytes and printed `text`. For an undecodable dword
    /// the text is `.long 0x...` and `len` is 4.
    Text {
        /// Bytes consumed.
        len: usize,
        /// The printed instruction, without address and encoding comment.
        text: String,
    },
    /// llvm-objdump crashed on this region.
    Crash,
}

/// Paths to the LLVM 19 tools and the target to decode for.
#[derive(Clone, Debug)]
pub struct Oracle {
    mc: PathBuf,
    objdump: PathBuf,
    mcpu: String,
    mattr: Option<String>,
}

fn find(env: &str, name: &'static str) -> Result<PathBuf, OracleError> {
    if let Some(p) = std::env::var_os(env) {
        return Ok(PathBuf::from(p));
    }
    for dir in ["/usr/bin", "/usr/lib/llvm-19/bin", "/usr/local/bin"] {
        let p = Path::new(dir).join(name);
        if p.exists() {
            return Ok(p);
        }
    }
    Err(OracleError::Missing(name))
}

static COUNTER: AtomicUsize = AtomicUsize::new(0);

impl Oracle {
    /// Locate `llvm-mc-19` and `llvm-objdump-19` for `mcpu`.
    pub fn new(mcpu: &str) -> Result<Oracle, OracleError> {
        Ok(Oracle {
            mc: find("LLVM_MC", "llvm-mc-19")?,
            objdump: find("LLVM_OBJDUMP", "llvm-objdump-19")?,
            mcpu: mcpu.to_string(),
            mattr: None,
        })
    }

    /// True when both tools are installed.
    pub fn available() -> bool {
        find("LLVM_MC", "llvm-mc-19").is_ok() && find("LLVM_OBJDUMP", "llvm-objdump-19").is_ok()
    }

    /// Decode with extra `-mattr` features (for example `+wavefrontsize64`).
    pub fn with_mattr(mut self, mattr: &str) -> Oracle {
        self.mattr = Some(mattr.to_string());
        self
    }

    /// The `-mcpu` this oracle decodes for.
    pub fn mcpu(&self) -> &str {
        &self.mcpu
    }

    /// Disassemble the first instruction of each region.
    pub fn first_of_regions(&self, regions: &[Vec<u8>]) -> Result<Vec<Answer>, OracleError> {
        let mut out = Vec::with_capacity(regions.len());
        for chunk in regions.chunks(50_000) {
            out.extend(self.batch(chunk)?);
        }
        Ok(out)
    }

    /// Disassemble a whole blob sequentially, as `llvm-objdump -d` does,
    /// returning `(offset, len, text)` per instruction.
    pub fn blob(&self, bytes: &[u8]) -> Result<Vec<(usize, usize, String)>, OracleError> {
        let dir = scratch_dir()?;
        let bin = dir.join("blob.bin");
        std::fs::write(&bin, bytes).map_err(io_err("write"))?;
        let src = format!(".text\n.incbin \"{}\"\n", bin.display());
        let listing = self.assemble_and_dump(&dir, &src)?;
        let _ = std::fs::remove_dir_all(&dir);
        let mut out = Vec::new();
        for line in listing.lines() {
            if let Some((text, addr, len)) = parse_insn_line(line) {
                out.push((addr, len, text));
            }
        }
        Ok(out)
    }

    fn batch(&self, regions: &[Vec<u8>]) -> Result<Vec<Answer>, OracleError> {
        match self.try_batch(regions) {
            Ok(mut v) => {
                // A branch whose target is exactly another region's label
                // prints that label (`s_branch r123`) instead of its offset:
                // decode such regions again alone, without labels.
                for (a, r) in v.iter_mut().zip(regions) {
                    if let Answer::Text { text, .. } = a {
                        if names_a_region(text) {
                            if let Some((_, len, t)) = self.blob(r)?.into_iter().next() {
                                *a = Answer::Text { len, text: t };
                            }
                        }
                    }
                }
                Ok(v)
            }
            Err(OracleError::Failed { .. }) if regions.len() == 1 => {
                Ok(vec![self.after_crash(&regions[0])?])
            }
            Err(OracleError::Failed { .. }) => {
                let mid = regions.len() / 2;
                let mut a = self.batch(&regions[..mid])?;
                a.extend(self.batch(&regions[mid..])?);
                Ok(a)
            }
            Err(e) => Err(e),
        }
    }

    /// llvm-objdump decodes every instruction of a region, and may crash on
    /// a later one than the first. Cut the region after 16, 12, ... 4 bytes
    /// and pad the cut twice, with `s_nop 0` and with `0xffffffff`: when both
    /// paddings decode the first instruction the same way and it fits inside
    /// the cut, that answer did not depend on the bytes cut off, so it is the
    /// first instruction's answer. An undecodable (`.long`) answer is never
    /// taken from a cut (LLVM may have rejected it for bytes the cut
    /// replaced). Otherwise the answer is [`Answer::Crash`].
    fn after_crash(&self, region: &[u8]) -> Result<Answer, OracleError> {
        let mut k = region.len().min(MIN_REGION) / 4 * 4;
        while k > 4 {
            k -= 4;
            let a = self.first_alone(pad_region_with(region[..k].to_vec(), PAD_DWORD))?;
            let b = self.first_alone(pad_region_with(region[..k].to_vec(), 0xffff_ffff))?;
            if let (Some(Answer::Text { len, text }), Some(other)) = (&a, &b) {
                if *len <= k && !text.starts_with(".long") && a.as_ref() == Some(other) {
                    return Ok(Answer::Text {
                        len: *len,
                        text: text.clone(),
                    });
                }
            }
        }
        Ok(Answer::Crash)
    }

    /// The first answer for one region, or `None` if llvm-objdump crashed.
    fn first_alone(&self, region: Vec<u8>) -> Result<Option<Answer>, OracleError> {
        match self.try_batch(std::slice::from_ref(&region)) {
            Ok(v) => Ok(v.into_iter().next()),
            Err(OracleError::Failed { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    fn try_batch(&self, regions: &[Vec<u8>]) -> Result<Vec<Answer>, OracleError> {
        let dir = scratch_dir()?;
        let mut src = String::with_capacity(regions.len() * 100);
        src.push_str(".text\n");
        for (i, r) in regions.iter().enumerate() {
            let _ = writeln!(src, "r{i}:");
            if r.is_empty() {
                continue;
            }
            src.push_str(".byte ");
            for (j, b) in r.iter().enumerate() {
                if j > 0 {
                    src.push(',');
                }
                let _ = write!(src, "0x{b:02x}");
            }
            src.push('\n');
        }
        let listing = self.assemble_and_dump(&dir, &src);
        let _ = std::fs::remove_dir_all(&dir);
        let listing = listing?;
        let mut answers: Vec<Option<Answer>> = vec![None; regions.len()];
        let mut current: Option<usize> = None;
        for line in listing.lines() {
            if let Some(rest) = line.strip_suffix(">:") {
                // "0000000000000000 <r12>:"
                let name = rest.rsplit('<').next().unwrap_or("");
                current = name.strip_prefix('r').and_then(|n| n.parse().ok());
                continue;
            }
            let Some(idx) = current else { continue };
            if idx >= answers.len() || answers[idx].is_some() {
                continue;
            }
            if let Some((text, _addr, len)) = parse_insn_line(line) {
                answers[idx] = Some(Answer::Text { len, text });
            }
        }
        answers
            .into_iter()
            .enumerate()
            .map(|(i, a)| a.ok_or_else(|| OracleError::Parse(format!("no listing for region {i}"))))
            .collect()
    }

    fn assemble_and_dump(&self, dir: &Path, src: &str) -> Result<String, OracleError> {
        let s = dir.join("in.s");
        let o = dir.join("in.o");
        std::fs::write(&s, src).map_err(io_err("write"))?;
        let mut mc = Command::new(&self.mc);
        mc.args(["-triple=amdgcn-amd-amdhsa", "-filetype=obj"])
            .arg(format!("-mcpu={}", self.mcpu))
            .arg(&s)
            .arg("-o")
            .arg(&o);
        run(mc, "llvm-mc-19")?;
        let mut od = Command::new(&self.objdump);
        od.args(["-d", "--no-show-raw-insn"])
            .arg(format!("--mcpu={}", self.mcpu));
        if let Some(m) = &self.mattr {
            od.arg(format!("--mattr={m}"));
        }
        od.arg(&o);
        run(od, "llvm-objdump-19")
    }
}

/// True when an operand of `text` is one of the oracle's region labels.
fn names_a_region(text: &str) -> bool {
    text.split([' ', ','])
        .skip(1)
        .any(|t| t.len() > 1 && t.starts_with('r') && t[1..].bytes().all(|b| b.is_ascii_digit()))
}

fn io_err(tool: &'static str) -> impl Fn(io::Error) -> OracleError {
    move |source| OracleError::Io {
        tool: tool.to_string(),
        source,
    }
}

fn run(mut cmd: Command, tool: &str) -> Result<String, OracleError> {
    let out = cmd.output().map_err(|source| OracleError::Io {
        tool: tool.to_string(),
        source,
    })?;
    if !out.status.success() {
        return Err(OracleError::Failed {
            tool: tool.to_string(),
            stderr: String::from_utf8_lossy(&out.stderr)
                .chars()
                .take(2000)
                .collect(),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn scratch_dir() -> Result<PathBuf, OracleError> {
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("llvm-oracle-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(io_err("mkdir"))?;
    Ok(dir)
}

/// Split one llvm-objdump instruction line into (text, address, length).
///
/// Lines look like `\ttext<spaces>// 00000000000C: BF810000 0000ABCD`, or
/// `\t.byte 0x00, 0x01 // 000000000014: 00 01` for a tail shorter than a
/// dword.
pub fn parse_insn_line(line: &str) -> Option<(String, usize, usize)> {
    let body = line.strip_prefix('\t')?;
    // Find the last "// " followed by 12 hex digits and ':'.
    let mut split = None;
    let bytes = body.as_bytes();
    let mut i = body.len();
    while let Some(pos) = body[..i].rfind("// ") {
        let after = &bytes[pos + 3..];
        if after.len() >= 13
            && after[..12].iter().all(|b| b.is_ascii_hexdigit())
            && after[12] == b':'
        {
            split = Some(pos);
            break;
        }
        i = pos;
    }
    let pos = split?;
    let text = body[..pos].trim_end().to_string();
    let comment = &body[pos + 3..];
    let addr = usize::from_str_radix(&comment[..12], 16).ok()?;
    let hex = comment[13..].trim();
    // Encoding words are space-separated groups: 8 hex digits for a dword,
    // 2 for a byte. Anything after '<' is a branch-target annotation.
    let hex = hex.split('<').next().unwrap_or("").trim();
    let mut len = 0;
    for g in hex.split_whitespace() {
        if !g.len().is_multiple_of(2) || !g.bytes().all(|b| b.is_ascii_hexdigit()) {
            break;
        }
        len += g.len() / 2;
    }
    Some((text, addr, len))
}

/// Pad a region with `s_nop 0` dwords to at least [`MIN_REGION`] bytes.
pub fn pad_region(bytes: Vec<u8>) -> Vec<u8> {
    pad_region_with(bytes, PAD_DWORD)
}

/// Pad a region with `dword` to at least [`MIN_REGION`] bytes.
pub fn pad_region_with(mut bytes: Vec<u8>, dword: u32) -> Vec<u8> {
    while bytes.len() < MIN_REGION || !bytes.len().is_multiple_of(4) {
        if !bytes.len().is_multiple_of(4) {
            bytes.push(0);
        } else {
            bytes.extend_from_slice(&dword.to_le_bytes());
        }
    }
    bytes
}

/// Parse a hex byte string such as `7e0002ff` (bytes in order) into bytes.
pub fn parse_hex_bytes(s: &str) -> Option<Vec<u8>> {
    let s = s.trim();
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).ok())
        .collect()
}

/// Format bytes as a lower-case hex string.
pub fn hex_bytes(b: &[u8]) -> String {
    let mut s = String::with_capacity(b.len() * 2);
    for x in b {
        let _ = write!(s, "{x:02x}");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_instruction_line_with_literal() {
        let l = "\tv_mov_b32_e32 v0, 0xbf810000                               // 000000000000: 7E0002FF BF810000";
        assert_eq!(
            parse_insn_line(l),
            Some(("v_mov_b32_e32 v0, 0xbf810000".to_string(), 0, 8))
        );
    }

    #[test]
    fn parses_branch_annotation_and_glued_comment() {
        let l = "\ts_cbranch_scc1 7                                           // 000000000004: BF850007 <.text+0x24>";
        assert_eq!(parse_insn_line(l).unwrap().2, 4);
        let l = "\ts_add_u32 s1, src_lds_direct/*Invalid register, operand has 'SReg_32' register class*/, s2// 0000000002F8: 800102FE";
        let (t, a, n) = parse_insn_line(l).unwrap();
        assert!(t.ends_with(", s2"));
        assert_eq!((a, n), (0x2f8, 4));
    }

    #[test]
    fn pads_to_minimum() {
        let r = pad_region(vec![1, 2, 3]);
        assert_eq!(r.len(), 20);
        assert_eq!(&r[4..8], &PAD_DWORD.to_le_bytes());
    }
}
