//! Control flow, register-source tracing and the reference interpreter.

#![forbid(unsafe_code)]
