//! capabot's platform-neutral core, the third layer: the message catalogues [`i18n`], the bot
//! [`bot`] (typed commands or text in, replies out, each with who may read it), its storage
//! [`store`] and the communities' ratings, ladders and tournaments [`community`]. It stands on the
//! engine (`capabot-engine`: [`rules`], [`notation`], [`ai`], [`render`], re-exported here) and on
//! nothing of the host or the front ends, which are in the crate `capabot` above it.

pub use capabot_engine::{ai, notation, render, rules};
pub mod bot;
pub mod community;
pub mod i18n;
pub mod store;
