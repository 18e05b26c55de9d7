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

/// A generated table's strings as one text block (`TEXT`), each string
/// written once; a table entry names its string as
/// `Text::new(block, at, len)`, so the table holds no pointer for the
/// loader to relocate.
pub struct TextBlock {
    block: &'static str,
    text: String,
    at: std::collections::BTreeMap<String, usize>,
}

impl TextBlock {
    /// An empty block; `block` is the `Text` block constant (`Text::VOP`).
    pub fn new(block: &'static str) -> TextBlock {
        TextBlock {
            block,
            text: String::new(),
            at: Default::default(),
        }
    }

    /// The source of a `Text` naming `s`.
    pub fn text(&mut self, s: &str) -> String {
        let at = match self.at.get(s) {
            Some(&at) => at,
            None => {
                let at = match self.text.find(s) {
                    Some(at) => at,
                    None => {
                        self.text.push_str(s);
                        self.text.len() - s.len()
                    }
                };
                self.at.insert(s.to_string(), at);
                at
            }
        };
        assert!(at <= u16::MAX as usize && s.len() <= u8::MAX as usize);
        format!("Text::new(Text::{}, {at}, {})", self.block, s.len())
    }

    /// `pub(crate) const TEXT: &str = "...";`
    pub fn emit(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "/// Every string of the tables above, each once.\npub(crate) const TEXT: &str = {:?};\n",
            self.text
        );
    }
}

/// Lists of table rows (operand slots, modifier bits) laid end to end in
/// one array; a form names its list by position and length. A list equal
/// to one already laid down is shared.
#[derive(Default)]
pub struct FlatPool {
    rows: Vec<String>,
    index: std::collections::BTreeMap<String, usize>,
}

impl FlatPool {
    /// Position of `elems` in the array (appended unless present).
    pub fn get(&mut self, elems: &[String]) -> (usize, usize) {
        let key = elems.join("\n");
        if let Some(&at) = self.index.get(&key) {
            return (at, elems.len());
        }
        let at = self.rows.len();
        self.rows.extend(elems.iter().cloned());
        self.index.insert(key, at);
        assert!(at <= u16::MAX as usize && elems.len() <= u8::MAX as usize);
        (at, elems.len())
    }

    /// `pub(crate) static {name}: [{ty}; n] = [...];`
    pub fn emit(&self, out: &mut String, doc: &str, name: &str, ty: &str) {
        let _ = writeln!(
            out,
            "/// {doc}\npub(crate) static {name}: [{ty}; {}] = [",
            self.rows.len()
        );
        for r in &self.rows {
            let _ = writeln!(out, "    {r},");
        }
        let _ = writeln!(out, "];\n");
    }
}
