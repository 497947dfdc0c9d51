#!/bin/sh
# Builds the compare view's other parsers into playground/parsers/dist/ (not in git), each
# from its published source: httparse from crates.io (the httparse-wasm crate beside this
# file), picohttpparser from the C source the picohttpparser-sys crate bundles (found through
# `cargo metadata`, compiled with Debian's clang and linked with wasm-ld against wasi-libc),
# and Go's net/http (go/, GOOS=js GOARCH=wasm, with the wasm_exec.js of the same Go).
# Installs what is missing (wasm32 target, clang, lld, wasi-libc, Go); safe to run again.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out="$here/dist"
mkdir -p "$out"
CARGO=${CARGO:-cargo}

apt_install() {
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
}

# httparse: the version Cargo.lock pins for httparse-wasm.
rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
# Without debug info: 30 KB instead of 1.5 MB (the workspace keeps debug info in release).
(cd "$root" && CARGO_PROFILE_RELEASE_DEBUG=0 CARGO_PROFILE_RELEASE_STRIP=true $CARGO build --release --target wasm32-unknown-unknown -p httparse-wasm)
cp "$root/target/wasm32-unknown-unknown/release/httparse_wasm.wasm" "$out/httparse.wasm"
meta=$(cd "$root" && $CARGO metadata --format-version 1)
version_of() { # the version Cargo resolved for a package of the workspace's graph
	printf '%s' "$meta" | python3 -c 'import json,sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"]==sys.argv[1]))' "$1"
}
httparse_version=$(version_of httparse)

# picohttpparser: the C file inside the crates.io crate native-bench depends on.
command -v clang >/dev/null && command -v wasm-ld >/dev/null && [ -f /usr/lib/wasm32-wasi/libc.a ] \
	|| apt_install clang lld wasi-libc
pico_manifest=$(printf '%s' "$meta" | python3 -c 'import json,sys; print(next(p["manifest_path"] for p in json.load(sys.stdin)["packages"] if p["name"]=="picohttpparser-sys"))')
pico_src="$(dirname "$pico_manifest")/deps/picohttpparser"
pico_version=$(version_of picohttpparser-sys)
clang --target=wasm32-wasi --sysroot=/usr -O2 -c "$pico_src/picohttpparser.c" -o "$out/picohttpparser.o"
wasm-ld --no-entry --export=phr_parse_request --export=phr_parse_response --export=phr_parse_headers \
	--export=phr_decode_chunked --export=malloc --export=free -L/usr/lib/wasm32-wasi \
	/usr/lib/wasm32-wasi/crt1-reactor.o "$out/picohttpparser.o" -lc -o "$out/picohttpparser.wasm"  # imports: three WASI stdio calls, stubbed by the page
rm "$out/picohttpparser.o"
clang_version=$(clang --version | sed -n '1s/.*clang version \([0-9.]*\).*/\1/p')

# Go: the image's Go, else Debian's.
GO=${GO:-}
[ -n "$GO" ] || { [ -x /usr/local/go/bin/go ] && GO=/usr/local/go/bin/go; } || true
[ -n "$GO" ] || GO=$(command -v go || true)
[ -n "$GO" ] || { apt_install golang-go && GO=$(command -v go); }
goroot=$("$GO" env GOROOT)
exec_js="$goroot/lib/wasm/wasm_exec.js"
[ -f "$exec_js" ] || exec_js="$goroot/misc/wasm/wasm_exec.js" # Go before 1.24
(cd "$here/go" && GOOS=js GOARCH=wasm GOFLAGS=-mod=mod "$GO" build -trimpath -ldflags="-s -w" -o "$out/go.wasm" .)
cp "$exec_js" "$out/wasm_exec.js"
go_version=$("$GO" env GOVERSION)

cat >"$out/versions.json" <<JSON
{
  "httparse": { "version": "$httparse_version", "builtFrom": "crates.io httparse $httparse_version, Rust for wasm32-unknown-unknown" },
  "picohttpparser": { "version": "picohttpparser-sys $pico_version", "builtFrom": "the C source bundled in crates.io picohttpparser-sys $pico_version, clang $clang_version for wasm32-wasi, wasi-libc" },
  "go": { "version": "$go_version", "builtFrom": "net/http of $go_version, GOOS=js GOARCH=wasm, run with its wasm_exec.js" }
}
JSON
echo "parsers built into $out"
