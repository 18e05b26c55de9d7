//! Recorded oracle answers.

use llvm_oracle::{hex_bytes, parse_hex_bytes, Answer};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

/// Oracle answers per target and probe.
#[derive(Default, Debug)]
pub struct Recording {
    map: HashMap<(String, Vec<u8>), Answer>,
    order: Vec<(String, Vec<u8>)>,
}

impl Recording {
    /// Add an answer.
    pub fn insert(&mut self, mcpu: &str, probe: Vec<u8>, answer: Answer) {
        let key = (mcpu.to_string(), probe);
        if !self.map.contains_key(&key) {
            self.order.push(key.clone());
        }
        self.map.insert(key, answer);
    }

    /// The answer for a probe on a target.
    pub fn get(&self, mcpu: &str, probe: &[u8]) -> Option<&Answer> {
        self.map.get(&(mcpu.to_string(), probe.to_vec()))
    }

    /// The text for a probe, or `None` when missing, invalid (`.long`) or
    /// a crash.
    pub fn text(&self, mcpu: &str, probe: &[u8]) -> Option<&str> {
        match self.get(mcpu, probe)? {
            Answer::Text { text, .. } if !text.starts_with(".long") => Some(text),
            _ => None,
        }
    }

    /// The length LLVM consumed for a probe (4 for `.long`).
    pub fn len(&self, mcpu: &str, probe: &[u8]) -> Option<usize> {
        match self.get(mcpu, probe)? {
            Answer::Text { len, .. } => Some(*len),
            Answer::Crash => None,
        }
    }

    /// Number of answers.
    pub fn size(&self) -> usize {
        self.map.len()
    }

    /// Load from a `.tsv` file (`mcpu<TAB>hex<TAB>len<TAB>text`).
    pub fn load(path: &Path) -> std::io::Result<Recording> {
        let src = std::fs::read_to_string(path)?;
        let mut r = Recording::default();
        for l in src.lines() {
            if l.starts_with('#') || l.is_empty() {
                continue;
            }
            let mut it = l.splitn(4, '\t');
            let (Some(cpu), Some(hex), Some(len), Some(text)) =
                (it.next(), it.next(), it.next(), it.next())
            else {
                continue;
            };
            let Some(bytes) = parse_hex_bytes(hex) else {
                continue;
            };
            let len: usize = len.parse().unwrap_or(0);
            let ans = if text == "<crash>" {
                Answer::Crash
            } else {
                Answer::Text {
                    len,
                    text: text.to_string(),
                }
            };
            r.insert(cpu, bytes, ans);
        }
        Ok(r)
    }

    /// Save to a `.tsv` file.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let mut s = String::new();
        s.push_str("# Recorded llvm-objdump-19 answers: mcpu, probe bytes (before padding), bytes consumed, text.\n");
        for key in &self.order {
            let a = &self.map[key];
            match a {
                Answer::Text { len, text } => {
                    let _ = writeln!(s, "{}\t{}\t{len}\t{text}", key.0, hex_bytes(&key.1));
                }
                Answer::Crash => {
                    let _ = writeln!(s, "{}\t{}\t0\t<crash>", key.0, hex_bytes(&key.1));
                }
            }
        }
        std::fs::write(path, s)
    }
}

/// Little-endian bytes of dwords.
pub fn dwords(ws: &[u32]) -> Vec<u8> {
    ws.iter().flat_map(|w| w.to_le_bytes()).collect()
}
