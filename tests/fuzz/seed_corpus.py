#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora from the conformance vectors.

usage: seed_corpus.py VECTORS_DIR CORPUS_DIR

Each vector's input seeds the head target of its kind, the backends target and the stream target (with the config
and piece bytes the stream target reads first); the bytes after the head of every chunked
message seed the chunked target. Files are named by content hash, so running it again adds
nothing. The corpora are not committed: they are derived data.
"""
import hashlib
import json
import os
import sys


def put(corpus, target, data):
    d = os.path.join(corpus, target)
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, hashlib.sha1(data).hexdigest())
    if not os.path.exists(path):
        with open(path, "wb") as f:
            f.write(data)


def main():
    vectors, corpus = sys.argv[1], sys.argv[2]
    count = 0
    for name in sorted(os.listdir(vectors)):
        if not name.endswith(".jsonl"):
            continue
        with open(os.path.join(vectors, name), encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    continue
                case = json.loads(line)
                data = case["input"].encode("latin-1")
                response = case["kind"] == "response"
                put(corpus, "response_head" if response else "request_head", data)
                put(corpus, "backends", data)
                methods = case.get("request_method") or ["GET"]
                method = {"HEAD": 1, "CONNECT": 2}.get(methods[0], 0)
                # Config byte, then no piece lengths: the fuzzer adds them.
                put(corpus, "stream", bytes([int(response) | method << 1, 0]) + data)
                # The codec target reads the same config and piece bytes.
                put(corpus, "codec", bytes([int(response) | method << 1, 0]) + data)
                head_end = data.find(b"\r\n\r\n")
                if head_end >= 0 and b"chunked" in data[:head_end].lower():
                    put(corpus, "chunked", data[head_end + 4:])
                count += 1
    # The writer target reads its bytes as a script of calls, not as a message: no seeds.
    os.makedirs(os.path.join(corpus, "writer"), exist_ok=True)
    print(f"seeded {corpus} from {count} vectors")


if __name__ == "__main__":
    main()
