//! The DRAWS.json format: user data, guest memory and a list of draws.
//! `shaderlift bind`, `verify` and `run` read it.
//!
//! ```json
//! {
//!   "user_data": [4096, 0],
//!   "memory": [{"addr": "0x800000001000", "words": ["0x00100000", "0x00208000", 36, "0x1104dfac"]}],
//!   "draws": [
//!     {"kind": "auto", "first_vertex": 0, "vertex_count": 36, "instance_count": 1, "chunks": [[0, 18], [18, 18]]},
//!     {"kind": "indexed", "index_count": 36, "instance_count": 1,
//!      "index_addr": "0x800000002000", "index_format": "u16", "restart": "0xffff"}
//!   ]
//! }
//! ```
//!
//! - `user_data`: user-data words 0, 1, … (optional, default none).
//! - `code_addr`: the guest address of the shader's first byte (optional,
//!   default [`DEFAULT_CODE_ADDR`]); the tools map the code and the constant
//!   data after it there, where `s_getpc_b64` finds them.
//! - `memory`: blocks of little-endian dwords at 48-bit guest addresses
//!   (optional). Later blocks overwrite earlier ones where they overlap.
//! - `draws`: `auto` draws take `first_vertex` (default 0), `vertex_count`,
//!   `instance_count` (default 1) and `chunks` (default none, a list of
//!   `[first, count]`); `indexed` draws take `index_count`, `instance_count`
//!   (default 1), `first_index` (default 0), and the index buffer:
//!   `index_addr` (guest address of index 0; without it the index values are
//!   unknown and vertex-id bindings keep the baseline), `index_format`
//!   (`u8`, `u16` or `u32`, required with `index_addr`), `base_vertex` (what
//!   the hardware adds to every index, `VGT_INDX_OFFSET`; default 0, and 0
//!   for RADV, whose shaders add `vertexOffset` from user data) and
//!   `restart` (the primitive-restart value; absent: restart off).
//! - Addresses and words are JSON numbers or strings: `"0x…"` hexadecimal
//!   or decimal. Unknown fields are errors.

use crate::index::{scan_guest, IndexBuffer, IndexError, IndexFormat, IndexRange};
use crate::memory::{GuestMemory, SparseMemory};
use crate::plan::{BindFaults, Draw};
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
#[non_exhaustive]
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
        /// The first index the draw reads.
        #[serde(default)]
        first_index: u32,
        /// Guest address of the index buffer (index 0); without it the
        /// index values are unknown.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        index_addr: Option<Addr>,
        /// Index width (`u8`, `u16`, `u32`); required with `index_addr`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        index_format: Option<IndexFormat>,
        /// What the hardware adds to every index (`VGT_INDX_OFFSET`; 0 for
        /// RADV, which adds `vertexOffset` in the shader).
        #[serde(default, skip_serializing_if = "is_zero")]
        base_vertex: i32,
        /// The primitive-restart value, when restart is on.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        restart: Option<Word32>,
    },
}

fn is_zero(x: &i32) -> bool {
    *x == 0
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
                first_index,
                index_addr,
                index_format,
                base_vertex,
                restart,
            } => Draw::Indexed {
                index_buffer: IndexBuffer {
                    addr: index_addr.map_or(0, |a| a.0),
                    format: index_format.unwrap_or_default(),
                    count: *index_count,
                    first_index: *first_index,
                },
                base_vertex: *base_vertex,
                restart: restart.map(|r| r.0),
                instance_count: *instance_count,
                indices: IndexRange::Unknown,
            },
        }
    }

    /// The draw's index buffer, when it names one.
    pub fn index_buffer(&self) -> Option<(IndexBuffer, Option<u32>)> {
        match self {
            DrawSpec::Indexed {
                index_addr: Some(addr),
                index_count,
                first_index,
                index_format,
                restart,
                ..
            } => Some((
                IndexBuffer {
                    addr: addr.0,
                    format: index_format.unwrap_or_default(),
                    count: *index_count,
                    first_index: *first_index,
                },
                restart.map(|r| r.0),
            )),
            _ => None,
        }
    }

    /// The draw with its index range scanned from `memory` when it names an
    /// index buffer (else as [`DrawSpec::as_draw`]). A checker that must see
    /// a plan's test-only faults scans through [`crate::BindPlan::scan_draw`].
    pub fn as_draw_scanned<M: GuestMemory + ?Sized>(
        &self,
        memory: &M,
    ) -> Result<Draw<'_>, IndexError> {
        self.scan_with(memory, &BindFaults::default())
    }

    /// [`DrawSpec::as_draw_scanned`] under `faults` (the negative controls'
    /// broken scans).
    pub(crate) fn scan_with<M: GuestMemory + ?Sized>(
        &self,
        memory: &M,
        faults: &BindFaults,
    ) -> Result<Draw<'_>, IndexError> {
        let mut draw = self.as_draw();
        if let (Some((ib, restart)), Draw::Indexed { indices, .. }) =
            (self.index_buffer(), &mut draw)
        {
            let (ib, restart) = faults.scan_input(ib, restart);
            *indices = scan_guest(memory, &ib, restart)?;
        }
        Ok(draw)
    }
}

