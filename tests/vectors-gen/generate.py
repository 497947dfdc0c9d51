#!/usr/bin/env python3
"""(Re)write every tests/vectors/*.jsonl file, deterministically.

    python3 tests/vectors-gen/generate.py      # write the vectors
    python3 tests/vectors-gen/generate.py DIR  # write them to DIR instead (to compare)
    python3 tests/vectors-gen/check.py         # validate them

Format: /work/shared/conformance/FORMAT.md. Rules: POLICY.md and
docs/policy-decisions.md (cited as "D<n>" in the `why` of each case).
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bytes_cases  # noqa: E402
import chunked  # noqa: E402
import connection  # noqa: E402
import decisions  # noqa: E402
import fields  # noqa: E402
import framing  # noqa: E402
import lenient  # noqa: E402
import limits  # noqa: E402
import lines  # noqa: E402
import pipelining  # noqa: E402
import realistic  # noqa: E402
import realistic_requests  # noqa: E402
import realistic_responses  # noqa: E402
import request_line  # noqa: E402
import response  # noqa: E402
import smuggling  # noqa: E402
from common import FILES  # noqa: E402

OUT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "vectors"))


def main(out=OUT):
    lines.gen_lines()
    request_line.gen_request_line()
    fields.gen_fields()
    limits.gen_limits()
    framing.gen_framing()
    chunked.gen_chunked()
    connection.gen_connection()
    smuggling.gen_smuggling()
    pipelining.gen_pipelining()
    response.gen_response()
    bytes_cases.gen_bytes()
    realistic.check_bench()
    realistic_requests.gen_realistic_requests()
    realistic_responses.gen_realistic_responses()
    decisions.gen_decisions()
    decisions.gen_truncated()
    lenient.gen_lenient()

    os.makedirs(out, exist_ok=True)
    wanted = set(name + ".jsonl" for name in FILES)
    for old in os.listdir(out):
        if old.endswith(".jsonl") and old not in wanted:
            os.remove(os.path.join(out, old))
    total = 0
    for name, cases in FILES.items():
        with open(os.path.join(out, name + ".jsonl"), "w", encoding="ascii", newline="\n") as f:
            for case in cases:
                f.write(json.dumps(case, ensure_ascii=True) + "\n")
        total += len(cases)
        print("%-28s %5d" % (name + ".jsonl", len(cases)))
    print("%-28s %5d" % ("total", total))
    for option, n in lenient.COUNTS.items():
        print("  %-26s %5d" % (option, n))


if __name__ == "__main__":
    main(*sys.argv[1:2])
