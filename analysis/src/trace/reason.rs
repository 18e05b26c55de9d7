//! Why a descriptor is unbound ([`Unbound`]) and why an index value is not
//! a traced id ([`IndexUnknown`]): typed, with a short [`Unbound::code`] for
//! tables and APIs and a `Display` text for people (the text the trace
//! report prints).

use core::fmt;
use serde::{Deserialize, Serialize};

/// Why a descriptor has no index bound ([`super::Descriptor::reason`]).
///
/// `Display` gives the full text (with pcs and mnemonics); [`Unbound::code`]
/// a short stable class.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Unbound {
    /// The trace as a whole could not be completed (control flow it cannot
    /// follow, an exec analysis that did not settle): every descriptor is
    /// unbound. `note` is the shader note saying why.
    TraceIncomplete {
        /// The note (also in [`super::ShaderTrace::notes`]).
        note: String,
    },
    /// A reachable access goes through a descriptor whose words are not
    /// all traced, so it may use any descriptor with any index: every
    /// descriptor is unbound.
    UntracedDescriptor {
        /// The access.
        pc: u32,
    },
    /// No access through the descriptor is indexed (`idxen`).
    NoIdxenAccess,
    /// The indexed accesses all run with no active lane (exec is zero).
    NoActiveIdxenAccess,
    /// The index an access uses is not an id (+ word).
    UnknownIndex {
        /// The access.
        pc: u32,
        /// Why.
        why: IndexUnknown,
    },
    /// Two accesses index by different sources.
    AccessesDisagree {
        /// The first indexed access.
        pc: u32,
        /// Its index source, as text (`vertex_id + ud1`).
        index: String,
        /// The first access that disagrees with it.
        other_pc: u32,
        /// That access's index source, as text.
        other_index: String,
    },
    /// The index is an id plus a word the tracer does not follow.
    IndexWordNotTraced {
        /// The access.
        pc: u32,
    },
}

impl Unbound {
    /// A short stable code: `lds` (index read back from LDS), `memory`
    /// (index loaded from memory), `disagree` (accesses disagree),
    /// `no-index` (no indexed access runs), `untraced` (an untraced index
    /// word or descriptor), `other` (everything else).
    pub fn code(&self) -> &'static str {
        match self {
            Unbound::TraceIncomplete { .. } => "other",
            Unbound::UntracedDescriptor { .. } | Unbound::IndexWordNotTraced { .. } => "untraced",
            Unbound::NoIdxenAccess | Unbound::NoActiveIdxenAccess => "no-index",
            Unbound::UnknownIndex { why, .. } => why.code(),
            Unbound::AccessesDisagree { .. } => "disagree",
        }
    }

    /// The shader note for [`Unbound::UntracedDescriptor`] (without the
    /// `trace incomplete: ` prefix the reason adds).
    pub(crate) fn untraced_note(pc: u32) -> String {
        format!(
            "pc {pc:#x}: an access whose descriptor is not traced may go through any descriptor"
        )
    }
}

impl fmt::Display for Unbound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unbound::TraceIncomplete { note } => write!(f, "trace incomplete: {note}"),
            Unbound::UntracedDescriptor { pc } => {
                write!(f, "trace incomplete: {}", Unbound::untraced_note(*pc))
            }
            Unbound::NoIdxenAccess => f.write_str("no idxen access"),
            Unbound::NoActiveIdxenAccess => f.write_str("no idxen access runs with active lanes"),
            Unbound::UnknownIndex { pc, why } => write!(f, "pc {pc:#x}: {why}"),
            Unbound::AccessesDisagree {
                pc,
                index,
                other_pc,
                other_index,
            } => write!(
                f,
                "accesses disagree: pc {pc:#x} indexes by {index}, pc {other_pc:#x} by {other_index}"
            ),
            Unbound::IndexWordNotTraced { pc } => {
                write!(f, "pc {pc:#x}: the index word is not traced")
            }
        }
    }
}

