//! RDNA2 shaders to SPIR-V.

#![forbid(unsafe_code)]
