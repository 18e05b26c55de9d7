//! The DRAWS.json format: user data, guest memory and a list of draws.
//! `shaderlift bind`, `verify` and `run` read it.
//!
//! ```json
//! {
//!   "user_data": [4096, 0],
//!   "memory": [{"addr": "0x800000001000", "words": ["0x00100000", "0x00208000", 36, "0x1104dfac"]}],
//!   "draws": [
//!     {"kind": "auto", "first_vertex": 0, "vertex_count": 36, "instance_count": 1, "chunks": [[0, 18], [18, 18]]},
//!     {"kind": "indexed", "index_count": 36, "instance_count": 1}
//!   ]
//! }
//! ```
//!
//! - `user_data`: user-data words 0, 1, … (optional, default none).
//! - `memory`: blocks of little-endian dwords at 48-bit guest addresses
//!   (optional). Later blocks overwrite earlier ones where they overlap.
//! - `draws`: `auto` draws take `first_vertex` (default 0), `vertex_count`,
//!   `instance_count` (default 1) and `chunks` (default none, a list of
//!   `[first, count]`); `indexed` draws take `index_count`, `instance_count`
//!   (default 1) and `first_index` (default 0, informational).
//! - Addresses and words are JSON numbers or strings: `"0x…"` hexadecimal
//!   or decimal. Unknown fields are errors.

use crate::memory::SparseMemory;
use crate::plan::Draw;
use core::fmt;
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};

macro_rules! flexible_number {
    ($name:ident, $t:ty, $what:literal) => {
        #[doc = concat!("A ", $what, " given as a JSON number or a `\"0x…\"`/decimal string.")]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
        pub struct $name(pub $t);

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_u64(self.0 as u64)
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl Visitor<'_> for V {
                    type Value = $name;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        write!(f, "a {} as a number or a \"0x…\" string", $what)
                    }
                    fn visit_u64<E: de::Error>(self, v: u64) -> Result<$name, E> {
                        <$t>::try_from(v)
                            .map($name)
                            .map_err(|_| E::custom(format_args!("{v} does not fit a {}", $what)))
                    }
                    fn visit_i64<E: de::Error>(self, v: i64) -> Result<$name, E> {
                        u64::try_from(v)
                            .map_err(|_| {
                                E::custom(format_args!("{v} is negative; a {} is unsigned", $what))
                            })
                            .and_then(|v| self.visit_u64(v))
                    }
                    fn visit_str<E: de::Error>(self, s: &str) -> Result<$name, E> {
                        let t = s.trim();
                        let parsed = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
                            Some(h) => u64::from_str_radix(&h.replace('_', ""), 16),
                            None => t.parse::<u64>(),
                        };
                        match parsed {
                            Ok(v) => self.visit_u64(v),
                            Err(_) => Err(E::custom(format_args!("\"{s}\" is not a {}", $what))),
                        }
                    }
                }
                d.deserialize_any(V)
            }
        }
    };
}

flexible_number!(Word32, u32, "32-bit word");
flexible_number!(Addr, u64, "64-bit address");

/// A block of guest memory.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MemoryBlock {
    /// Address of the first word.
    pub addr: Addr,
    /// The words.
    pub words: Vec<Word32>,
}

/// One draw of a DRAWS.json file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum DrawSpec {
    /// A non-indexed draw.
    Auto {
        /// First vertex-id VGPR value.
        #[serde(default)]
        first_vertex: u32,
        /// Vertices.
        vertex_count: u32,
        /// Instances.
        #[serde(default = "one")]
        instance_count: u32,
        /// Split chunks `[first, count]`.
        #[serde(default)]
        chunks: Vec<(u32, u32)>,
    },
    /// An indexed draw.
    Indexed {
        /// Indices.
        index_count: u32,
        /// Instances.
        #[serde(default = "one")]
        instance_count: u32,
        /// First index (informational: the index buffer is not read).
        #[serde(default)]
        first_index: u32,
    },
}

fn one() -> u32 {
    1
}

impl DrawSpec {
    /// The draw `BindPlan::bind` takes (borrows the chunks).
    pub fn as_draw(&self) -> Draw<'_> {
        match self {
            DrawSpec::Auto {
                first_vertex,
                vertex_count,
                instance_count,
                chunks,
            } => Draw::Auto {
                first_vertex: *first_vertex,
                vertex_count: *vertex_count,
                instance_count: *instance_count,
                chunks,
            },
            DrawSpec::Indexed {
                index_count,
                instance_count,
                ..
            } => Draw::Indexed {
                index_count: *index_count,
                instance_count: *instance_count,
            },
        }
    }
}