/// Why a VGPR used as an index holds no traced id (+ word). `at` is the pc
/// of the instruction the reason is about and `opcode` its mnemonic.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum IndexUnknown {
    /// The register held no vertex or instance id when the wave started.
    NoEntryId,
    /// Computed by an instruction no tracer rule follows.
    NoRule {
        /// The instruction.
        at: u32,
        /// Its mnemonic.
        opcode: String,
    },
    /// Partly overwritten (SDWA, DPP, d16 writes).
    PartlyOverwritten {
        /// The instruction.
        at: u32,
        /// Its mnemonic.
        opcode: String,
    },
    /// A loop changes it on every round.
    LoopChanges {
        /// Where the loop's paths meet.
        at: u32,
    },
    /// Paths with different values meet.
    PathsDiffer {
        /// Where they meet.
        at: u32,
    },
    /// Read under an exec mask wider than the one it was written under.
    OutsideExecMask {
        /// The read.
        at: u32,
    },
    /// Moved between lanes.
    CrossLane {
        /// The instruction.
        at: u32,
        /// Its mnemonic.
        opcode: String,
    },
    /// Written by an instruction the tracer cannot follow.
    Untraceable {
        /// The instruction.
        at: u32,
        /// Its mnemonic.
        opcode: String,
    },
    /// Loaded from memory.
    FromMemory {
        /// The load.
        at: u32,
        /// Its mnemonic.
        opcode: String,
    },
    /// The entry id, read while exec may include lanes the hardware gave no
    /// vertex.
    NotVertexLanes,
    /// Read back from LDS.
    FromLds {
        /// The LDS read.
        at: u32,
        /// Its mnemonic.
        opcode: String,
    },
    /// Read back from LDS, where a write the tracer cannot place (an
    /// unknown address, an atomic, GDS, a buffer load into LDS) may have
    /// written the bytes read.
    LdsWriteUnplaced {
        /// The write.
        at: u32,
        /// Its mnemonic.
        opcode: String,
    },
    /// Read back from LDS, where a write of a value that is not the same
    /// id (+ word) as the others may reach the bytes read.
    LdsOtherValue {
        /// The write.
        at: u32,
        /// Its mnemonic.
        opcode: String,
    },
    /// Read back from LDS, where a write may overlap the dword read only
    /// in part.
    LdsPartialOverlap {
        /// The write.
        at: u32,
        /// Its mnemonic.
        opcode: String,
    },
    /// Read back from LDS bytes no write of the shader reaches.
    LdsUnwritten {
        /// The read.
        at: u32,
        /// Its mnemonic.
        opcode: String,
    },
    /// An id plus a word stored in LDS, read back and another word added:
    /// a bound holds one word.
    LdsTwoWords {
        /// The read.
        at: u32,
        /// Its mnemonic.
        opcode: String,
    },
    /// A computed number, not an id.
    Number {
        /// The access.
        at: u32,
    },
}

impl IndexUnknown {
    /// The short code [`Unbound::code`] gives for it: `lds`, `memory` or
    /// `other`.
    pub fn code(&self) -> &'static str {
        match self {
            IndexUnknown::FromLds { .. }
            | IndexUnknown::LdsWriteUnplaced { .. }
            | IndexUnknown::LdsOtherValue { .. }
            | IndexUnknown::LdsPartialOverlap { .. }
            | IndexUnknown::LdsUnwritten { .. }
            | IndexUnknown::LdsTwoWords { .. } => "lds",
            IndexUnknown::FromMemory { .. } => "memory",
            _ => "other",
        }
    }
}

