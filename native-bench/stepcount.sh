#!/usr/bin/env bash
# Instructions of one parse, counted by stepping it in gdb: httpspan on the backend `tables` times
# (AVX-512 where the CPU has it), httpspan on AVX2, httparse and picohttpparser.
#
#   native-bench/stepcount.sh [INPUT...]     (default: the ten inputs of callgrind.sh)
#
# callgrind cannot count two of these: valgrind runs no AVX-512 and decodes no `pcmpestri`, which
# picohttpparser's SSE4.2 path uses. Here the CPU runs every instruction itself, and gdb stops
# after each one. Each figure is one warm call (the fourth) of a `traced_` function of
# native-bench/examples/profile.rs: reset, parse and check, as a `tables` row times one
# operation, with the call's own few instructions. The count of one call is exact and the same on
# every run; it is not an average. About a second per thousand instructions.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v gdb >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gdb; }
cargo build --quiet --release -p native-bench --example profile
bin=target/release/examples/profile
offsets=$(nm "$bin" | awk '/traced_(request|response|competitor)/ { print $1 }' | paste -sd,)
[ -n "$offsets" ] || { echo "error: no traced_ functions in $bin" >&2; exit 1; }

count() { # backend-or-empty parser:input -> instructions of one call
  local n
  n=$(env -u HTTPSPAN_BACKEND ${1:+HTTPSPAN_BACKEND="$1"} STEPCOUNT_OFFSETS="$offsets" \
    gdb -q -batch -nx -x native-bench/stepcount.py --args "$bin" "$2" 10 2>&1 | sed -n 's/^instructions //p')
  [ -n "$n" ] || { echo "error: gdb counted nothing for $2 (can it trace here? try: gdb -batch -ex run --args $bin $2 10)" >&2; exit 1; }
  echo "$n"
}

inputs=("$@")
[ ${#inputs[@]} -gt 0 ] || inputs=(request-small request-medium request-large response-small
  response-medium response-large request-small+body request-small+pipelined
  response-small+body response-small+pipelined)
best=$(env -u HTTPSPAN_BACKEND "$bin" --backend)
avx2=$(HTTPSPAN_BACKEND=avx2 "$bin" --backend)
echo "instructions of one parse (gdb stepping; $(rustc --version); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'))"
echo
echo "| input | httpspan ($best) | httpspan ($avx2) | httparse | picohttpparser | $best / httparse | $best / picohttpparser |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
for input in "${inputs[@]}"; do
  ours=$(count "" "httpspan:$input")
  on_avx2=$(count avx2 "httpspan:$input")
  httparse=$(count "" "httparse:$input")
  pico=$(count "" "pico:$input")
  ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
  echo "| $input | $ours | $on_avx2 | $httparse | $pico | $(ratio "$ours" "$httparse") | $(ratio "$ours" "$pico") |"
done
