# httpspan: the two commands a new machine needs are `make playground` and `make test`.
# Both install what is missing first and are safe to run again.

CARGO ?= cargo
# The message the inspector shows when no FILE is given.
FILE ?= core/testdata/request-large.http
VECTORS ?= tests/vectors

.PHONY: help playground playground-dev playground-build playground-parsers playground-test playground-traffic-test capture inspect test setup fmt-check clippy rust-tests no-std doc conformance vectors-check \
	test-backends test-neon test-simd128 bench callgrind stepcount \
	wasm-build wasm-vectors wasm-test wasm-pack-test wasm-browser bench-wasm \
	nightly-setup fuzz-setup fuzz fuzz-smoke conformance-matrix conformance-matrix-check miri \
	feature-tests bench-server bench-doc bench-doc-check bench-wasm-record fault-suite fault-suite-brief \
	release-check msrv

help:
	@echo "make playground            build the wasm package and the playground, serve it on http://127.0.0.1:5173/"
	@echo "make playground-dev        the playground with Vite's dev server (reloads on edits)"
	@echo "make inspect [FILE=path] [LENIENT='bare_lf obs_fold']   show how httpspan parses a raw HTTP/1.1 stream"
	@echo "make capture CAPTURE=file.pcap [CAPTURE_FLAGS='--json --check']   every HTTP/1.1 message of a capture, as each parser frames it"
	@echo "make test                  run every check: fmt, clippy, tests, docs, conformance vectors, wasm package, fuzz, Miri"
	@echo "make bench                 benchmark tables against httparse and picohttpparser"
	@echo "make bench-doc             render docs/performance.md's tables from native-bench/results/ (tables --record writes the native one)"
	@echo "make callgrind             instructions per parse under callgrind, against httparse"
	@echo "make stepcount             one parse's instructions stepped in gdb: AVX-512, AVX2, httparse, picohttpparser"
	@echo "make bench-server          the tokio example server against hyper under wrk, and a compliance table"
	@echo "make fault-suite           slow and hostile clients against the example servers and the proxy, default deadlines (about 10 min)"
	@echo "make wasm-build            build the npm package @httpspan/wasm into wasm/pkg/"
	@echo "make bench-wasm            benchmark the wasm package against llhttp (undici) and Node's parser: Node, Chromium, workerd"
	@echo "make bench-wasm-record     record a Node run of the wasm bench in native-bench/results/ (then make bench-doc)"
	@echo "make fuzz [FUZZ_SECONDS=300] [FUZZ_TARGETS=...]  run the fuzz targets (nightly, cargo-fuzz)"
	@echo "make conformance-matrix    regenerate the smuggling matrix in docs/conformance.md"
	@echo "make miri                  run the core crate's tests under Miri (nightly)"
	@echo "make release-check         package the crate and the npm package and check them as a reviewer would (part of test)"

# Rust comes with rustup on these machines; add the components the checks use if they are
# missing (rustup is a no-op when they are present).
setup:
	@command -v $(CARGO) >/dev/null || { echo "error: cargo not found; install Rust with rustup first" >&2; exit 1; }
	@$(CARGO) fmt --version >/dev/null 2>&1 || rustup component add rustfmt
	@$(CARGO) clippy --version >/dev/null 2>&1 || rustup component add clippy

inspect: setup
	$(CARGO) run --quiet -p httpspan --example inspect -- $(foreach o,$(LENIENT),--lenient $(o)) $(FILE)

fmt-check: setup
	$(CARGO) fmt --all --check

clippy: setup
	$(CARGO) clippy --workspace --all-targets -- -D warnings

rust-tests: setup
	$(CARGO) test --workspace

# The crate must build without std (the `std` feature only adds std::error::Error).
no-std: setup
	$(CARGO) build -p httpspan --no-default-features

# The docs contributors read (private items), whose links must hold too, then the docs users
# read, which are the ones left in target/doc.
doc: setup
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --workspace --no-deps --document-private-items
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --workspace --no-deps

conformance: setup
	$(CARGO) run --release -p conformance -- $(VECTORS)

