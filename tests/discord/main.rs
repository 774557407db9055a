//! The Discord tests, one test binary (feature `discord`): capabot's front end and host end to end
//! against the in-repo fake Discord (`e2e`, `lang`). The fake's own test with a real client (poise
//! on serenity, no capabot) is `fake-discord/tests/poise_client.rs`.

#[path = "../common/mod.rs"]
mod common;

mod e2e;
mod lang;
#[cfg(feature = "web")]
mod web;
