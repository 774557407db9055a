//! The Matrix tests, one test binary (feature `matrix`): matrix-sdk against a real Synapse
//! (`synapse`), and capabot's Matrix front end and host against it (`bot`); the front end's retry
//! waits (`backoff`). `synapse-harness` installs Synapse from PyPI on first use.

#[path = "../common/mod.rs"]
mod common;

mod backoff;
mod bot;
mod synapse;
