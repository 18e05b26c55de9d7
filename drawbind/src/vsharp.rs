//! The gfx10 buffer resource descriptor (V#): field decoding and the
//! range-checking class each descriptor falls into.
//!
//! Field positions are facts from AMD's gfx10 register description (as
//! carried in Mesa's `gfx10-rsrc.json`); see `notes/gfx10-buffer-resource.md`.
//!
//! | word | bits | field |
//! |---|---|---|
//! | 0 | 31:0 | base address, bits 31:0 |
//! | 1 | 15:0 | base address, bits 47:32 |
//! | 1 | 29:16 | stride (bytes) |
//! | 1 | 30 | cache swizzle |
//! | 1 | 31 | swizzle enable |
//! | 2 | 31:0 | num_records |
//! | 3 | 22:21 | index stride (8, 16, 32 or 64 records) |
//! | 3 | 23 | add thread id to the index |
//! | 3 | 29:28 | out-of-bounds select |
//! | 3 | 31:30 | type (0 = buffer) |

/// Mask of a 48-bit GPU virtual address.
pub const ADDRESS_MASK: u64 = (1 << 48) - 1;

/// What the hardware treats as out of range (word 3, bits 29:28).
///
/// Out-of-range loads return zero and out-of-range stores are dropped, so
/// they touch no memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OobSelect {
    /// 0: a record index `>= num_records`, or an offset inside the record
    /// `>= stride`.
    StructuredWithOffset,
    /// 1: a record index `>= num_records`.
    Structured,
    /// 2: nothing is checked.
    Disabled,
    /// 3: a byte offset `>= num_records` (`num_records` counts bytes).
    Raw,
}

impl OobSelect {
    /// From the 2-bit field.
    pub const fn from_bits(bits: u32) -> OobSelect {
        match bits & 3 {
            0 => OobSelect::StructuredWithOffset,
            1 => OobSelect::Structured,
            2 => OobSelect::Disabled,
            _ => OobSelect::Raw,
        }
    }
    /// The 2-bit field.
    pub const fn bits(self) -> u32 {
        match self {
            OobSelect::StructuredWithOffset => 0,
            OobSelect::Structured => 1,
            OobSelect::Disabled => 2,
            OobSelect::Raw => 3,
        }
    }
}

/// The decoded fields of a buffer resource that bind ranges depend on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VSharp {
    /// Base address (48 bits).
    pub base: u64,
    /// Record stride in bytes (14 bits).
    pub stride: u32,
    /// Records (structured) or bytes (raw).
    pub num_records: u32,
    /// Word 1 bit 30.
    pub cache_swizzle: bool,
    /// Word 1 bit 31: swizzled addressing.
    pub swizzle: bool,
    /// Word 3 bits 22:21: index stride code (records per swizzle block
    /// = 8 << code).
    pub index_stride: u8,
    /// Word 3 bit 23: the lane's thread id is added to the index.
    pub add_tid: bool,
    /// Word 3 bits 29:28.
    pub oob_select: OobSelect,
    /// Word 3 bits 31:30 (0 = buffer).
    pub ty: u8,
}

impl VSharp {
    /// Decode the four dwords.
    pub const fn decode(w: [u32; 4]) -> VSharp {
        VSharp {
            base: (w[0] as u64) | (((w[1] & 0xffff) as u64) << 32),
            stride: (w[1] >> 16) & 0x3fff,
            num_records: w[2],
            cache_swizzle: (w[1] >> 30) & 1 != 0,
            swizzle: (w[1] >> 31) != 0,
            index_stride: ((w[3] >> 21) & 3) as u8,
            add_tid: (w[3] >> 23) & 1 != 0,
            oob_select: OobSelect::from_bits(w[3] >> 28),
            ty: (w[3] >> 30) as u8,
        }
    }

    /// Records per swizzle block: 8, 16, 32 or 64.
    pub const fn index_stride_records(&self) -> u32 {
        8 << (self.index_stride & 3)
    }

    /// The range-checking class (see [`Class`]).
    pub const fn class(&self) -> Class {
        if self.ty != 0 {
            Class::NotBuffer
        } else if matches!(self.oob_select, OobSelect::Disabled) {
            Class::Unchecked
        } else if self.stride == 0 || matches!(self.oob_select, OobSelect::Raw) {
            Class::Raw
        } else if self.swizzle {
            Class::Swizzled
        } else if self.add_tid {
            Class::AddTid
        } else {
            Class::Structured
        }
    }
}