/// A DRAWS.json file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawsFile {
    /// User-data words.
    #[serde(default)]
    pub user_data: Vec<Word32>,
    /// Guest memory.
    #[serde(default)]
    pub memory: Vec<MemoryBlock>,
    /// The draws.
    pub draws: Vec<DrawSpec>,
}

/// A DRAWS.json file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum DrawsError {
    /// Not valid JSON, or not this format.
    #[error("DRAWS.json: {0}")]
    Json(#[from] serde_json::Error),
    /// A memory block runs past the end of the address space.
    #[error("DRAWS.json: memory block {index} at {addr:#x} ({words} words) runs past the end of the address space")]
    BlockOverflow {
        /// Block number.
        index: usize,
        /// Its address.
        addr: u64,
        /// Its length in words.
        words: usize,
    },
}

impl DrawsFile {
    /// Parse and check a DRAWS.json text.
    pub fn parse(text: &str) -> Result<DrawsFile, DrawsError> {
        let f: DrawsFile = serde_json::from_str(text)?;
        for (index, b) in f.memory.iter().enumerate() {
            let len = (b.words.len() as u64).saturating_mul(4);
            if b.addr.0.checked_add(len).is_none() {
                return Err(DrawsError::BlockOverflow {
                    index,
                    addr: b.addr.0,
                    words: b.words.len(),
                });
            }
        }
        Ok(f)
    }

    /// The user-data words.
    pub fn user_data(&self) -> Vec<u32> {
        self.user_data.iter().map(|w| w.0).collect()
    }

    /// The guest memory the blocks describe (no write generations).
    pub fn memory(&self) -> SparseMemory {
        let mut m = SparseMemory::new();
        for b in &self.memory {
            let words: Vec<u32> = b.words.iter().map(|w| w.0).collect();
            m.write_words(b.addr.0, &words);
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::GuestMemory;

    #[test]
    fn parses_the_documented_example_with_numbers_and_hex_strings() {
        let text = r#"{"user_data": [4096, "0x10"],
            "memory": [{"addr": "0x800000001000", "words": ["0x00100000", 7]}],
            "draws": [{"kind": "auto", "first_vertex": 0, "vertex_count": 36, "instance_count": 1, "chunks": [[0, 18], [18, 18]]},
                      {"kind": "indexed", "index_count": 6}]}"#;
        let f = DrawsFile::parse(text).unwrap();
        assert_eq!(f.user_data(), vec![4096, 16]);
        assert_eq!(f.memory().read_u32(0x8000_0000_1004), Some(7));
        assert_eq!(
            f.draws[0].as_draw(),
            Draw::Auto {
                first_vertex: 0,
                vertex_count: 36,
                instance_count: 1,
                chunks: &[(0, 18), (18, 18)]
            }
        );
        assert_eq!(
            f.draws[1].as_draw(),
            Draw::Indexed {
                index_count: 6,
                instance_count: 1
            }
        );
    }

    #[test]
    fn bad_files_name_what_is_wrong() {
        let cases = [
            (r#"{"draws": [}"#, "line 1"),
            (
                r#"{"draws": [{"kind": "auto"}]}"#,
                "missing field `vertex_count`",
            ),
            (
                r#"{"draws": [{"kind": "strip", "vertex_count": 3}]}"#,
                "unknown variant `strip`",
            ),
            (
                r#"{"draws": [], "user_data": ["0xzz"]}"#,
                "\"0xzz\" is not a 32-bit word",
            ),
            (
                r#"{"draws": [], "user_data": [4294967296]}"#,
                "does not fit a 32-bit word",
            ),
            (r#"{"draws": [], "user_data": [-1]}"#, "negative"),
            (
                r#"{"draws": [], "memory": [{"addr": 0, "words": [1], "size": 4}]}"#,
                "unknown field `size`",
            ),
            (
                r#"{"draws": [], "memory": [{"addr": "0xfffffffffffffffe", "words": [1]}]}"#,
                "past the end",
            ),
        ];
        for (text, want) in cases {
            let e = DrawsFile::parse(text).unwrap_err().to_string();
            assert!(e.contains(want), "{text}: {e}");
        }
    }
}
