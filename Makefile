# httpspan: the two commands a new machine needs are `make inspect` and `make test`.
# Both install what is missing first and are safe to run again.

CARGO ?= cargo
# The message the inspector shows when no FILE is given.
FILE ?= core/testdata/request-large.http
VECTORS ?= tests/vectors

.PHONY: help inspect test setup fmt-check clippy rust-tests no-std doc conformance vectors-check \
	nightly-setup fuzz-setup fuzz fuzz-smoke conformance-matrix conformance-matrix-check miri

help:
	@echo "make inspect [FILE=path]   show how httpspan parses a raw HTTP/1.1 stream"
	@echo "make test                  run every check: fmt, clippy, tests, docs, conformance vectors"
	@echo "make fuzz [FUZZ_SECONDS=300] [FUZZ_TARGETS=...]  run the fuzz targets (nightly, cargo-fuzz)"
	@echo "make conformance-matrix    regenerate the smuggling matrix in docs/conformance.md"
	@echo "make miri                  run the core crate's tests under Miri (nightly)"

# Rust comes with rustup on these machines; add the components the checks use if they are
# missing (rustup is a no-op when they are present).
setup:
	@command -v $(CARGO) >/dev/null || { echo "error: cargo not found; install Rust with rustup first" >&2; exit 1; }
	@$(CARGO) fmt --version >/dev/null 2>&1 || rustup component add rustfmt
	@$(CARGO) clippy --version >/dev/null 2>&1 || rustup component add clippy

inspect: setup
	$(CARGO) run --quiet -p httpspan --example inspect -- $(FILE)

fmt-check: setup
	$(CARGO) fmt --all --check

clippy: setup
	$(CARGO) clippy --workspace --all-targets -- -D warnings

rust-tests: setup
	$(CARGO) test --workspace

# The crate must build without std (the `std` feature only adds std::error::Error).
no-std: setup
	$(CARGO) build -p httpspan --no-default-features

doc: setup
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

# The generated tables of docs/conformance.md (smuggling matrix, vectors per rule). The llhttp
# column comes from Node's built-in parser, so the check needs `node`.
conformance-matrix: setup
	$(CARGO) run --quiet -p conformance --example matrix -- docs/conformance.md

conformance-matrix-check: setup
	@command -v node >/dev/null || { echo "error: node is needed for the llhttp column of the smuggling matrix" >&2; exit 1; }
	$(CARGO) run --quiet -p conformance --example matrix -- --check docs/conformance.md

# The core crate's tests under Miri (nightly), which checks every memory access the scalar
# path makes; property tests run 3 cases each under Miri.
miri: nightly-setup
	@rustup component list --installed --toolchain $(NIGHTLY) | grep -q "^miri" || rustup component add miri rust-src --toolchain $(NIGHTLY)
	$(CARGO) +$(NIGHTLY) miri test -p httpspan

# Fuzzing (tests/fuzz/, its own cargo workspace, on nightly): each target runs for
# FUZZ_SECONDS from a seed corpus extracted from the vectors; `make test` runs each briefly.
# libFuzzer's output goes to tests/fuzz/logs/TARGET.log; its tail is shown on a failure.
FUZZ_SECONDS ?= 300
FUZZ_SMOKE_SECONDS ?= 30
FUZZ_TARGETS ?= request_head response_head chunked stream
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

test: fmt-check clippy rust-tests no-std doc vectors-check conformance conformance-matrix-check fuzz-smoke miri
