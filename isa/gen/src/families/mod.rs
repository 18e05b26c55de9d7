//! One module per generated family, plus shared emit helpers.

pub mod ds;
pub mod exp;
pub mod flat;
pub mod mimg;
pub mod mtbuf;
pub mod mubuf;
pub mod smem;
pub mod sop;
pub mod vintrp;
pub mod vop;
pub mod vop_ext;

use crate::recording::Recording;
use crate::FamilyGen;
use std::fmt::Write as _;

/// Every family generator.
pub fn all() -> Vec<FamilyGen> {
    vec![
        sop::gen(),
        smem::gen(),
        mubuf::gen(),
        mtbuf::gen(),
        mimg::gen(),
        ds::gen(),
        flat::gen(),
        exp::gen(),
        vintrp::gen(),
        vop::gen(),
        vop::gen_vop3p(),
        vop_ext::gen(),
    ]
}

/// Follow-up probes an adaptive family wants after seeing the answers
/// recorded so far (`isa-gen probe` repeats until this returns nothing
/// new). Families with a fixed probe list return nothing.
pub fn refine(name: &str, rec: &Recording) -> Vec<Vec<u8>> {
    match name {
        "vop" => vop::refine(rec),
        "vop3p" => vop::refine_vop3p(rec),
        "vop_ext" => vop_ext::refine(rec),
        _ => Vec::new(),
    }
}

/// Split LLVM text into mnemonic and comma-separated operands. Operands
/// containing parentheses (`hwreg(A, B, C)`) are kept whole.
pub fn split_operands(text: &str) -> (&str, Vec<String>) {
    let (mn, rest) = match text.find(' ') {
        Some(i) => (&text[..i], text[i + 1..].trim()),
        None => (text, ""),
    };
    let mut ops = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for ch in rest.chars() {
        match ch {
            '(' | '[' => {
                depth += 1;
                cur.push(ch)
            }
            ')' | ']' => {
                depth -= 1;
                cur.push(ch)
            }
            ',' if depth == 0 => {
                ops.push(cur.trim().to_string());
                cur.clear();
            }
            _ => cur.push(ch),
        }
    }
    if !cur.trim().is_empty() {
        ops.push(cur.trim().to_string());
    }
    (mn, ops)
}

/// Parse a scalar register token (`s10`, `s[10:11]`) into (first, count).
pub fn parse_sreg(tok: &str) -> Option<(u32, u32)> {
    let t = tok.split("/*").next()?.trim();
    let body = t.strip_prefix('s')?;
    if let Some(r) = body.strip_prefix('[') {
        let r = r.strip_suffix(']')?;
        let (a, b) = r.split_once(':')?;
        let (a, b): (u32, u32) = (a.parse().ok()?, b.parse().ok()?);
        Some((a, b - a + 1))
    } else {
        Some((body.parse().ok()?, 1))
    }
}

/// Parse a vector register token (`v10`, `v[10:11]`) into (first, count).
pub fn parse_vreg(tok: &str) -> Option<(u32, u32)> {
    let t = tok.split("/*").next()?.trim();
    let body = t.strip_prefix('v')?;
    if let Some(r) = body.strip_prefix('[') {
        let r = r.strip_suffix(']')?;
        let (a, b) = r.split_once(':')?;
        let (a, b): (u32, u32) = (a.parse().ok()?, b.parse().ok()?);
        Some((a, b - a + 1))
    } else {
        Some((body.parse().ok()?, 1))
    }
}

/// `S_ADD_U32` from `s_add_u32`.
pub fn const_name(mnemonic: &str) -> String {
    mnemonic.to_ascii_uppercase()
}

/// Emit `impl Opcode { pub const NAME: Opcode = Opcode::new(space, index); }`.
pub fn emit_consts(out: &mut String, space: &str, ops: &[(u16, String)]) {
    let _ = writeln!(out, "#[allow(missing_docs)]\nimpl Opcode {{");
    for (idx, name) in ops {
        let _ = writeln!(
            out,
            "    /// `{name}`\n    pub const {}: Opcode = Opcode::new(OpSpace::{space}, {idx});",
            const_name(name)
        );
    }
    let _ = writeln!(out, "}}\n");
}

/// End a generated file the way rustfmt would (one trailing newline), so
/// `cargo fmt` leaves it alone. Wide tables carry `#[rustfmt::skip]`.
pub fn finish(mut out: String) -> String {
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}