impl fmt::Display for IndexUnknown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Reasons about one instruction end in "(pc 0x..: name)".
        match self {
            IndexUnknown::NoEntryId => {
                f.write_str("the register held no vertex or instance id when the wave started")
            }
            IndexUnknown::NoRule { at, opcode } => write!(
                f,
                "computed by an instruction no rule follows (pc {at:#x}: {opcode})"
            ),
            IndexUnknown::PartlyOverwritten { at, opcode } => {
                write!(f, "partly overwritten (pc {at:#x}: {opcode})")
            }
            IndexUnknown::LoopChanges { at } => {
                write!(f, "a loop changes it on every round (pc {at:#x})")
            }
            IndexUnknown::PathsDiffer { at } => {
                write!(f, "paths with different values meet at pc {at:#x}")
            }
            IndexUnknown::OutsideExecMask { at } => write!(
                f,
                "lanes outside the exec mask it was written under hold another value (read at pc {at:#x})"
            ),
            IndexUnknown::CrossLane { at, opcode } => {
                write!(f, "moved between lanes (pc {at:#x}: {opcode})")
            }
            IndexUnknown::Untraceable { at, opcode } => write!(
                f,
                "written by an instruction the tracer cannot follow (pc {at:#x}: {opcode})"
            ),
            IndexUnknown::FromMemory { at, opcode } => {
                write!(f, "index loaded from memory (pc {at:#x}: {opcode})")
            }
            IndexUnknown::NotVertexLanes => f.write_str(
                "the entry id is read while exec may include lanes the hardware gave no vertex",
            ),
            IndexUnknown::FromLds { at, opcode } => {
                write!(f, "index from LDS (pc {at:#x}: {opcode})")
            }
            IndexUnknown::LdsWriteUnplaced { at, opcode } => write!(
                f,
                "index from LDS; a write at an unknown address may reach it (pc {at:#x}: {opcode})"
            ),
            IndexUnknown::LdsOtherValue { at, opcode } => write!(
                f,
                "index from LDS; a write of another value reaches its class (pc {at:#x}: {opcode})"
            ),
            IndexUnknown::LdsPartialOverlap { at, opcode } => write!(
                f,
                "index from LDS; a write overlaps its class in part (pc {at:#x}: {opcode})"
            ),
            IndexUnknown::LdsUnwritten { at, opcode } => write!(
                f,
                "index from LDS bytes no write reaches (pc {at:#x}: {opcode})"
            ),
            IndexUnknown::LdsTwoWords { at, opcode } => write!(
                f,
                "index from LDS holding an id plus a word, plus another word (pc {at:#x}: {opcode})"
            ),
            IndexUnknown::Number { at } => {
                write!(f, "a computed number, not an id (pc {at:#x})")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_print_their_text_and_code() {
        let lds = Unbound::UnknownIndex {
            pc: 0x4fc,
            why: IndexUnknown::FromLds {
                at: 0x430,
                opcode: "ds_read_b32".into(),
            },
        };
        assert_eq!(
            lds.to_string(),
            "pc 0x4fc: index from LDS (pc 0x430: ds_read_b32)"
        );
        assert_eq!(lds.code(), "lds");
        let cases: [(Unbound, &str, &str); 6] = [
            (Unbound::NoIdxenAccess, "no idxen access", "no-index"),
            (
                Unbound::NoActiveIdxenAccess,
                "no idxen access runs with active lanes",
                "no-index",
            ),
            (
                Unbound::UntracedDescriptor { pc: 0x10 },
                "trace incomplete: pc 0x10: an access whose descriptor is not traced may go through any descriptor",
                "untraced",
            ),
            (
                Unbound::TraceIncomplete {
                    note: "the code is empty".into(),
                },
                "trace incomplete: the code is empty",
                "other",
            ),
            (
                Unbound::IndexWordNotTraced { pc: 0x20 },
                "pc 0x20: the index word is not traced",
                "untraced",
            ),
            (
                Unbound::AccessesDisagree {
                    pc: 0x8,
                    index: "vertex_id".into(),
                    other_pc: 0xc,
                    other_index: "instance_id".into(),
                },
                "accesses disagree: pc 0x8 indexes by vertex_id, pc 0xc by instance_id",
                "disagree",
            ),
        ];
        for (u, text, code) in cases {
            assert_eq!((u.to_string().as_str(), u.code()), (text, code));
        }
    }

    #[test]
    fn only_lds_and_memory_indices_have_their_own_code() {
        let load = IndexUnknown::FromMemory {
            at: 4,
            opcode: "buffer_load_dword".into(),
        };
        assert_eq!(load.code(), "memory");
        assert_eq!(
            load.to_string(),
            "index loaded from memory (pc 0x4: buffer_load_dword)"
        );
        for other in [
            IndexUnknown::NoEntryId,
            IndexUnknown::NotVertexLanes,
            IndexUnknown::PathsDiffer { at: 8 },
        ] {
            assert_eq!(other.code(), "other", "{other}");
        }
    }
}
