//! capabot's engine, the first two of its layers: [`rules`] (boards up to 10×10, variants described
//! as data, legal moves, outcomes; no I/O), then [`notation`], [`ai`] and [`render`], each built on
//! [`rules`] only. The chat bot (the `capabot` crate) re-exports all four.

pub mod ai;
pub mod notation;
pub mod render;
pub mod rules;
