//! Deliberately wrong operations for negative controls (feature `testing`):
//! an oracle that checks the interpreter must turn red when one of these is
//! on. Switched per thread, so a test's fault never reaches another test.

use std::cell::Cell;

thread_local! {
    static FMAC_SWAPPED: Cell<bool> = const { Cell::new(false) };
    static DST_SEL_IGNORED: Cell<bool> = const { Cell::new(false) };
}

/// Run `f` with image reads ignoring the T#'s DST_SEL (texels returned
/// as x, y, z, w) on this thread.
pub fn with_image_dst_sel_ignored<R>(f: impl FnOnce() -> R) -> R {
    struct Reset(bool);
    impl Drop for Reset {
        fn drop(&mut self) {
            DST_SEL_IGNORED.with(|c| c.set(self.0));
        }
    }
    let _reset = Reset(DST_SEL_IGNORED.with(|c| c.replace(true)));
    f()
}

/// True while [`with_image_dst_sel_ignored`] runs on this thread.
pub(crate) fn image_dst_sel_ignored() -> bool {
    DST_SEL_IGNORED.with(Cell::get)
}

/// Run `f` with `v_fmac_f32` computing `S0·D + S1` instead of `S0·S1 + D`
/// (operands swapped, as the fmamk/madmk translation bug of issue 16 did) on
/// this thread.
pub fn with_fmac_operands_swapped<R>(f: impl FnOnce() -> R) -> R {
    struct Reset(bool);
    impl Drop for Reset {
        fn drop(&mut self) {
            FMAC_SWAPPED.with(|c| c.set(self.0));
        }
    }
    let _reset = Reset(FMAC_SWAPPED.with(|c| c.replace(true)));
    f()
}

/// True while [`with_fmac_operands_swapped`] runs on this thread.
pub(crate) fn fmac_swapped() -> bool {
    FMAC_SWAPPED.with(Cell::get)
}
