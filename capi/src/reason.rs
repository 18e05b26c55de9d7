//! `shaderlift_reason`: `drawbind::Reason` one to one, with its texts.

use core::ffi::c_char;
use drawbind::Reason;
use std::ffi::CStr;

/// Why a range is what it is (`drawbind::Reason`, one to one, in the same
/// order). `shaderlift_reason_text` gives the short name `shaderlift bind`
/// prints.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(non_camel_case_types)]
pub enum shaderlift_reason {
    /// Narrowed to the draw's last record.
    Narrowed = 0,
    /// The draw reaches record N - 1: the range is the baseline.
    Capped,
    /// The baseline rules were asked for.
    BaselineRules,
    /// The shader is not a vertex or primitive shader.
    NotVertexStage,
    /// The trace has no index bound for the descriptor.
    NoIndexBound,
    /// The descriptor's indexed accesses use different indices.
    AccessesDisagree,
    /// The bound's added word could not be traced.
    AddedWordUntraced,
    /// TYPE != 0.
    NotBuffer,
    /// OOB_SELECT 2.
    Unchecked,
    /// Stride 0 or OOB_SELECT 3.
    Raw,
    /// SWIZZLE_ENABLE.
    Swizzled,
    /// ADD_TID_ENABLE.
    AddTid,
    /// An access adds a VGPR byte offset (offen).
    VgprOffset,
    /// An access's soffset is not a constant.
    DynamicSoffset,
    /// num_records is 0: nothing is in range, the range is empty.
    NoRecords,
    /// The draw runs no lanes (a zero vertex, index or instance count).
    ZeroCount,
    /// An indexed draw: vertex ids come from the index buffer.
    IndexedDraw,
    /// The last id plus the added word passes 32 bits.
    Wrap,
    /// The index goes through LDS and the plan was not told that the caller
    /// initialises the LDS cells (`shaderlift_plan_set_honour_lds_init`).
    LdsContract,
    /// An access whose descriptor is not traced has this descriptor's base
    /// on this draw (or a base that cannot be evaluated).
    UntracedAlias,
}

/// Every reason with its text, in code order (the code is the position).
pub(crate) const REASONS: [(Reason, &CStr); 20] = [
    (Reason::Narrowed, c"narrowed"),
    (Reason::Capped, c"capped"),
    (Reason::BaselineRules, c"baseline-rules"),
    (Reason::NotVertexStage, c"not-vertex-stage"),
    (Reason::NoIndexBound, c"no-index-bound"),
    (Reason::AccessesDisagree, c"accesses-disagree"),
    (Reason::AddedWordUntraced, c"added-word-untraced"),
    (Reason::NotBuffer, c"not-a-buffer"),
    (Reason::Unchecked, c"unchecked"),
    (Reason::Raw, c"raw"),
    (Reason::Swizzled, c"swizzled"),
    (Reason::AddTid, c"add-tid"),
    (Reason::VgprOffset, c"vgpr-offset"),
    (Reason::DynamicSoffset, c"dynamic-soffset"),
    (Reason::NoRecords, c"no-records"),
    (Reason::ZeroCount, c"zero-count"),
    (Reason::IndexedDraw, c"indexed-draw"),
    (Reason::Wrap, c"wrap"),
    (Reason::LdsContract, c"lds-contract"),
    (Reason::UntracedAlias, c"untraced-alias"),
];

impl From<Reason> for shaderlift_reason {
    /// Exhaustive on purpose: a new `Reason` does not compile until it has
    /// a C code.
    #[inline]
    fn from(r: Reason) -> shaderlift_reason {
        use shaderlift_reason as C;
        match r {
            Reason::Narrowed => C::Narrowed,
            Reason::Capped => C::Capped,
            Reason::BaselineRules => C::BaselineRules,
            Reason::NotVertexStage => C::NotVertexStage,
            Reason::NoIndexBound => C::NoIndexBound,
            Reason::AccessesDisagree => C::AccessesDisagree,
            Reason::AddedWordUntraced => C::AddedWordUntraced,
            Reason::NotBuffer => C::NotBuffer,
            Reason::Unchecked => C::Unchecked,
            Reason::Raw => C::Raw,
            Reason::Swizzled => C::Swizzled,
            Reason::AddTid => C::AddTid,
            Reason::VgprOffset => C::VgprOffset,
            Reason::DynamicSoffset => C::DynamicSoffset,
            Reason::NoRecords => C::NoRecords,
            Reason::ZeroCount => C::ZeroCount,
            Reason::IndexedDraw => C::IndexedDraw,
            Reason::Wrap => C::Wrap,
            Reason::LdsContract => C::LdsContract,
            Reason::UntracedAlias => C::UntracedAlias,
        }
    }
}

/// The static short name of a reason code, as `shaderlift bind` prints it
/// (`"narrowed"`, `"no-index-bound"`, ...); `"unknown reason"` for a value
/// that is not one. Never NULL; never freed.
#[no_mangle]
pub extern "C" fn shaderlift_reason_text(code: i32) -> *const c_char {
    std::panic::catch_unwind(|| {
        usize::try_from(code)
            .ok()
            .and_then(|i| REASONS.get(i))
            .map_or(c"unknown reason".as_ptr(), |(_, t)| t.as_ptr())
    })
    .unwrap_or(c"unknown reason".as_ptr())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_has_its_own_code_and_the_cli_text() {
        for (i, (r, t)) in REASONS.iter().enumerate() {
            assert_eq!(
                shaderlift_reason::from(*r) as usize,
                i,
                "{r:?}: codes are positions"
            );
            assert_eq!(t.to_str().unwrap(), r.as_str(), "{r:?}");
            // SAFETY: shaderlift_reason_text returns a static C string.
            let s = unsafe { CStr::from_ptr(shaderlift_reason_text(i as i32)) };
            assert_eq!(s, *t);
        }
        let mut reasons: Vec<Reason> = REASONS.iter().map(|e| e.0).collect();
        reasons.sort_by_key(|r| r.as_str());
        reasons.dedup();
        assert_eq!(reasons.len(), REASONS.len(), "no reason listed twice");
        // SAFETY: as above.
        let unknown = unsafe { CStr::from_ptr(shaderlift_reason_text(REASONS.len() as i32)) };
        assert_eq!(unknown, c"unknown reason");
        // SAFETY: as above.
        let negative = unsafe { CStr::from_ptr(shaderlift_reason_text(-3)) };
        assert_eq!(negative, c"unknown reason");
    }
}
