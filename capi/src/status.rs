//! Status codes, their texts, the per-thread last-error message and the
//! guard every exported function runs its body in.

use core::ffi::c_char;
use core::fmt::{self, Write as _};
use std::cell::RefCell;
use std::ffi::CStr;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// What an exported function returns. `SHADERLIFT_STATUS_OK` is 0; every
/// other value is a failure, and `shaderlift_last_error()` then holds a
/// message with the details on the calling thread.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(non_camel_case_types)]
pub enum shaderlift_status {
    /// Success.
    Ok = 0,
    /// A pointer argument that must not be NULL was NULL.
    NullPointer = 1,
    /// An argument is out of range: an unknown enum value (draw kind, index
    /// format, stage, target), a wave size other than 32 or 64, a register
    /// number past 255, a path that is not UTF-8, or a re-entrant call.
    InvalidArgument = 2,
    /// The capture cannot be read (missing file, corrupt metadata, ...).
    Capture = 3,
    /// The DRAWS.json file cannot be read or parsed.
    Draws = 4,
    /// The shader's trace cannot be turned into a bind plan.
    Plan = 5,
    /// An output buffer is too small; the size it needs was written.
    OutputTooSmall = 6,
    /// The plan needs a user-data word past the ones given.
    MissingUserData = 7,
    /// The guest-memory read callback refused a read the draw needs.
    UnreadableMemory = 8,
    /// The translator cannot express some construct of the shader exactly.
    Unsupported = 9,
    /// The translation failed for another reason (a translator bug).
    TranslateFailed = 10,
    /// A bug: a panic inside the library was caught at the boundary.
    Panic = 11,
}

impl shaderlift_status {
    /// Every status, in code order.
    pub(crate) const ALL: [shaderlift_status; 12] = [
        Self::Ok,
        Self::NullPointer,
        Self::InvalidArgument,
        Self::Capture,
        Self::Draws,
        Self::Plan,
        Self::OutputTooSmall,
        Self::MissingUserData,
        Self::UnreadableMemory,
        Self::Unsupported,
        Self::TranslateFailed,
        Self::Panic,
    ];

    /// The static text `shaderlift_error_text` returns.
    pub(crate) const fn text(self) -> &'static CStr {
        match self {
            Self::Ok => c"ok",
            Self::NullPointer => c"a required pointer argument is NULL",
            Self::InvalidArgument => c"an argument is out of range",
            Self::Capture => c"the capture cannot be read",
            Self::Draws => c"the DRAWS.json file cannot be used",
            Self::Plan => c"the trace cannot be planned",
            Self::OutputTooSmall => c"an output buffer is too small",
            Self::MissingUserData => c"a user-data word the plan needs was not given",
            Self::UnreadableMemory => c"guest memory the draw needs cannot be read",
            Self::Unsupported => c"the shader uses constructs the translator cannot express",
            Self::TranslateFailed => c"the translation failed",
            Self::Panic => c"internal error (a caught panic; please report it)",
        }
    }
}