# The vectors are generated: check that the committed files are exactly what the generator
# writes, and that a separate Python model of the policy agrees with every expectation.
vectors-check:
	@command -v python3 >/dev/null || { echo "error: python3 is needed to check the vectors" >&2; exit 1; }
	@tmp=$$(mktemp -d) && python3 tests/vectors-gen/generate.py $$tmp >/dev/null \
		&& diff -r $$tmp $(VECTORS) && rm -rf $$tmp \
		&& echo "tests/vectors match tests/vectors-gen/generate.py"
	python3 tests/vectors-gen/check.py

# Not part of `test`: timings are not tests. See docs/performance.md.
bench: setup
	$(CARGO) run --release -p native-bench --bin tables

# The tables of docs/performance.md are rendered from the recorded runs in native-bench/results/
# (`tables --record`, `make bench-wasm-record`); the check is part of `test`.
bench-doc: setup
	$(CARGO) run --quiet -p native-bench --bin tables -- --render-doc docs/performance.md

bench-doc-check: setup
	$(CARGO) run --quiet -p native-bench --bin tables -- --check-doc docs/performance.md

# Instructions per parse under callgrind, httpspan against httparse (and the byte-by-byte feed):
# figures that do not move with the machine's load. Not part of `test` either.
callgrind: setup
	native-bench/callgrind.sh

# One parse's instructions counted by stepping it in gdb, on the backends valgrind cannot run
# (AVX-512) and for picohttpparser, which valgrind cannot decode. Not part of `test` either.
stepcount: setup
	native-bench/stepcount.sh

# The optional `tokio`, `http` and `tower` features of the core crate: clippy, docs and their
# tests (the codec and conversion doctests, the round trip through `http` types, the tokio
# example server and an axum app served by `serve` over 127.0.0.1). The crate's
# other tests run in rust-tests; Miri and the no_std build stay without these features.
HTTPSPAN_FEATURES := tokio,http,tower
feature-tests: setup
	$(CARGO) clippy -p httpspan --all-targets --features $(HTTPSPAN_FEATURES) -- -D warnings
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc -p httpspan --no-deps --features $(HTTPSPAN_FEATURES)
	$(CARGO) test -p httpspan --features $(HTTPSPAN_FEATURES) --doc
	$(CARGO) test -p httpspan --features $(HTTPSPAN_FEATURES) --lib --test tokio_server --test codec --test client \
		--test proxy --test to_http --test http_round_trip --test serve_axum --test deadlines \
		--test serve_deadlines --test serve_upgrades --test error_chain --examples

# Not part of `test`: the tokio example server (core/examples/tokio_server.rs) against a hyper
# 1.x server (server-bench/) under wrk, then the same malformed requests sent to both, then the
# example reverse proxy (core/examples/proxy.rs) against one on hyper's client and server, both
# in front of the hyper server. About 5 minutes; BENCH_SERVER_ARGS="--duration 2 --rounds 1" for a quick look. See
# docs/performance.md. wrk is Debian's package, installed when missing.
TARGET_DIR ?= $(or $(CARGO_TARGET_DIR),target)
BENCH_SERVER_ARGS ?=
bench-server: setup
	@command -v wrk >/dev/null || { apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; }
	@command -v python3 >/dev/null || { echo "error: python3 is needed to run the benchmark" >&2; exit 1; }
	$(CARGO) build --release -p server-bench --bin hyper_server --bin hyper_proxy
	$(CARGO) build --release -p httpspan --features tokio --example tokio_server --example proxy
	python3 server-bench/bench.py --httpspan $(TARGET_DIR)/release/examples/tokio_server \
		--hyper $(TARGET_DIR)/release/hyper_server \
		--proxy-httpspan $(TARGET_DIR)/release/examples/proxy \
		--proxy-hyper $(TARGET_DIR)/release/hyper_proxy $(BENCH_SERVER_ARGS)

