//! The Matrix tests, one test binary (feature `matrix`): matrix-sdk against a real Synapse
//! (`synapse`), and capabot's Matrix front end and host against it (`bot`). `synapse-harness`
//! installs Synapse from PyPI on first use.

#[path = "../common/mod.rs"]
mod common;

mod bot;
mod synapse;
