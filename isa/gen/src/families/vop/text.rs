//! Parsing LLVM's printed vector-ALU text into operands and modifiers.

/// One printed operand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tok {
    /// The operand without prefix modifiers and annotation (`v20`, `0.5`).
    pub core: String,
    /// Printed as `-x` (or `-|x|`).
    pub neg: bool,
    /// Printed as `neg(x)`.
    pub negfn: bool,
    /// Printed as `|x|`.
    pub abs: bool,
    /// `sext(x)` (SDWA only; never expected here).
    pub sext: bool,
    /// Text of a trailing `/*...*/` annotation.
    pub note: Option<String>,
}

/// A parsed instruction text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Text {
    /// Mnemonic as printed (with `_e32`/`_e64`).
    pub mnem: String,
    /// Operands in printing order.
    pub toks: Vec<Tok>,
    /// Trailing modifier words (`clamp`, `op_sel:[0,1,0]`, `high`, ...).
    pub words: Vec<String>,
}

/// Split at top-level commas; brackets, parentheses and `/* */`
/// comments nest.
fn split_top(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut depth = 0i32;
    let b = s.as_bytes();
    let mut i = 0;
    let mut in_comment = false;
    while i < b.len() {
        let c = b[i] as char;
        if in_comment {
            cur.push(c);
            if c == '*' && i + 1 < b.len() && b[i + 1] == b'/' {
                cur.push('/');
                i += 2;
                in_comment = false;
                continue;
            }
            i += 1;
            continue;
        }
        if c == '/' && i + 1 < b.len() && b[i + 1] == b'*' {
            in_comment = true;
            cur.push_str("/*");
            i += 2;
            continue;
        }
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            _ => {}
        }
        if c == ',' && depth == 0 {
            out.push(cur.trim().to_string());
            cur.clear();
        } else {
            cur.push(c);
        }
        i += 1;
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// Split the last operand's trailing words off (first space outside
/// brackets and comments).
fn split_words(s: &str) -> (String, Vec<String>) {
    let b = s.as_bytes();
    let mut depth = 0i32;
    let mut in_comment = false;
    let mut i = 0;
    while i < b.len() {
        let c = b[i] as char;
        if in_comment {
            if c == '*' && i + 1 < b.len() && b[i + 1] == b'/' {
                in_comment = false;
                i += 2;
                continue;
            }
            i += 1;
            continue;
        }
        if c == '/' && i + 1 < b.len() && b[i + 1] == b'*' {
            in_comment = true;
            i += 2;
            continue;
        }
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ' ' if depth == 0 => {
                let words = s[i + 1..]
                    .split(' ')
                    .filter(|w| !w.is_empty())
                    .map(|w| w.to_string())
                    .collect();
                return (s[..i].to_string(), words);
            }
            _ => {}
        }
        i += 1;
    }
    (s.to_string(), Vec::new())
}

fn parse_tok(s: &str) -> Tok {
    // The annotation can sit inside `|...|` or `neg(...)`.
    let (body, note) = match (s.find("/*"), s.find("*/")) {
        (Some(i), Some(j)) if j > i => {
            let n = s[i + 2..j].to_string();
            (
                format!("{}{}", &s[..i], &s[j + 2..]).trim().to_string(),
                Some(n),
            )
        }
        _ => (s.trim().to_string(), None),
    };
    let mut t = body.as_str();
    let mut neg = false;
    let mut negfn = false;
    let mut abs = false;
    let mut sext = false;
    if let Some(r) = t.strip_prefix("neg(") {
        negfn = true;
        t = r.strip_suffix(')').unwrap_or(r);
    }
    if let Some(r) = t.strip_prefix("sext(") {
        sext = true;
        t = r.strip_suffix(')').unwrap_or(r);
    }
    if t.starts_with('-') {
        let next = t[1..].chars().next().unwrap_or(' ');
        if next == '|' || next.is_ascii_alphabetic() {
            neg = true;
            t = &t[1..];
        }
    }
    if t.starts_with('|') && t.ends_with('|') && t.len() >= 2 {
        abs = true;
        t = &t[1..t.len() - 1];
    }
    Tok {
        core: t.to_string(),
        neg,
        negfn,
        abs,
        sext,
        note,
    }
}

/// Parse one line of LLVM text.
pub fn parse(text: &str) -> Text {
    let (mnem, rest) = match text.find(' ') {
        Some(i) => (&text[..i], text[i + 1..].trim()),
        None => (text, ""),
    };
    let mut parts = split_top(rest);
    let mut words = Vec::new();
    if let Some(last) = parts.pop() {
        let (core, w) = split_words(&last);
        // A bare word list (no operands) such as `v_nop` has no parts.
        parts.push(core);
        words = w;
    }
    Text {
        mnem: mnem.to_string(),
        toks: parts.iter().map(|p| parse_tok(p)).collect(),
        words,
    }
}

/// A register token: file letter (`v`, `s`, `t` for ttmp) and range.
pub fn reg(core: &str) -> Option<(char, u32, u32)> {
    let (file, body) = if let Some(b) = core.strip_prefix("ttmp") {
        ('t', b)
    } else if let Some(b) = core.strip_prefix('v') {
        ('v', b)
    } else if let Some(b) = core.strip_prefix('s') {
        ('s', b)
    } else {
        return None;
    };
    if let Some(r) = body.strip_prefix('[') {
        let r = r.strip_suffix(']')?;
        let (a, b) = r.split_once(':')?;
        let (a, b): (u32, u32) = (a.parse().ok()?, b.parse().ok()?);
        Some((file, a, b - a + 1))
    } else {
        Some((file, body.parse().ok()?, 1))
    }
}

/// A modifier list word `name:[a,b,c]` as (name, values).
pub fn list(word: &str) -> Option<(String, Vec<u8>)> {
    let (name, rest) = word.split_once(":[")?;
    let body = rest.strip_suffix(']')?;
    let vals = body
        .split(',')
        .map(|v| v.parse::<u8>().ok())
        .collect::<Option<Vec<u8>>>()?;
    Some((name.to_string(), vals))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_annotations_and_words() {
        let t = parse("v_readlane_b32 s10, v20, v30/*Invalid register, operand has 'SReg_32' register class*/ clamp");
        assert_eq!(t.mnem, "v_readlane_b32");
        assert_eq!(t.toks.len(), 3);
        assert_eq!(t.toks[2].core, "v30");
        assert!(t.toks[2].note.as_deref().unwrap().contains("SReg_32"));
        assert_eq!(t.words, vec!["clamp".to_string()]);
    }

    #[test]
    fn prefixes_are_separated_from_constants() {
        let t = parse("v_fma_f16 v72, -|2.0|, neg(19), -5 op_sel:[0,1,0,1] div:2");
        assert!(t.toks[1].neg && t.toks[1].abs && t.toks[1].core == "2.0");
        assert!(t.toks[2].negfn && t.toks[2].core == "19");
        assert!(!t.toks[3].neg && t.toks[3].core == "-5");
        assert_eq!(
            t.words,
            vec!["op_sel:[0,1,0,1]".to_string(), "div:2".to_string()]
        );
        assert_eq!(
            list("op_sel:[0,1,0,1]"),
            Some(("op_sel".to_string(), vec![0, 1, 0, 1]))
        );
    }
}