# The fault suite (server-bench/fault_suite.py, docs/server.md): slowloris, idle and slow
# clients, a client that never reads, lingering, draining, a chunk-extension flood, descriptor
# exhaustion, half-close, resets and smuggling, against the tokio example server, the axum
# example on serve_connection and the proxy, on 127.0.0.1. `fault-suite-brief` (part of
# `test`, about a minute) shortens every deadline to 2 s through the examples' HTTPSPAN_*
# variables; `fault-suite` runs them with their defaults, release builds (about 10 minutes).
FAULT_EXAMPLES = --example tokio_server --example axum_server --example proxy
fault-suite-brief: setup
	@command -v python3 >/dev/null || { echo "error: python3 is needed for the fault suite" >&2; exit 1; }
	$(CARGO) build -p httpspan --features $(HTTPSPAN_FEATURES) $(FAULT_EXAMPLES)
	python3 server-bench/fault_suite.py --brief --tokio $(TARGET_DIR)/debug/examples/tokio_server \
		--axum $(TARGET_DIR)/debug/examples/axum_server --proxy $(TARGET_DIR)/debug/examples/proxy

fault-suite: setup
	@command -v python3 >/dev/null || { echo "error: python3 is needed for the fault suite" >&2; exit 1; }
	$(CARGO) build --release -p httpspan --features $(HTTPSPAN_FEATURES) $(FAULT_EXAMPLES)
	python3 server-bench/fault_suite.py --tokio $(TARGET_DIR)/release/examples/tokio_server \
		--axum $(TARGET_DIR)/release/examples/axum_server --proxy $(TARGET_DIR)/release/examples/proxy

# SIMD: rust-tests and conformance above use the best backend of this CPU; run both again with
# each other backend it can run (HTTPSPAN_BACKEND picks one), and the core's tests with NEON
# (aarch64 under qemu-user) and SIMD128 (wasm32-wasip1 under Node's WASI).
test-backends: setup
	@default=$$($(CARGO) run -q --release -p conformance -- --list-backends | tail -n 1) \
	&& for backend in $$($(CARGO) run -q --release -p conformance -- --list-backends); do \
		[ "$$backend" = "$$default" ] && continue; \
		echo "== backend $$backend"; \
		HTTPSPAN_BACKEND=$$backend $(CARGO) test -q --workspace || exit 1; \
		HTTPSPAN_BACKEND=$$backend $(CARGO) run -q --release -p conformance -- $(VECTORS) || exit 1; \
	done

test-neon: setup
	@rustup target list --installed | grep -qx aarch64-unknown-linux-gnu \
		|| rustup target add aarch64-unknown-linux-gnu
	@dpkg -s gcc-aarch64-linux-gnu qemu-user >/dev/null 2>&1 || { apt-get update -qq \
		&& DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc-aarch64-linux-gnu qemu-user; }
	$(CARGO) test -p httpspan --target aarch64-unknown-linux-gnu --lib

test-simd128: setup
	@command -v node >/dev/null || { echo "error: node (20 or later) is needed for the wasm tests" >&2; exit 1; }
	@rustup target list --installed | grep -qx wasm32-wasip1 || rustup target add wasm32-wasip1
	$(CARGO) test -p httpspan --target wasm32-wasip1 --lib


# The wasm package (wasm/): built into wasm/pkg/ only when its sources changed. wasm/build.sh
# installs what is missing (wasm32 target, wasm-bindgen-cli, node_modules).
WASM_SOURCES := $(shell find core/src wasm/src wasm/js -type f) wasm/Cargo.toml wasm/build.sh \
	wasm/package-lock.json Cargo.toml Cargo.lock .cargo/config.toml
wasm/node_modules/.package-lock.json: wasm/package.json wasm/package-lock.json
	cd wasm && npm install --no-audit --no-fund
	touch $@

wasm/pkg/package.json: $(WASM_SOURCES) wasm/node_modules/.package-lock.json
	sh wasm/build.sh

wasm-build: wasm/pkg/package.json

# The conformance vectors through the wasm package, in the three feeding modes.
wasm-vectors: wasm-build
	node tests/wasm/run-vectors.mjs $(VECTORS)

# Headless Chromium and its chromedriver for the package's browser tests: Debian's packages, installed when missing
# (about 40 s once; apt-get needs root).
wasm-browser:
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || { apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver; }

# The package's Node tests: the JS API, SIMD128, parity with native, http round trip, workerd,
# a Vite build loaded in Chromium.
wasm-test: wasm-build wasm-browser
	cd wasm && node --test test/

