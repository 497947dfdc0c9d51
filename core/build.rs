//! Tells the crate which backends to compile:
//! - `httpspan_avx512`: whether the compiler has the AVX-512 intrinsics, which became stable in
//!   Rust 1.89. With an older compiler (the crate's `rust-version` is older), the AVX-512
//!   backend is left out and the others are unchanged.
//! - `httpspan_swar`: whether the SWAR backend can be chosen, which it cannot where a SIMD
//!   backend is fixed at compile time (aarch64 with NEON, wasm32 with SIMD128): there it would
//!   only cost the wasm module's size (600 bytes gzipped).

use std::env;
use std::process::Command;

/// The first Rust release with `_mm512_*` intrinsics and the `avx512*` target features stable.
const AVX512_STABLE_MINOR: u32 = 89;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let x86_64 = env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|arch| arch == "x86_64");
    if x86_64 && rustc_minor().is_some_and(|minor| minor >= AVX512_STABLE_MINOR) {
        println!("cargo:rustc-cfg=httpspan_avx512");
    }
    if !simd_fixed_at_compile_time() {
        println!("cargo:rustc-cfg=httpspan_swar");
    }
}

/// Whether the target has a SIMD backend that every CPU of it runs, and that is not turned off
/// (`--cfg httpspan_force_scalar` in `RUSTFLAGS`, or Miri).
fn simd_fixed_at_compile_time() -> bool {
    let arch = env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let features = env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let has = |feature: &str| features.split(',').any(|f| f == feature);
    let fixed = (arch == "aarch64" && has("neon")) || (arch == "wasm32" && has("simd128"));
    let turned_off = env::var_os("CARGO_CFG_HTTPSPAN_FORCE_SCALAR").is_some()
        || env::var_os("CARGO_CFG_MIRI").is_some();
    fixed && !turned_off
}

/// The minor version of the compiler Cargo builds with (`rustc 1.95.0 (…)` gives 95), or `None`
/// if it cannot be asked, in which case the backend is left out.
fn rustc_minor() -> Option<u32> {
    let rustc = env::var_os("RUSTC")?;
    let output = Command::new(rustc).arg("--version").output().ok()?;
    let version = String::from_utf8(output.stdout).ok()?;
    version
        .split_whitespace()
        .nth(1)?
        .split('.')
        .nth(1)?
        .parse()
        .ok()
}
