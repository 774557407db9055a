//! capabot: a chat bot for chess variants, with its own rules engine for Capatomic Random Chess,
//! Capablanca Random and Relocation Chess, Stone's Chess, atomic chess, chess and Capablanca chess.
//!
//! Layers, each depending only on those before it: [`rules`]; then [`notation`], [`ai`] and
//! [`render`] (these four are the engine, the crate `capabot-engine`, re-exported here) and the
//! message catalogues [`i18n`]; then the bot core [`bot`], its storage [`store`] and the
//! [`community`] features (with the catalogues, the crate `capabot-core`, re-exported here); then the [`host`] and the
//! front ends ([`console`], and behind the cargo features `discord` and `matrix` their modules)
//! with their [`config`], and the work behind the command-line [`tools`]; then `main`, which
//! parses the command line and prints.

pub use capabot_core::{bot, community, i18n, store};
pub use capabot_core::{msg, store_params, t, tl};
pub use capabot_engine::{ai, notation, render, rules};
pub mod config;
pub mod console;
#[cfg(feature = "discord")]
pub mod discord;
pub mod host;
#[cfg(feature = "matrix")]
pub mod matrix;
pub mod tools;
#[cfg(feature = "web")]
pub mod web;