# The tests that run inside the module (wasm/src/in_module_tests.rs, wasm-bindgen-test) as the
# design card's users run them: wasm-pack test in Node, then in headless Chromium through
# Debian's chromedriver (WASM_BINDGEN_USE_BROWSER picks the browser for the same tests;
# wasm/webdriver.json gives Chromium the flags it needs as root). --mode no-install: wasm-pack
# takes wasm-bindgen-test-runner from PATH, which wasm-build installed with wasm-bindgen.
wasm-pack-test: wasm-build wasm-browser
	cd wasm && wasm-pack test --mode no-install --node
	cd wasm && WASM_BINDGEN_USE_BROWSER=1 wasm-pack test --mode no-install --headless --chrome \
		--chromedriver "$$(command -v chromedriver)"

# The playground (playground/): Vite + Svelte 5 over the wasm package, which is a file:
# dependency, so it is built first. `make playground` serves the production build (what a
# static host serves; offline once loaded); `make playground-dev` the dev server.
PLAYGROUND_PORT ?= 5173
PLAYGROUND_SOURCES := $(shell find playground/src playground/vite-plugins -type f 2>/dev/null) \
	playground/index.html playground/vite.config.ts playground/tsconfig.json
playground/node_modules/.package-lock.json: playground/package.json playground/package-lock.json | wasm/pkg/package.json
	cd playground && npm install --no-audit --no-fund
	touch $@

# The compare view's other parsers (httparse, picohttpparser, Go's net/http) compiled to wasm
# from their published sources into playground/parsers/dist/; playground/parsers/build.sh
# installs what is missing (clang, lld, wasi-libc, Go).
PARSER_SOURCES := playground/parsers/build.sh playground/parsers/go/main.go playground/parsers/go/go.mod \
	playground/parsers/httparse/Cargo.toml playground/parsers/httparse/src/lib.rs Cargo.lock
playground/parsers/dist/versions.json: $(PARSER_SOURCES)
	sh playground/parsers/build.sh

playground-parsers: playground/parsers/dist/versions.json

playground/dist/index.html: $(PLAYGROUND_SOURCES) playground/node_modules/.package-lock.json wasm/pkg/package.json playground/parsers/dist/versions.json
	cd playground && npx vite build

playground-build: playground/dist/index.html

playground: playground-build
	@echo "the playground: http://127.0.0.1:$(PLAYGROUND_PORT)/ (Ctrl+C stops it)"
	cd playground && npx vite preview --host 127.0.0.1 --port $(PLAYGROUND_PORT)

playground-dev: wasm-build playground/node_modules/.package-lock.json playground-parsers
	cd playground && npx vite --host 127.0.0.1 --port $(PLAYGROUND_PORT)

# Type checks (svelte-check), the Vitest unit tests, then the Playwright suite in Debian's
# Chromium against the built site; screenshots go to playground/test-results/.
playground-test: playground-build wasm-browser
	cd playground && npx svelte-check --tsconfig ./tsconfig.json --fail-on-warnings --threshold warning
	cd playground && npx vitest run
	cd playground && npx playwright test

# Real traffic on lo: tcpdump (as root) records curl, Python's http.client, Node's fetch, a
# pipelining client and a raw CL+TE request; the capture view's code must read back what each
# client says it sent and received.
playground-traffic-test: playground-build
	@command -v tcpdump >/dev/null || { apt-get update && apt-get install -y tcpdump; }
	@command -v curl >/dev/null || { apt-get update && apt-get install -y curl; }
	cd playground && npx vitest run --config vitest.traffic.config.ts

# The capture view in a terminal (playground/cli/capture.ts): one line per HTTP/1.1 message.
capture: playground-build
	@test -n "$(CAPTURE)" || { echo "usage: make capture CAPTURE=file.pcap [CAPTURE_FLAGS='--json --check']" >&2; exit 1; }
	cd playground && npx tsx cli/capture.ts $(CAPTURE_FLAGS) $(abspath $(CAPTURE))

# Not a test: parses ../shared/bench-inputs with httpspan's wasm, undici's llhttp wasm and Node's
# own parser, interleaved, and prints ns/op and ratios: in Node, in headless Chromium, in workerd.
bench-wasm: wasm-build wasm-browser
	node wasm/bench/bench.mjs
	node wasm/bench/chromium.mjs
	node wasm/bench/workerd.mjs

