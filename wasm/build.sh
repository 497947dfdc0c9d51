#!/bin/sh
# Builds the npm package @httpspan/wasm into wasm/pkg/, offline, installing what is missing:
# the wasm32 target (rustup), wasm-bindgen-cli at exactly the version Cargo.lock pins (cargo
# install, about 2-3 minutes once), and wasm-opt from the npm package binaryen (npm install).
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

# Size over unwinding: the module aborts on a panic (none is reachable) and is linked whole.
profile="--release --config profile.release.lto=true --config profile.release.codegen-units=1 \
--config profile.release.panic=\"abort\" --config profile.release.debug=0"

if [ -n "${RUSTFLAGS:-}${CARGO_ENCODED_RUSTFLAGS:-}" ]; then
	echo "note: ignoring RUSTFLAGS/CARGO_ENCODED_RUSTFLAGS, which would drop SIMD128 from .cargo/config.toml" >&2
fi
# shellcheck disable=SC2086 # $profile is a list of arguments
env -u RUSTFLAGS -u CARGO_ENCODED_RUSTFLAGS \
	cargo build -p httpspan-wasm --target wasm32-unknown-unknown $profile
# shellcheck disable=SC2086
env -u RUSTFLAGS CARGO_ENCODED_RUSTFLAGS="-Ctarget-feature=-simd128" \
	cargo build -p httpspan-wasm --target wasm32-unknown-unknown --target-dir "$target/wasm-baseline" $profile

rm -rf "$stage"
mkdir -p "$stage/simd128" "$stage/baseline"
wasm-bindgen --target web --out-dir "$stage/simd128" "$target/wasm32-unknown-unknown/release/httpspan_wasm.wasm"
wasm-bindgen --target web --out-dir "$stage/baseline" "$target/wasm-baseline/wasm32-unknown-unknown/release/httpspan_wasm.wasm"
if ! cmp -s "$stage/simd128/httpspan_wasm.js" "$stage/baseline/httpspan_wasm.js"; then
	echo "error: the SIMD128 and baseline builds need different wasm-bindgen glue" >&2
	exit 1
fi

# The features every engine with SIMD128 also has, and that rustc already uses; the producers
# section (toolchain versions) is dropped, target_features is kept for the SIMD128 test.
features="--enable-bulk-memory --enable-sign-ext --enable-nontrapping-float-to-int \
--enable-mutable-globals --enable-reference-types --enable-multivalue --strip-producers"
rm -rf "$pkg"
mkdir -p "$pkg"
# shellcheck disable=SC2086
node_modules/.bin/wasm-opt -O3 $features --enable-simd \
	"$stage/simd128/httpspan_wasm_bg.wasm" -o "$pkg/httpspan_wasm_bg.wasm"
# shellcheck disable=SC2086
node_modules/.bin/wasm-opt -O3 $features \
	"$stage/baseline/httpspan_wasm_bg.wasm" -o "$pkg/httpspan_wasm_baseline_bg.wasm"
cp "$stage/simd128/httpspan_wasm.js" "$pkg/"
cp js/*.js js/index.d.ts js/package.json "$pkg/"
cp js/README.md "$pkg/README.md"
cp ../LICENSE-MIT ../LICENSE-APACHE "$pkg/"

for file in httpspan_wasm_bg.wasm httpspan_wasm_baseline_bg.wasm; do
	echo "$file: $(wc -c <"$pkg/$file") bytes, $(gzip -9c "$pkg/$file" | wc -c) gzipped"
done
