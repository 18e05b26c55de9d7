//! Captured shaders: code bytes plus the metadata needed to analyse them.

#![forbid(unsafe_code)]