# Not a test either: one Node run of the wasm bench recorded as native-bench/results/wasm-node.json,
# the data of docs/performance.md's wasm table (`make bench-doc` renders it).
bench-wasm-record: wasm-build
	node native-bench/record-wasm.mjs


# The generated tables of docs/conformance.md (smuggling matrix, vectors per rule). The llhttp
# column comes from Node's built-in parser, so the check needs `node`.
conformance-matrix: setup
	$(CARGO) run --quiet -p conformance --example matrix -- docs/conformance.md

conformance-matrix-check: setup
	@command -v node >/dev/null || { echo "error: node is needed for the llhttp column of the smuggling matrix" >&2; exit 1; }
	$(CARGO) run --quiet -p conformance --example matrix -- --check docs/conformance.md

# The core crate's tests under Miri (nightly), which checks every memory access the portable
# paths make (the SWAR engine, and the scalar reference where a test asks for it); property
# tests run 3 cases each under Miri.
miri: nightly-setup
	@rustup component list --installed --toolchain $(NIGHTLY) | grep -q "^miri" || rustup component add miri rust-src --toolchain $(NIGHTLY)
	$(CARGO) +$(NIGHTLY) miri test -p httpspan

# Fuzzing (tests/fuzz/, its own cargo workspace, on nightly): each target runs for
# FUZZ_SECONDS from a seed corpus extracted from the vectors; `make test` runs each briefly.
# libFuzzer's output goes to tests/fuzz/logs/TARGET.log; its tail is shown on a failure.
FUZZ_SECONDS ?= 300
FUZZ_SMOKE_SECONDS ?= 30
FUZZ_TARGETS ?= request_head response_head chunked stream backends writer codec
# Inputs up to 16 KiB: past the 8 KiB head limit; the small limits the targets also use reach
# the trailer and chunk-ext limits. (Seeds of 64 KiB would slow every run by 10.)
FUZZ_MAX_LEN ?= 16384
NIGHTLY ?= nightly

nightly-setup:
	@rustup run $(NIGHTLY) rustc --version >/dev/null 2>&1 || rustup toolchain install $(NIGHTLY) --profile minimal

fuzz-setup: nightly-setup
	@$(CARGO) fuzz --version >/dev/null 2>&1 || $(CARGO) install cargo-fuzz
	@python3 tests/fuzz/seed_corpus.py $(VECTORS) tests/fuzz/corpus
	$(CARGO) +$(NIGHTLY) fuzz build --fuzz-dir tests/fuzz

fuzz: fuzz-setup
	@mkdir -p tests/fuzz/logs
	@for t in $(FUZZ_TARGETS); do \
		log=tests/fuzz/logs/$$t.log; \
		$(CARGO) +$(NIGHTLY) fuzz run --fuzz-dir tests/fuzz $$t -- \
			-max_total_time=$(FUZZ_SECONDS) -max_len=$(FUZZ_MAX_LEN) -print_final_stats=1 >$$log 2>&1 \
			|| { tail -n 40 $$log; echo "fuzz target $$t failed: see $$log" >&2; exit 1; }; \
		echo "fuzz $$t: $$(grep -o 'number_of_executed_units: *[0-9]*' $$log | grep -o '[0-9]*$$') runs in $(FUZZ_SECONDS) s, no failure"; \
	done

fuzz-smoke:
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(FUZZ_SMOKE_SECONDS)


# What a reviewer does before a publish (.ci/release-check.sh says each step): the .crate
# unpacked and tested alone (every feature, doctests included), its docs built as docs.rs
# builds them, every feature checked on the rust-version toolchain (rustup installs it) with
# MSRV-resolved and with the lowest allowed dependency versions, and the npm tarball through
# publint, attw and npm publish --dry-run. Nothing is published.
release-check: setup wasm-build
	sh .ci/release-check.sh

# The MSRV step alone (CI's msrv job).
msrv: setup
	sh .ci/release-check.sh msrv

test: fmt-check clippy rust-tests feature-tests fault-suite-brief no-std doc vectors-check conformance test-backends test-neon \
	test-simd128 wasm-vectors wasm-test wasm-pack-test playground-test playground-traffic-test conformance-matrix-check bench-doc-check fuzz-smoke miri release-check
