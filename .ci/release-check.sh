#!/bin/sh
# What a reviewer does before the crate and the npm package are published, without publishing:
#   crate  package httpspan, unpack the .crate and run its tests and doctests from the package
#          alone (every feature, the packaged Cargo.lock)
#   docs   build its docs as docs.rs does (nightly, --cfg docsrs, the features of
#          [package.metadata.docs.rs]), warnings denied
#   msrv   check every feature on the rust-version toolchain, with the dependency versions an
#          MSRV-aware resolver picks and with the lowest versions Cargo.toml allows
#   npm    pack @httpspan/wasm, check the tarball with publint and attw, npm publish --dry-run
#   ci     lint .github/workflows with actionlint (go install, from the Go module proxy)
# Arguments pick steps (default: all). Needs the wasm package built (make wasm-build) for npm.
set -eu
cd "$(dirname "$0")/.."
root=$PWD
# Outside the workspace, so that the unpacked crate is a project of its own.
work=$(mktemp -d "${TMPDIR:-/tmp}/httpspan-release-check.XXXXXX")
trap 'rm -rf "$work"' EXIT
steps=${*:-crate docs msrv npm ci}

version=$(cargo metadata --no-deps --format-version 1 \
	| python3 -c 'import json,sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "httpspan"))')
crate="$work/httpspan-$version"

fail() {
	echo "release-check: $*" >&2
	exit 1
}

# The .crate, unpacked afresh. --no-verify: the crate step builds and tests it itself.
unpack() {
	[ -d "$crate" ] && return
	cargo package -p httpspan --allow-dirty --no-verify --quiet
	tar xzf "$root/target/package/httpspan-$version.crate" -C "$work"
	for file in LICENSE-MIT LICENSE-APACHE README.md Cargo.lock; do
		[ -s "$crate/$file" ] || fail "the .crate has no $file"
	done
	if grep -q 'example.invalid' "$crate/Cargo.toml"; then
		fail "the packaged Cargo.toml names a placeholder repository"
	fi
}

# A toml value of the unpacked crate, read by Python's tomllib.
toml() {
	python3 -c 'import sys, tomllib; d = tomllib.load(open(sys.argv[1], "rb"))
for key in sys.argv[2].split("."): d = d[key]
print(",".join(d) if isinstance(d, list) else d)' "$crate/Cargo.toml" "$1"
}

for step in $steps; do
	echo "== release-check: $step"
	case $step in
	crate)
		unpack
		# A target directory of its own, kept between runs; the path differs from the
		# workspace's, so the crate is rebuilt but its dependencies are not.
		(cd "$crate" && CARGO_TARGET_DIR="$root/target/release-check-build" \
			cargo test --locked --all-features --quiet)
		;;
	docs)
		unpack
		rustup run nightly rustc --version >/dev/null 2>&1 || rustup toolchain install nightly --profile minimal
		features=$(toml package.metadata.docs.rs.features)
		(cd "$crate" && CARGO_TARGET_DIR="$root/target/release-check-docs" \
			RUSTDOCFLAGS="--cfg docsrs -D warnings" \
			cargo +nightly doc --locked --no-deps --features "$features" --quiet)
		# The feature badges are there: a module behind a feature says which.
		grep -q 'Available on <strong>crate feature <code>tokio</code></strong> only' \
			"$root/target/release-check-docs/doc/httpspan/codec/index.html" \
			|| fail "docs.rs build: no feature badge on the codec module"
		;;
	msrv)
		unpack
		msrv=$(toml package.rust-version)
		rustup run "$msrv" rustc --version >/dev/null 2>&1 || rustup toolchain install "$msrv" --profile minimal
		rustup run nightly rustc --version >/dev/null 2>&1 || rustup toolchain install nightly --profile minimal
		cp -r "$crate" "$work/msrv"
		cd "$work/msrv"
		# The versions Cargo 1.84+ picks for a project on this toolchain (its lock file would
		# pick the newest tokio, which needs a newer Rust).
		rm -f Cargo.lock
		CARGO_RESOLVER_INCOMPATIBLE_RUST_VERSIONS=fallback cargo +stable generate-lockfile --quiet
		for features in --no-default-features "" "--features http" "--features tokio" --all-features; do
			echo "rust $msrv: cargo check $features"
			# shellcheck disable=SC2086 # $features is zero or more arguments
			CARGO_TARGET_DIR="$root/target/release-check-msrv" cargo "+$msrv" check --locked --lib $features --quiet
		done
		# The lowest versions of the dependencies (the dev-dependencies, which need newer ones,
		# left out: they do not reach users).
		python3 - <<-'EOF'
			import re
			text = open("Cargo.toml").read()
			tables = re.split(r"(?m)^(?=\[)", text)
			kept = [t for t in tables if not re.match(r"\[(target\.[^\]]*\.)?dev-dependencies", t)]
			open("Cargo.toml", "w").write("".join(kept))
		EOF
		cargo +nightly generate-lockfile -Z direct-minimal-versions --quiet 2>/dev/null
		echo "rust $msrv: cargo check --all-features, lowest dependency versions"
		CARGO_TARGET_DIR="$root/target/release-check-msrv" cargo "+$msrv" check --locked --lib --all-features --quiet
		cd "$root"
		;;
	npm)
		[ -f wasm/pkg/package.json ] || fail "no wasm/pkg: run make wasm-build first"
		tarball=$(cd wasm/pkg && npm pack --pack-destination "$work" --silent)
		tar tzf "$work/$tarball" >"$work/npm-files.txt"
		for file in LICENSE-MIT LICENSE-APACHE README.md package.json index.d.ts; do
			grep -qx "package/$file" "$work/npm-files.txt" || fail "the npm tarball has no $file"
		done
		wasm/node_modules/.bin/publint run --strict "$work/$tarball"
		# ESM only, as the README says: the CommonJS resolutions are not expected to work.
		wasm/node_modules/.bin/attw --profile esm-only "$work/$tarball"
		(cd wasm/pkg && npm publish --dry-run)
		;;
	ci)
		actionlint=$(command -v actionlint || echo "$root/target/tools/actionlint")
		if [ ! -x "$actionlint" ]; then
			go=$(command -v go || echo /usr/local/go/bin/go)
			[ -x "$go" ] || fail "actionlint is built with Go (go install): install Go or put actionlint on PATH"
			GOBIN="$root/target/tools" "$go" install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12
		fi
		"$actionlint" .github/workflows/*.yml
		;;
	*)
		fail "unknown step $step (crate, docs, msrv, npm, ci)"
		;;
	esac
done
echo "release-check: $steps passed"
