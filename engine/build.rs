//! The engine is rebuilt when its recorded profile or the profile mode changes (tools/rustc-pgo gives
//! them to rustc, which cargo does not see).
fn main() {
    println!("cargo::rerun-if-changed=pgo/engine.profdata");
    println!("cargo::rerun-if-env-changed=CAPABOT_PGO");
}
