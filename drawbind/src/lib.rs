//! Per-draw bind ranges, buffer cache keys and the reference buffer cache.

#![forbid(unsafe_code)]
