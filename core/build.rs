//! Tells the crate which backends to compile, as `cfg` names that the code uses instead of
//! spelling out target conditions:
//!
//! | cfg | set when |
//! | --- | --- |
//! | `httpspan_x86_64` | x86_64: the SSE4.2 and AVX2 backends, chosen at run time |
//! | `httpspan_avx512` | x86_64 and a compiler with the AVX-512 intrinsics (Rust 1.89 or later) |
//! | `httpspan_neon` | aarch64 with NEON, fixed at compile time |
//! | `httpspan_simd128` | wasm32 built with `+simd128`, fixed at compile time |
//! | `httpspan_simd` | any of the SIMD backends above |
//! | `httpspan_swar` | the SWAR backend can be chosen: no SIMD backend is fixed at compile time (where one is, it would only cost the wasm module's size) |
//! | `httpspan_engine_per_backend` | each SIMD backend's head engine is a `#[target_feature]` entry point, with copies of its own for heads under one block (x86_64) |
//! | `httpspan_one_engine` | wasm32: the module's best backend is the only one it can choose, so the head engine is compiled once (the module's size counts); the crate's own tests there keep the scalar reference too |
//! | `httpspan_size_first` | wasm32: the module's size counts, so the head engine's larger helpers are left out of line (one copy each) where elsewhere they are always inlined |
//!
//! `--cfg httpspan_force_scalar` in `RUSTFLAGS`, and Miri, turn every SIMD backend off, which
//! leaves SWAR and the scalar reference.

use std::env;
use std::process::Command;

/// The first Rust release with `_mm512_*` intrinsics and the `avx512*` target features stable.
const AVX512_STABLE_MINOR: u32 = 89;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let arch = env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let features = env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let has = |feature: &str| features.split(',').any(|f| f == feature);
    let simd_off = env::var_os("CARGO_CFG_HTTPSPAN_FORCE_SCALAR").is_some()
        || env::var_os("CARGO_CFG_MIRI").is_some();

    let x86_64 = arch == "x86_64" && !simd_off;
    let neon = arch == "aarch64" && has("neon") && !simd_off;
    let simd128 = arch == "wasm32" && has("simd128") && !simd_off;
    let avx512 = x86_64 && rustc_minor().is_some_and(|minor| minor >= AVX512_STABLE_MINOR);
    let set = |name: &str, on: bool| {
        if on {
            println!("cargo:rustc-cfg={name}");
        }
    };
    set("httpspan_x86_64", x86_64);
    set("httpspan_avx512", avx512);
    set("httpspan_neon", neon);
    set("httpspan_simd128", simd128);
    set("httpspan_simd", x86_64 || neon || simd128);
    set("httpspan_swar", !(neon || simd128));
    set("httpspan_engine_per_backend", x86_64);
    set("httpspan_one_engine", arch == "wasm32");
    set("httpspan_size_first", arch == "wasm32");
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