/// How a descriptor's accesses are range-checked; decides its baseline and
/// whether it can be narrowed. The first matching row wins.
///
/// | class | condition | baseline (bytes from the base) |
/// |---|---|---|
/// | `NotBuffer` | type ≠ 0 | as declared: the structured size when stride > 0, else `num_records` |
/// | `Unchecked` | OOB_SELECT 2 | as declared (the hardware checks nothing) |
/// | `Raw` | stride 0 or OOB_SELECT 3 | `num_records` (+ the largest constant soffset) |
/// | `Swizzled` | SWIZZLE_ENABLE | structured size with `num_records` rounded up to the index stride |
/// | `AddTid` | ADD_TID_ENABLE | structured size |
/// | `Structured` | otherwise (OOB_SELECT 0/1, stride > 0) | structured size; the only class that narrows |
///
/// The structured size is `(num_records − 1)·stride + max(stride, reach)`,
/// or 0 when `num_records` is 0. `reach` is the end of the widest access
/// inside a record (see [`crate::plan`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// TYPE is not 0: not a buffer resource.
    NotBuffer,
    /// OOB_SELECT 2.
    Unchecked,
    /// Stride 0 or OOB_SELECT 3.
    Raw,
    /// SWIZZLE_ENABLE.
    Swizzled,
    /// ADD_TID_ENABLE.
    AddTid,
    /// Stride > 0, OOB_SELECT 0 or 1, linear addressing.
    Structured,
}

/// A RADV-style word 3 for a vertex buffer on gfx10.3: DST_SEL XYZW,
/// FORMAT 32_32_32_32_FLOAT (77), RESOURCE_LEVEL 1, the given OOB_SELECT.
pub const fn radv_word3(oob: OobSelect) -> u32 {
    4 | (5 << 3) | (6 << 6) | (7 << 9) | (77 << 12) | (1 << 24) | (oob.bits() << 28)
}

/// Encode a linear (unswizzled) buffer resource as RADV fills it.
pub const fn encode_linear(base: u64, stride: u32, num_records: u32, oob: OobSelect) -> [u32; 4] {
    [
        base as u32,
        ((base >> 32) as u32 & 0xffff) | ((stride & 0x3fff) << 16),
        num_records,
        radv_word3(oob),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_reads_each_field_from_its_bits() {
        let w = [
            0x8765_4321,
            0xc020_1234,
            77,
            (2 << 21) | (1 << 23) | (3 << 28) | (1 << 30),
        ];
        let v = VSharp::decode(w);
        assert_eq!(v.base, 0x1234_8765_4321);
        assert_eq!(v.stride, 0x20);
        assert!(v.cache_swizzle);
        assert!(v.swizzle);
        assert_eq!(v.num_records, 77);
        assert_eq!(v.index_stride_records(), 32);
        assert!(v.add_tid);
        assert_eq!(v.oob_select, OobSelect::Raw);
        assert_eq!(v.ty, 1);
    }

    #[test]
    fn encode_linear_round_trips_through_decode() {
        let w = encode_linear(0x8000_0010_0000, 32, 1000, OobSelect::Structured);
        let v = VSharp::decode(w);
        assert_eq!(
            (v.base, v.stride, v.num_records, v.oob_select, v.class()),
            (
                0x8000_0010_0000,
                32,
                1000,
                OobSelect::Structured,
                Class::Structured
            )
        );
    }

    #[test]
    fn class_follows_the_documented_precedence() {
        let base = VSharp::decode(encode_linear(0x1000, 16, 4, OobSelect::Structured));
        let cases: [(VSharp, Class); 8] = [
            (base, Class::Structured),
            (
                VSharp {
                    oob_select: OobSelect::StructuredWithOffset,
                    ..base
                },
                Class::Structured,
            ),
            (
                VSharp {
                    ty: 2,
                    oob_select: OobSelect::Raw,
                    ..base
                },
                Class::NotBuffer,
            ),
            (
                VSharp {
                    oob_select: OobSelect::Disabled,
                    stride: 0,
                    ..base
                },
                Class::Unchecked,
            ),
            (VSharp { stride: 0, ..base }, Class::Raw),
            (
                VSharp {
                    oob_select: OobSelect::Raw,
                    swizzle: true,
                    ..base
                },
                Class::Raw,
            ),
            (
                VSharp {
                    swizzle: true,
                    add_tid: true,
                    ..base
                },
                Class::Swizzled,
            ),
            (
                VSharp {
                    add_tid: true,
                    ..base
                },
                Class::AddTid,
            ),
        ];
        for (v, want) in cases {
            assert_eq!(v.class(), want, "{v:?}");
        }
    }
}