/// A failure inside the library, before it becomes a status code.
#[derive(Debug, thiserror::Error)]
pub enum CapiError {
    /// A NULL pointer argument.
    #[error("`{0}` is NULL")]
    Null(&'static str),
    /// An argument out of range.
    #[error("{0}")]
    Invalid(String),
    /// A capture that cannot be read.
    #[error(transparent)]
    Capture(#[from] corpus::CaptureError),
    /// A DRAWS.json file that cannot be read.
    #[error("{0}")]
    Draws(String),
    /// A trace that cannot be planned.
    #[error("cannot plan the bind: {0}")]
    Plan(#[from] drawbind::PlanError),
    /// An output buffer that is too small.
    #[error("{what} holds {got} but {needed} are needed")]
    TooSmall {
        /// Which buffer, with its unit.
        what: &'static str,
        /// Its capacity.
        got: usize,
        /// What it needs.
        needed: usize,
    },
    /// A `shaderlift_bind` failure.
    #[error(transparent)]
    Bind(#[from] crate::plan::BindCallError),
    /// A translation failure.
    #[error(transparent)]
    Translate(#[from] translator::TranslateError),
}

impl From<crate::NullArg> for CapiError {
    fn from(n: crate::NullArg) -> CapiError {
        CapiError::Null(n.0)
    }
}

impl CapiError {
    /// The status code of this error.
    pub fn status(&self) -> shaderlift_status {
        use crate::plan::BindCallError as C;
        use drawbind::BindError as B;
        match self {
            CapiError::Null(_) => shaderlift_status::NullPointer,
            CapiError::Invalid(_) => shaderlift_status::InvalidArgument,
            CapiError::Capture(_) => shaderlift_status::Capture,
            CapiError::Draws(_) => shaderlift_status::Draws,
            CapiError::Plan(_) => shaderlift_status::Plan,
            CapiError::TooSmall { .. }
            | CapiError::Bind(C::TooSmall { .. } | C::Bind(B::OutputTooSmall { .. })) => {
                shaderlift_status::OutputTooSmall
            }
            CapiError::Bind(C::Null(_)) => shaderlift_status::NullPointer,
            CapiError::Bind(
                C::DrawKind(_) | C::IndexFormat(_) | C::IndexRangeKind(_) | C::Reentered,
            ) => shaderlift_status::InvalidArgument,
            CapiError::Bind(C::Bind(B::MissingUserData { .. })) => {
                shaderlift_status::MissingUserData
            }
            CapiError::Bind(C::Bind(B::Unreadable { .. })) => shaderlift_status::UnreadableMemory,
            CapiError::Bind(C::Bind(B::NoCodeAddress { .. })) => shaderlift_status::InvalidArgument,
            CapiError::Translate(translator::TranslateError::Unsupported(_)) => {
                shaderlift_status::Unsupported
            }
            CapiError::Translate(_) => shaderlift_status::TranslateFailed,
        }
    }
}

thread_local! {
    /// The last failure's message on this thread, NUL-terminated. The
    /// buffer is reused, so after the first failure on a thread setting it
    /// again allocates only when a longer message comes.
    static LAST_ERROR: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Writes formatted text into a byte buffer, dropping interior NULs.
struct CText<'a>(&'a mut Vec<u8>);

impl fmt::Write for CText<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.extend(s.bytes().filter(|&b| b != 0));
        Ok(())
    }
}

/// Record `msg` as this thread's last error.
pub(crate) fn set_last_error(msg: impl fmt::Display) {
    // A re-entrant call (a Display impl calling back in) keeps the old text.
    let _ = LAST_ERROR.try_with(|cell| {
        if let Ok(mut buf) = cell.try_borrow_mut() {
            buf.clear();
            let _ = write!(CText(&mut buf), "{msg}");
            buf.push(0);
        }
    });
}

/// The message of the last failed call on the calling thread (empty when
/// none failed yet). The pointer stays valid until the next failing call on
/// this thread; copy the text to keep it.
#[no_mangle]
pub extern "C" fn shaderlift_last_error() -> *const c_char {
    catch_unwind(|| {
        LAST_ERROR
            .try_with(|cell| match cell.try_borrow() {
                Ok(buf) if !buf.is_empty() => buf.as_ptr().cast::<c_char>(),
                _ => c"".as_ptr(),
            })
            .unwrap_or(c"".as_ptr())
    })
    .unwrap_or(c"".as_ptr())
}

/// The static text of a status code (`"unknown status code"` for a value
/// that is not one). Never NULL; never freed.
#[no_mangle]
pub extern "C" fn shaderlift_error_text(code: i32) -> *const c_char {
    catch_unwind(|| {
        shaderlift_status::ALL
            .iter()
            .find(|s| **s as i32 == code)
            .map_or(c"unknown status code".as_ptr(), |s| s.text().as_ptr())
    })
    .unwrap_or(c"unknown status code".as_ptr())
}

/// Run an exported function's body: catch any panic (it never crosses the
/// C boundary), turn errors into status codes and record their messages.
pub(crate) fn guard(body: impl FnOnce() -> Result<(), CapiError>) -> shaderlift_status {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => shaderlift_status::Ok,
        Ok(Err(e)) => failed(e),
        Err(payload) => panicked(payload),
    }
}

/// Record a failure's message; its status. Out of line, so the success
/// path of every function (the per-draw bind above all) stays short.
#[cold]
#[inline(never)]
fn failed(e: CapiError) -> shaderlift_status {
    set_last_error(&e);
    e.status()
}

/// Record a caught panic's message.
#[cold]
#[inline(never)]
fn panicked(payload: Box<dyn std::any::Any + Send>) -> shaderlift_status {
    let what = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(no message)");
    set_last_error(format_args!("internal panic: {what}"));
    shaderlift_status::Panic
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(p: *const c_char) -> String {
        // SAFETY: the functions under test return NUL-terminated strings
        // that live at least until the next call on this thread.
        unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
    }

    #[test]
    fn status_codes_are_their_positions_and_texts_are_distinct() {
        for (i, s) in shaderlift_status::ALL.iter().enumerate() {
            assert_eq!(*s as usize, i);
            assert_eq!(
                text(shaderlift_error_text(i as i32)),
                s.text().to_str().unwrap()
            );
        }
        let mut texts: Vec<_> = shaderlift_status::ALL.iter().map(|s| s.text()).collect();
        texts.sort();
        texts.dedup();
        assert_eq!(texts.len(), shaderlift_status::ALL.len());
        assert_eq!(text(shaderlift_error_text(-1)), "unknown status code");
        assert_eq!(text(shaderlift_error_text(99)), "unknown status code");
    }

    #[test]
    fn guard_turns_errors_and_panics_into_codes_with_a_message() {
        let s = guard(|| Err(CapiError::Null("plan")));
        assert_eq!(s, shaderlift_status::NullPointer);
        assert_eq!(text(shaderlift_last_error()), "`plan` is NULL");
        let s = guard(|| panic!("boom {}", 7));
        assert_eq!(s, shaderlift_status::Panic);
        assert_eq!(text(shaderlift_last_error()), "internal panic: boom 7");
        assert_eq!(guard(|| Ok(())), shaderlift_status::Ok);
        assert_eq!(
            text(shaderlift_last_error()),
            "internal panic: boom 7",
            "success keeps the last failure's message"
        );
    }
}
