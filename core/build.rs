//! Tells the crate whether the compiler has the AVX-512 intrinsics, which became stable in Rust
//! 1.89: with an older compiler (the crate's `rust-version` is older), the AVX-512 backend is
//! left out and the others are unchanged.

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
