"""What the realistic cases share: the six bench heads (checked against the shared inputs),
headers of real browsers, compressed bodies and the case helpers. The cases are in
realistic_requests.py and realistic_responses.py, with full expectations built by
common.request / common.response."""

import base64
import json
import os

from common import add, b2s

BENCH_DIR = "/work/shared/bench-inputs"

# The six bench heads, copied so that generation does not depend on the shared
# directory; check_bench() verifies the copies when that directory exists.
BENCH = {
    "request-small": "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n",
    "request-medium": (
        "POST /v1/messages HTTP/1.1\r\n"
        "Host: api.example.com\r\n"
        "Authorization: Bearer sk-live-7f3a9c2e41b04d8a9e6f1c3b5a7d9e2fxxxxxxxxxxxxxxxxxxxxxxxxxx\r\n"
        "Content-Type: application/json\r\n"
        "Content-Length: 1524\r\n"
        "Accept: text/event-stream\r\n"
        "User-Agent: agent-sdk-python/1.42.0\r\n"
        "X-Request-Id: 0f8e2c6a-91d4-4b7e-a3c5-6d2f8b1e9a47\r\n"
        "Anthropic-Version: 2023-06-01\r\n"
        "Connection: keep-alive\r\n\r\n"),
    "request-large": (
        "POST /api/v2/projects/42/runs?stream=true HTTP/1.1\r\n"
        "Host: gw.example.com:8443\r\n"
        "User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Firefox/132.0\r\n"
        "Accept: */*\r\n"
        "Accept-Language: en-US,en;q=0.9\r\n"
        "Accept-Encoding: gzip, br, zstd\r\n"
        "Content-Type: application/json\r\n"
        "Content-Length: 2048\r\n"
        "Origin: https://app.example.com\r\n"
        "Referer: https://app.example.com/projects/42\r\n"
        "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.c2lnxxxx\r\n"
        "Cookie: session=8b1e9a47f0d4\r\n"
        "X-Request-Id: 3d6c1b2a-7e8f-4a90-b1c2-d3e4f5a6b7c8\r\n"
        "X-Forwarded-For: 203.0.113.7\r\n"
        "X-Forwarded-Proto: https\r\n"
        "Cache-Control: no-cache\r\n"
        "DNT: 1\r\n"
        "Sec-Fetch-Mode: cors\r\n"
        "Sec-Fetch-Site: same-site\r\n"
        "Traceparent: 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01\r\n"
        "Connection: keep-alive\r\n\r\n"),
    "response-small": "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n",
    "response-medium": (
        "HTTP/1.1 200 OK\r\n"
        "Date: Sun, 22 Nov 2026 10:00:00 GMT\r\n"
        "Content-Type: text/event-stream; charset=utf-8\r\n"
        "Cache-Control: no-cache\r\n"
        "DNT: 1\r\n"
        "Connection: keep-alive\r\n"
        "Transfer-Encoding: chunked\r\n"
        "X-Request-Id: 0f8e2c6a-91d4-4b7e-a3c5-6d2f8b1e9a47xxxxxxxxxxxxxxxxxx\r\n"
        "Server: edge/2.4\r\n"
        "Vary: Accept-Encoding\r\n\r\n"),
    "response-large": (
        "HTTP/1.1 200 OK\r\n"
        "Date: Sun, 22 Nov 2026 10:00:00 GMT\r\n"
        "Server: edge/2.4\r\n"
        "Content-Type: application/json; charset=utf-8\r\n"
        "Content-Length: 48213\r\n"
        "Connection: keep-alive\r\n"
        "Cache-Control: private, max-age=0, must-revalidate\r\n"
        "ETag: W/\"bc2d-1c9f0e2a7b3\"\r\n"
        "Vary: Accept-Encoding, Origin\r\n"
        "Access-Control-Allow-Origin: https://app.example.com\r\n"
        "Access-Control-Allow-Credentials: true\r\n"
        "Strict-Transport-Security: max-age=63072000; includeSubDomains\r\n"
        "X-Content-Type-Options: nosniff\r\n"
        "X-Frame-Options: DENY\r\n"
        "Referrer-Policy: strict-origin-when-cross-origin\r\n"
        "Set-Cookie: session=8b1e9a47f0d4; Path=/; HttpOnly; Secure\r\n"
        "X-Request-Id: 3d6c1b2a-7e8f-4a90-b1c2-d3e4f5a6b7c8xxxxxxxxxxxx\r\n"
        "Server-Timing: db;dur=12.4, app;dur=31.9\r\n"
        "Content-Encoding: gzip\r\n\r\n"),
}


