//! The engine's tests, one test binary: rules and rulings, notation, perft, test vectors against
//! Fairy-Stockfish, property tests, the AI, and the pictures against golden images. They need the
//! library (and, for UCI, the `capabot` binary) but no chat platform, store or feature.

mod golden_check;

mod ai;
mod atomic_family_props;
mod atomic_family_rulings;
mod capatomic_perft;
mod capatomic_props;
mod capatomic_rulings;
mod gif_golden;
mod perft;
mod props;
mod render_analysis_golden;
mod render_community_golden;
mod render_golden;
mod vectors;