/// Where the tools map a shader's code (and the constant data after it)
/// when a DRAWS.json file does not say (`code_addr`): a 48-bit guest address
/// clear of the scenes' tables and data windows.
pub const DEFAULT_CODE_ADDR: u64 = 0x7000_0000_0000;

/// A DRAWS.json file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawsFile {
    /// The guest address of the shader's first byte (default
    /// [`DEFAULT_CODE_ADDR`]): the tools map the code and its constant data
    /// there, and `s_getpc_b64` counts from it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code_addr: Option<Addr>,
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
    /// An indexed draw names an index buffer without its format.
    #[error(
        "DRAWS.json: indexed draw {index} has an index_addr but no index_format (u8, u16 or u32)"
    )]
    IndexFormatMissing {
        /// Draw number.
        index: usize,
    },
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
        for (index, d) in f.draws.iter().enumerate() {
            if let DrawSpec::Indexed {
                index_addr: Some(_),
                index_format: None,
                ..
            } = d
            {
                return Err(DrawsError::IndexFormatMissing { index });
            }
        }
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

    /// The shader's code address ([`DEFAULT_CODE_ADDR`] unless the file
    /// gives one).
    pub fn code_addr(&self) -> u64 {
        self.code_addr.map_or(DEFAULT_CODE_ADDR, |a| a.0)
    }

    /// The user-data words.
    pub fn user_data(&self) -> Vec<u32> {
        self.user_data.iter().map(|w| w.0).collect()
    }

    /// [`DrawsFile::memory`] with `code` (a shader's code and the constant
    /// data after it) mapped at [`DrawsFile::code_addr`], under the blocks
    /// (a block that overlaps it wins). Code past the address space or the
    /// memory's size limit is left out.
    pub fn memory_with_code(&self, code: &[u8]) -> SparseMemory {
        let mut m = SparseMemory::new();
        let _ = m.try_write_bytes(self.code_addr(), code);
        for b in &self.memory {
            let words: Vec<u32> = b.words.iter().map(|w| w.0).collect();
            m.write_words(b.addr.0, &words);
        }
        m
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
                index_buffer: IndexBuffer {
                    addr: 0,
                    format: IndexFormat::U16,
                    count: 6,
                    first_index: 0
                },
                base_vertex: 0,
                restart: None,
                instance_count: 1,
                indices: IndexRange::Unknown,
            }
        );
    }

    #[test]
    fn an_indexed_draw_with_an_index_buffer_is_scanned_from_its_first_index() {
        let text = r#"{"memory": [{"addr": "0x3000", "words": ["0x00070009", "0xffff0002", "0x00000001"]}],
            "draws": [{"kind": "indexed", "index_count": 4, "first_index": 1, "index_addr": "0x3000",
                       "index_format": "u16", "restart": "0xffff", "base_vertex": -1}]}"#;
        let f = DrawsFile::parse(text).unwrap();
        let d = f.draws[0].as_draw_scanned(&f.memory()).unwrap();
        let Draw::Indexed {
            indices,
            base_vertex,
            restart,
            ..
        } = d
        else {
            panic!("{d:?}")
        };
        // Indices 1..=4: 7, 2, 0xffff (restart), 1.
        assert_eq!(indices, IndexRange::Span { min: 1, max: 7 });
        assert_eq!((base_vertex, restart), (-1, Some(0xffff)));
        // Written back, the draw reads the same.
        let again = serde_json::to_string(&f.draws[0]).unwrap();
        assert!(again.contains("\"index_format\":\"u16\""), "{again}");
        let unreadable = DrawsFile::parse(
            r#"{"draws": [{"kind": "indexed", "index_count": 4, "index_addr": 64, "index_format": "u32"}]}"#,
        )
        .unwrap();
        let e = unreadable.draws[0]
            .as_draw_scanned(&unreadable.memory())
            .unwrap_err();
        assert!(e.to_string().contains("cannot be read"), "{e}");
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
            (
                r#"{"draws": [{"kind": "indexed", "index_count": 3, "index_addr": 4096}]}"#,
                "no index_format",
            ),
            (
                r#"{"draws": [{"kind": "indexed", "index_count": 3, "index_addr": 4096, "index_format": "u64"}]}"#,
                "unknown variant `u64`",
            ),
        ];
        for (text, want) in cases {
            let e = DrawsFile::parse(text).unwrap_err().to_string();
            assert!(e.contains(want), "{text}: {e}");
        }
    }
}
