#!/usr/bin/env python3
"""Validate tests/vectors/*.jsonl.

1. Format (FORMAT.md): valid JSON Lines, known keys, unique ids, Latin-1
   inputs, request_method only on responses, the shape of `expect`; and our
   extension `options` (README.md): a non-empty list of distinct known
   lenient option names.
2. Cross-check (unless --no-model): every case is run through model.py, a
   small whole-input model of POLICY.md and docs/policy-decisions.md, and the
   fields each expectation names are compared. A disagreement means the
   vector or the model misreads the rules; fix whichever is wrong.

    python3 tests/vectors-gen/check.py [--no-model] [DIR]

Exit status 0 when everything passes.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import model  # noqa: E402

DEFAULT_DIR = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "vectors"))
CASE_KEYS = {"id", "kind", "input", "request_method", "expect", "why", "options"}
REQUIRED = {"id", "kind", "input", "expect", "why"}
GROUPS = {"decisions", "lines", "request-line", "fields", "limits", "framing", "chunked", "connection", "smuggling",
          "pipelining", "response", "bytes", "realistic", "lenient"}
MSG_KEYS = {
    "request": {"method", "target", "version", "headers", "body", "trailers", "content_length", "chunked", "keep_alive"},
    "response": {"version", "status", "reason", "headers", "body", "trailers", "content_length", "chunked", "keep_alive"},
}
TCHAR = set("!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


def latin1(v):
    return isinstance(v, str) and all(ord(c) <= 0xFF for c in v)


def check_fields_list(v, where, errs):
    if not isinstance(v, list):
        errs.append(where + ": not a list")
        return
    for f in v:
        if not (isinstance(f, list) and len(f) == 2 and all(latin1(x) for x in f)):
            errs.append(where + ": entry %r is not [name, value]" % (f,))
            continue
        name, value = f
        if not name:
            errs.append(where + ": empty field name")
        if value != value.strip(" \t"):
            errs.append(where + ": value %r is not trimmed of SP/HTAB" % value)


def check_message(kind, m, where, errs):
    if not m:
        errs.append(where + ": empty message object")
    for k in m:
        if k not in MSG_KEYS[kind]:
            errs.append(where + ": key %r not allowed in a %s message" % (k, kind))
    for k in ("method", "target", "reason", "body"):
        if k in m and not latin1(m[k]):
            errs.append(where + ": %s is not a Latin-1 string" % k)
    if "method" in m and not (m["method"] and all(c in TCHAR for c in m["method"])):
        errs.append(where + ": method is not a token")
    if "version" in m and m["version"] not in ("HTTP/1.0", "HTTP/1.1"):
        errs.append(where + ": bad version %r" % m["version"])
    if "status" in m and not (type(m["status"]) is int and 100 <= m["status"] <= 599):
        errs.append(where + ": bad status %r" % m["status"])
    for k in ("headers", "trailers"):
        if k in m:
            check_fields_list(m[k], where + "." + k, errs)
    if "content_length" in m:
        cl = m["content_length"]
        if not (cl is None or (type(cl) is int and 0 <= cl <= 2 ** 63 - 1)):
            errs.append(where + ": bad content_length %r" % cl)
    for k in ("chunked", "keep_alive"):
        if k in m and type(m[k]) is not bool:
            errs.append(where + ": %s is not a boolean" % k)


def check_case(case, where, errs):
    if not isinstance(case, dict):
        errs.append(where + ": not an object")
        return
    for k in case:
        if k not in CASE_KEYS:
            errs.append(where + ": unknown key %r" % k)
    for k in REQUIRED:
        if k not in case:
            errs.append(where + ": missing key %r" % k)
    if errs and any(e.startswith(where + ": missing") for e in errs):
        return
    cid = case["id"]
    parts = cid.split("/") if isinstance(cid, str) else []
    if len(parts) < 2 or not all(parts):
        errs.append(where + ": id %r is not /-separated" % cid)
    elif parts[0] not in GROUPS:
        errs.append(where + ": id group %r unknown" % parts[0])
    if case["kind"] not in ("request", "response"):
        errs.append(where + ": bad kind %r" % case["kind"])
        return
    if not latin1(case["input"]):
        errs.append(where + ": input has code points above U+00FF")
    if not (isinstance(case["why"], str) and "RFC " in case["why"]):
        errs.append(where + ": why must name the rule and an RFC section")
    if "options" in case:
        opts = case["options"]
        if not (isinstance(opts, list) and opts and all(o in model.OPTION_NAMES for o in opts)
                and len(set(opts)) == len(opts)):
            errs.append(where + ": options must be a non-empty list of distinct option names %r"
                        % (model.OPTION_NAMES,))
    rm = case.get("request_method")
    if "request_method" in case:
        if case["kind"] != "response":
            errs.append(where + ": request_method on a request")
        if not (isinstance(rm, list) and all(isinstance(x, str) and x and all(c in TCHAR for c in x) for x in rm)):
            errs.append(where + ": request_method is not a list of methods")
    exp = case["expect"]
    if exp == "reject":
        return
    if not isinstance(exp, list):
        errs.append(where + ": expect is neither \"reject\" nor a list")
        return
    finals = 0
    for i, o in enumerate(exp):
        w = "%s: expect[%d]" % (where, i)
        if o in ("reject", "incomplete"):
            if i != len(exp) - 1:
                errs.append(w + ": %s must be the last outcome" % o)
        elif isinstance(o, dict):
            check_message(case["kind"], o, w, errs)
            if rm is not None:
                if "status" not in o:
                    errs.append(w + ": responses with request_method must state each status")
                elif o["status"] >= 200:
                    finals += 1
        else:
            errs.append(w + ": bad outcome %r" % (o,))
    if rm is not None and finals > len(rm):
        errs.append(where + ": more final responses than request_method entries")


def compare(case):
    data = case["input"].encode("latin-1")
    got = model.run(case["kind"], data, case.get("request_method"), case.get("options", ()))
    exp = case["expect"]
    exp = ["reject"] if exp == "reject" else exp
    if len(got) != len(exp):
        return "outcomes %s, model %s" % (summ(exp), summ(got))
    for i, (e, g) in enumerate(zip(exp, got)):
        if isinstance(e, str) or isinstance(g, str):
            if e != g:
                return "outcome %d: expected %s, model %s" % (i, summ([e]), summ([g]))
            continue
        for k, v in e.items():
            if g.get(k) != v:
                return "outcome %d: %s expected %r, model %r" % (i, k, short(v), short(g.get(k)))
    return None


def short(v):
    r = repr(v)
    return r if len(r) < 120 else r[:117] + "..."


def summ(outs):
    return "[" + ", ".join(o if isinstance(o, str) else "msg" for o in outs) + "]"


def main(argv):
    use_model = "--no-model" not in argv
    args = [a for a in argv if not a.startswith("--")]
    d = args[0] if args else DEFAULT_DIR
    errs, mismatches = [], []
    ids = {}
    n = 0
    files = sorted(f for f in os.listdir(d) if f.endswith(".jsonl"))
    if not files:
        errs.append("no .jsonl files in " + d)
    for fn in files:
        raw = open(os.path.join(d, fn), "rb").read()
        try:
            text = raw.decode("ascii")
        except UnicodeDecodeError:
            errs.append(fn + ": not ASCII")
            text = raw.decode("utf-8", "replace")
        if not text.endswith("\n"):
            errs.append(fn + ": does not end with a newline")
        for ln, line in enumerate(text.split("\n")[:-1], 1):
            where = "%s:%d" % (fn, ln)
            try:
                case = json.loads(line)
            except ValueError as e:
                errs.append(where + ": invalid JSON (%s)" % e)
                continue
            n += 1
            check_case(case, where, errs)
            cid = case.get("id") if isinstance(case, dict) else None
            if isinstance(cid, str):
                if cid in ids:
                    errs.append(where + ": duplicate id %s (also %s)" % (cid, ids[cid]))
                ids[cid] = where
            if use_model and isinstance(case, dict) and REQUIRED <= set(case) and latin1(case.get("input")):
                try:
                    m = compare(case)
                except Exception as e:  # a model crash is a failure too
                    m = "model error: %r" % e
                if m:
                    mismatches.append("%s %s: %s" % (where, cid, m))
    for e in errs:
        print("FORMAT " + e)
    for m in mismatches:
        print("MODEL  " + m)
    print("%d cases in %d files; %d format errors; %s" % (
        n, len(files), len(errs), ("%d model disagreements" % len(mismatches)) if use_model else "model not run"))
    return 1 if errs or mismatches else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
