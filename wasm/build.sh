#!/bin/sh
# Builds the npm package @httpspan/wasm into wasm/pkg/ with wasm-pack, offline, installing what
# is missing: the wasm32 target (rustup), wasm-bindgen-cli at exactly the version Cargo.lock pins
# (cargo install, about 2-3 minutes once), wasm-pack (cargo install, about 3 minutes once), and
# wasm-opt from the npm package binaryen (npm install).
#
# Two modules: httpspan_wasm_bg.wasm with SIMD128 (flags from .cargo/config.toml) and
# httpspan_wasm_baseline_bg.wasm without it, for engines that lack SIMD128. They share one
# wasm-bindgen glue file; the build fails if the two glues differ.
set -eu
cd "$(dirname "$0")"
root=$(cd .. && pwd)
target="$root/target"
pkg="$PWD/pkg"
stage="$target/wasm-pkg-stage"

command -v cargo >/dev/null || { echo "error: cargo not found; install Rust with rustup first" >&2; exit 1; }
if ! command -v node >/dev/null || ! node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)'; then
	echo "error: Node 20 or later is needed to build and test the wasm package" >&2
	exit 1
fi

# The standard library for the target is what the build needs (rustup's own list of installed
# targets can be out of step with it when several rustup commands ran at once).
if [ ! -d "$(rustc --print sysroot)/lib/rustlib/wasm32-unknown-unknown/lib" ]; then
	rustup target add wasm32-unknown-unknown
fi

bindgen_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' "$root/Cargo.lock")
[ -n "$bindgen_version" ] || { echo "error: no wasm-bindgen in Cargo.lock" >&2; exit 1; }
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $bindgen_version" ]; then
	# Not --locked: one of its locked dependency versions is missing from the registry index.
	cargo install wasm-bindgen-cli --version "$bindgen_version"
fi

# npm install, not npm ci: npm here leaves other platforms' optional workerd packages out of the
# lock file, and npm ci then refuses it. With the lock file present, install keeps its versions.
[ -d node_modules ] || npm install --no-audit --no-fund

# wasm-pack builds both modules: cargo build with the wasm-release profile (Cargo.toml at the
# root: LTO, one codegen unit, panic=abort, no debug info), then wasm-bindgen --target web.
# --mode no-install: it takes wasm-bindgen and wasm-opt from PATH (its own downloads come from
# GitHub). The SIMD128 module is optimised by wasm-pack itself, with the wasm-opt arguments of
# [package.metadata.wasm-pack.profile.custom] in Cargo.toml; wasm-pack has no step for a second
# module built with other target features, so the baseline one is built with --no-opt and
# optimised here with the same arguments less --enable-simd.
PATH="$PWD/node_modules/.bin:$PATH"
export PATH
command -v wasm-pack >/dev/null || cargo install wasm-pack --version 0.15.1
[ "$(command -v wasm-opt)" = "$PWD/node_modules/.bin/wasm-opt" ] \
	|| { echo "error: wasm-opt must be npm's binaryen (node_modules/.bin), not another" >&2; exit 1; }
wasm_pack="wasm-pack --quiet build --mode no-install --target web --profile wasm-release --no-pack --no-gitignore"

if [ -n "${RUSTFLAGS:-}${CARGO_ENCODED_RUSTFLAGS:-}" ]; then
	echo "note: ignoring RUSTFLAGS/CARGO_ENCODED_RUSTFLAGS, which would drop SIMD128 from .cargo/config.toml" >&2
fi
rm -rf "$stage"
# wasm-pack takes --out-dir relative to the crate.
# shellcheck disable=SC2086 # $wasm_pack is a command with its arguments
env -u RUSTFLAGS -u CARGO_ENCODED_RUSTFLAGS $wasm_pack --out-dir ../target/wasm-pkg-stage/simd128
# shellcheck disable=SC2086
env -u RUSTFLAGS CARGO_ENCODED_RUSTFLAGS="-Ctarget-feature=-simd128" CARGO_TARGET_DIR="$target/wasm-baseline" \
	$wasm_pack --no-opt --out-dir ../target/wasm-pkg-stage/baseline
if ! cmp -s "$stage/simd128/httpspan_wasm.js" "$stage/baseline/httpspan_wasm.js"; then
	echo "error: the SIMD128 and baseline builds need different wasm-bindgen glue" >&2
	exit 1
fi

rm -rf "$pkg"
mkdir -p "$pkg"
cp "$stage/simd128/httpspan_wasm_bg.wasm" "$pkg/httpspan_wasm_bg.wasm"
# The arguments wasm-pack gave wasm-opt for the SIMD128 module, without --enable-simd.
wasm_opt_args=$(python3 -c 'import tomllib
args = tomllib.load(open("Cargo.toml", "rb"))["package"]["metadata"]["wasm-pack"]["profile"]["custom"]["wasm-opt"]
print(" ".join(a for a in args if a != "--enable-simd"))')
# shellcheck disable=SC2086 # $wasm_opt_args is a list of arguments
wasm-opt $wasm_opt_args "$stage/baseline/httpspan_wasm_bg.wasm" -o "$pkg/httpspan_wasm_baseline_bg.wasm"
cp "$stage/simd128/httpspan_wasm.js" "$pkg/"
cp js/*.js js/index.d.ts js/package.json "$pkg/"
cp js/README.md "$pkg/README.md"
cp ../LICENSE-MIT ../LICENSE-APACHE "$pkg/"

for file in httpspan_wasm_bg.wasm httpspan_wasm_baseline_bg.wasm; do
	echo "$file: $(wc -c <"$pkg/$file") bytes, $(gzip -9c "$pkg/$file" | wc -c) gzipped"
done
