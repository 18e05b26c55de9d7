//! A shader's code, decoded once for execution.

use crate::ops::{classify, Kind};
use isa::{DecodeError, Formatter, Instruction, Mode, Target};

/// One decoded position of the code.
#[derive(Clone, Debug)]
pub(crate) struct Op {
    pub(crate) inst: Instruction,
    pub(crate) kind: Kind,
}

/// A shader ready to run: every dword offset decoded (so a branch into the
/// middle of what a linear walk saw as one instruction still finds the
/// instruction the hardware would fetch there).
#[derive(Clone, Debug)]
pub struct Program {
    mode: Mode,
    code_len: u32,
    /// Per dword offset: the instruction there, or why there is none.
    slots: Vec<Result<Op, DecodeError>>,
}

impl Program {
    /// Decode `code` for a target and wave size (a [`Target`] alone means
    /// wave32; the interpreter sizes lane masks by the wave it runs, but
    /// decoding for the right wave size keeps operands and messages
    /// faithful). Never fails: undecodable positions only fail when the
    /// wave reaches them.
    pub fn new(code: &[u8], mode: impl Into<Mode>) -> Program {
        let mode = mode.into();
        let n = code.len() / 4;
        let mut slots = Vec::with_capacity(n);
        for i in 0..n {
            let at = i * 4;
            let r = isa::decode_hardware(&code[at..], mode)
                .map(|inst| Op {
                    kind: classify(&inst),
                    inst,
                })
                .map_err(|mut e| {
                    e.offset = at;
                    e
                });
            slots.push(r);
        }
        Program {
            mode,
            code_len: (n * 4) as u32,
            slots,
        }
    }

    /// The target.
    pub fn target(&self) -> Target {
        self.mode.target
    }

    /// The target and wave size the code was decoded for.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Code length in bytes (whole dwords).
    pub fn len(&self) -> u32 {
        self.code_len
    }

    /// True for empty code.
    pub fn is_empty(&self) -> bool {
        self.code_len == 0
    }

    /// The instruction at `pc`, if one decodes there.
    pub fn instruction(&self, pc: u32) -> Option<&Instruction> {
        match self.slot(pc) {
            Some(Ok(op)) => Some(&op.inst),
            _ => None,
        }
    }

    pub(crate) fn slot(&self, pc: u32) -> Option<&Result<Op, DecodeError>> {
        if !pc.is_multiple_of(4) {
            return None;
        }
        self.slots.get((pc / 4) as usize)
    }

    /// The LLVM text of the instruction at `pc` (for messages).
    pub fn text(&self, pc: u32) -> String {
        match self.slot(pc) {
            Some(Ok(op)) => Formatter::new(self.mode.target)
                .display(&op.inst)
                .to_string(),
            Some(Err(e)) => format!("<undecodable: {e}>"),
            None => "<outside the code>".to_string(),
        }
    }
}