def check_bench():
    """Warn (stderr) if the shared bench inputs differ from the copies above."""
    import sys
    if not os.path.isdir(BENCH_DIR):
        return
    for name, head in BENCH.items():
        p = os.path.join(BENCH_DIR, name + ".http")
        if os.path.exists(p) and b2s(open(p, "rb").read()) != head:
            sys.stderr.write("warning: %s differs from the copy in realistic.py\n" % p)


def parse_head(head):
    """Split a bench head into start-line parts and (name, value) pairs."""
    lines = head.split("\r\n")
    assert lines[-2:] == ["", ""]
    start = lines[0].split(" ", 2)
    fields = [tuple(l.split(": ", 1)) for l in lines[1:-2]]
    return start, fields


def json_padded(obj, size, pad_key):
    """Compact JSON of exactly `size` bytes, padding the string at obj[pad_key]."""
    obj = dict(obj)
    obj[pad_key] = ""
    base = len(json.dumps(obj, separators=(",", ":")))
    text = ("Summarise the attached incident report and list the three most likely root causes, "
            "ranked, with the evidence for each. ")
    n = size - base
    assert n >= 0
    obj[pad_key] = (text * (n // len(text) + 1))[:n]
    s = json.dumps(obj, separators=(",", ":"))
    assert len(s) == size
    return s


# Real deflate output (zlib level 9, gzip wrapper, mtime 0) embedded so that
# regeneration does not depend on the local zlib build.
GZ_HTML = b2s(base64.b64decode(
    "H4sIAAAAAAACA2VRO2+EMAze71e4zD2i26oKmNqxW5eOaeI7rMsDxQZ6/74OMFTq5Pgz38Ome/LZyWNCGCWG4dTVAsGmW99gaiqA1muJ"
    "KBbcaAuj9M0s1/NLnQpJwOH9x8YpILzlaCl1ZkcPUrIR+2YhXKdcpAGXk2BSkZW8jL3HhRyet+YZKJGQDWd2NmB/qRaB0h0Khr5heQTk"
    "EVFVxoLXvjEsVsgZJsHWMdfvzZH4O/uHFk9L3eLyL6RCp24aPkdi8BsG+rrmAjMj1C6EmaWowYKAO5vrQE82R12BW/jKM0T72CjyVylB"
    "0ExKngvCSjLmWWAqpPIu5+IpqW5OoL3lO6Xb5jxhicSsg7Yz05avs8euo8jEr8as69qSTbbN5WZ2OzZHvGb4yKWGV7G4GbStKtlhVzP7"
    "McxxGrP/81/cpcVfBAIAAA=="))
GZ_JS = b2s(base64.b64decode(
    "H4sIAAAAAAACA02OQWtCMRCE7/0VsgdJ0IbeUw+Weij01qN4SJN9z9BtoslEEHn/vS8I0tuwMzvzqaElj5iT0jdqlRcVJXqQvbiy4E3I"
    "vv1ygjk3LtcvFvbIZSuiaB8c3DPyOAofSNshF9WfsHmxeGUjnEYcLVYrfeM9DsaFsLvMXZ+xghMXRV6i/6H1A4HnpDkV7ql3HlwTKG3v"
    "pQ+SkbET7vLt+hEUjrH22xYz+HcDK/oHRlpbLJcwXlytfdncDUX5xIn0pKdJzyNPfxFXsAYJAQAA"))
PNG_1X1 = b2s(base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="))

DATE = "Sun, 22 Nov 2026 10:00:00 GMT"
CHROME_UA = ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
             "Chrome/131.0.0.0 Safari/537.36")
FIREFOX_UA = "Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0"
SAFARI_UA = ("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) "
             "Version/18.1 Safari/605.1.15")
SEC_CH_UA = '"Google Chrome";v="131", "Chromium";v="131", "Not_A Brand";v="24"'


def RQ(id, msgs, why):
    """msgs: one (raw, exp) or a list of them (pipelined)."""
    if isinstance(msgs, tuple):
        msgs = [msgs]
    add("realistic-requests", "realistic/request/" + id, "request", "".join(r for r, _ in msgs),
        [e for _, e in msgs], why)


def RS(id, msgs, why, request_method=None, tail=""):
    if isinstance(msgs, tuple):
        msgs = [msgs]
    add("realistic-responses", "realistic/response/" + id, "response", "".join(r for r, _ in msgs) + tail,
        [e for _, e in msgs], why, request_method)
