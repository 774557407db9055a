//! capabot's laboratory: the tools that measure and tune the product, kept out of the `capabot` library
//! and binary. Speed runs ([`bench`]), single searches and matches against other players and engines
//! ([`engine`], [`arena`]) and evaluation tuning ([`tune`]), all built on the library's public API. The
//! `lab` binary (`src/main.rs`) only parses arguments and prints.

pub mod analysis;
pub mod arena;
pub mod bench;
pub mod engine;
pub mod tune;
