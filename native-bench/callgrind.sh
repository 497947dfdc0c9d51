#!/usr/bin/env bash
# Instructions per parse under callgrind, httpspan against httparse, on the six shared inputs.
#
#   native-bench/callgrind.sh [PARSER...]      (default: httpspan httparse feed)
#
# Each figure is the difference between a run of 12,000 parses and one of 2,000, divided by
# 10,000, so start-up and the first parse's cold misses cancel out. Instruction counts do not
# move with the machine's load: two runs of the same binary give the same table. `feed` is
# httpspan fed one byte more per call (the byte-by-byte row), divided the same way.
# The last four rows are the small heads followed by 1 KiB of body and by a second copy of the
# message (pipelined), parsed up to the head's end.
# picohttpparser cannot be counted: valgrind does not decode its SSE4.2 string instructions.
# Nor does valgrind run AVX-512, and it hides it from the CPU detection: on a CPU with AVX-512,
# the counts are those of the AVX2 backend, while `tables` times the AVX-512 one.
#
#   native-bench/callgrind.sh --annotate INPUT   (e.g. request-medium)
#
# Where INPUT's instructions go instead: 10,000 httpspan parses under callgrind with the line
# tables of the release profile (`debug = 1`), printed by source file and function, then by
# source line of the core (callgrind_annotate); divide by 10,000 for instructions per parse.
# The profile's file stays in target/callgrind.INPUT.out for callgrind_annotate or KCachegrind.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind; }
cargo build --quiet --release -p native-bench --example profile
bin=target/release/examples/profile
if [ "${1:-}" = --annotate ]; then
  out=target/callgrind.${2:?usage: callgrind.sh --annotate INPUT}.out
  valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file="$out" "$bin" "$2" 10000 2>&1 \
    | grep refs
  callgrind_annotate "$out" | sed -n '/file:function/,/^$/p' | awk 'NR <= 40'
  # The core's source lines that run at least once per parse.
  callgrind_annotate --auto=yes --show-percs=no "$out" \
    | awk '/Auto-annotated source: core\/src/ { print; show = 1; next }
           /Auto-annotated source:/ { show = 0 }
           show && $1 ~ /^[0-9,]+$/ { n = $1; gsub(",", "", n); if (n >= 10000) print }'
  exit 0
fi
parsers=("$@")
[ ${#parsers[@]} -gt 0 ] || parsers=(httpspan httparse feed)

refs() { # parser input count -> instructions of the whole run
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$1:$2" "$3" 2>&1 \
    | sed -n 's/.*refs: *\([0-9,]*\).*/\1/p' | tr -d ,
}

echo "instructions per parse (callgrind; $(rustc --version); backend ${HTTPSPAN_BACKEND:-best of this CPU without AVX-512})"
echo
printf '| input |'; printf ' %s |' "${parsers[@]}"; echo
printf '| --- |'; for _ in "${parsers[@]}"; do printf ' ---: |'; done; echo
for input in request-small request-medium request-large response-small response-medium response-large \
  request-small+body request-small+pipelined response-small+body response-small+pipelined; do
  printf '| %s |' "$input"
  for parser in "${parsers[@]}"; do
    if [ "$parser" = feed ] && { [ "${input#request}" = "$input" ] || [ "${input%+*}" != "$input" ]; }; then
      printf ' |'; continue
    fi
    few=$(refs "$parser" "$input" 2000)
    many=$(refs "$parser" "$input" 12000)
    printf ' %d |' $(( (many - few) / 10000 ))
  done
  echo
done
