"""Realistic requests and responses, the way real clients and servers send them,
with full expectations (built by common.request / common.response)."""

import base64
import hashlib
import hmac
import json
import os

from common import add, b2s, gzip_stored, request, response, u8

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


def gen_realistic_requests():
    # --- the bench inputs
    (m, t, v), fields = parse_head(BENCH["request-small"])
    RQ("bench-request-small", request(m, t, v, fields), "bench input request-small.http; RFC 9112 3, 5")
    (m, t, v), fields = parse_head(BENCH["request-medium"])
    body = json_padded({"model": "claude-sonnet-4-5", "max_tokens": 1024, "stream": True,
                        "system": "You are a concise assistant.",
                        "messages": [{"role": "user", "content": None}]}, 1524, "system")
    raw, exp = request(m, t, v, fields, body=body)
    assert raw == BENCH["request-medium"] + body
    RQ("bench-request-medium", (raw, exp), "bench input request-medium.http with its 1524-byte JSON body; RFC 9112 6.2")
    (m, t, v), fields = parse_head(BENCH["request-large"])
    body = json_padded({"pipeline": "nightly-eval", "priority": 3, "inputs": {"dataset": "s3://runs/42/input.jsonl"},
                        "notes": ""}, 2048, "notes")
    raw, exp = request(m, t, v, fields, body=body)
    assert raw == BENCH["request-large"] + body
    RQ("bench-request-large", (raw, exp), "bench input request-large.http with its 2048-byte JSON body; RFC 9112 6.2")

    # --- browsers
    RQ("chrome-navigation", request("GET", "/docs/getting-started?ref=nav", "HTTP/1.1", [
        ("Host", "www.example.com"), ("Connection", "keep-alive"), ("Cache-Control", "max-age=0"),
        ("sec-ch-ua", SEC_CH_UA), ("sec-ch-ua-mobile", "?0"), ("sec-ch-ua-platform", '"Windows"'),
        ("Upgrade-Insecure-Requests", "1"), ("User-Agent", CHROME_UA),
        ("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,"
                   "application/signed-exchange;v=b3;q=0.7"),
        ("Sec-Fetch-Site", "same-origin"), ("Sec-Fetch-Mode", "navigate"), ("Sec-Fetch-User", "?1"),
        ("Sec-Fetch-Dest", "document"), ("Referer", "https://www.example.com/"),
        ("Accept-Encoding", "gzip, deflate, br, zstd"), ("Accept-Language", "en-US,en;q=0.9,de;q=0.8"),
        ("Cookie", "_ga=GA1.1.123456789.1700000000; theme=dark; sid=Fe26.2**0a1b2c3d4e5f"),
        ("If-None-Match", 'W/"5e1f-18c2b1a9f00"')]), "Chrome navigation GET; RFC 9112 3, 5")
    RQ("firefox-image", request("GET", "/static/img/logo.png?v=3", "HTTP/1.1", [
        ("Host", "www.example.com"), ("User-Agent", FIREFOX_UA),
        ("Accept", "image/avif,image/webp,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5"),
        ("Accept-Language", "en-US,en;q=0.5"), ("Accept-Encoding", "gzip, deflate, br, zstd"), ("DNT", "1"),
        ("Connection", "keep-alive"), ("Referer", "https://www.example.com/docs/getting-started"),
        ("Sec-Fetch-Dest", "image"), ("Sec-Fetch-Mode", "no-cors"), ("Sec-Fetch-Site", "same-origin"),
        ("Priority", "u=5, i"), ("TE", "trailers")]), "Firefox image GET (TE: trailers is a request field, not framing); RFC 9112 3")
    RQ("safari-xhr", request("GET", "/api/v1/me", "HTTP/1.1", [
        ("Host", "app.example.com"), ("Accept", "application/json, text/plain, */*"),
        ("Sec-Fetch-Site", "same-origin"), ("Accept-Language", "fr-FR,fr;q=0.9"), ("Accept-Encoding", "gzip, deflate, br"),
        ("Sec-Fetch-Mode", "cors"), ("User-Agent", SAFARI_UA), ("Referer", "https://app.example.com/dashboard"),
        ("Sec-Fetch-Dest", "empty"), ("X-Requested-With", "XMLHttpRequest"),
        ("Cookie", "sessionid=q8w7e6r5t4y3u2i1; csrftoken=Zx9Yw8Vu7Ts6"), ("Connection", "keep-alive")]),
       "Safari XHR GET; RFC 9112 3")
    RQ("browser-form-login", request("POST", "/login?next=%2Fdashboard", "HTTP/1.1", [
        ("Host", "app.example.com"), ("Connection", "keep-alive"), ("Content-Length", None), ("Cache-Control", "max-age=0"),
        ("Origin", "https://app.example.com"), ("Content-Type", "application/x-www-form-urlencoded"),
        ("Upgrade-Insecure-Requests", "1"), ("User-Agent", CHROME_UA),
        ("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"),
        ("Referer", "https://app.example.com/login?next=%2Fdashboard"), ("Accept-Encoding", "gzip, deflate, br, zstd"),
        ("Accept-Language", "en-US,en;q=0.9"), ("Cookie", "csrftoken=Zx9Yw8Vu7Ts6")],
        body="csrfmiddlewaretoken=Zx9Yw8Vu7Ts6&username=alice%40example.com&password=p%C3%A4ss+w0rd%21&remember=on"),
       "browser form POST with a urlencoded body; RFC 9112 6.2")
    RQ("browser-beacon", request("POST", "/collect?v=2&tid=G-XXXX&en=page_view", "HTTP/1.1", [
        ("Host", "region1.analytics.example.net"), ("Connection", "keep-alive"), ("Content-Length", None),
        ("sec-ch-ua-platform", '"macOS"'), ("User-Agent", CHROME_UA), ("Content-Type", "text/plain;charset=UTF-8"),
        ("Accept", "*/*"), ("Origin", "https://www.example.com"), ("Sec-Fetch-Site", "cross-site"),
        ("Sec-Fetch-Mode", "no-cors"), ("Sec-Fetch-Dest", "empty"), ("Referer", "https://www.example.com/"),
        ("Accept-Encoding", "gzip, deflate, br, zstd"), ("Accept-Language", "en-GB,en;q=0.9")],
        body="_p=1732269600&sr=1920x1080&ul=en-gb&dl=https%3A%2F%2Fwww.example.com%2F&dt=Example"),
       "navigator.sendBeacon POST; RFC 9112 6.2")
    RQ("cors-preflight", request("OPTIONS", "/api/v1/orders", "HTTP/1.1", [
        ("Host", "api.example.com"), ("Connection", "keep-alive"), ("Accept", "*/*"),
        ("Access-Control-Request-Method", "POST"), ("Access-Control-Request-Headers", "authorization,content-type"),
        ("Origin", "https://shop.example.com"), ("User-Agent", CHROME_UA), ("Sec-Fetch-Mode", "cors"),
        ("Sec-Fetch-Site", "same-site"), ("Sec-Fetch-Dest", "empty"), ("Referer", "https://shop.example.com/"),
        ("Accept-Encoding", "gzip, deflate, br, zstd"), ("Accept-Language", "en-US,en;q=0.9")]),
       "CORS preflight OPTIONS; RFC 9112 3.2.1")
    RQ("fetch-post-json", request("POST", "/api/v1/orders", "HTTP/1.1", [
        ("Host", "api.example.com"), ("Connection", "keep-alive"), ("Content-Length", None),
        ("sec-ch-ua-platform", '"Windows"'), ("Authorization", "Bearer eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI0MiJ9.sig"),
        ("sec-ch-ua", SEC_CH_UA), ("Content-Type", "application/json"), ("sec-ch-ua-mobile", "?0"),
        ("User-Agent", CHROME_UA), ("Accept", "application/json"), ("Origin", "https://shop.example.com"),
        ("Sec-Fetch-Site", "same-site"), ("Sec-Fetch-Mode", "cors"), ("Sec-Fetch-Dest", "empty"),
        ("Referer", "https://shop.example.com/checkout"), ("Accept-Encoding", "gzip, deflate, br, zstd"),
        ("Accept-Language", "en-US,en;q=0.9")],
        body=u8('{"items":[{"sku":"TSHIRT-M-BLUE","qty":2},{"sku":"MUG-11OZ","qty":1}],"currency":"EUR",'
                '"shipping":{"name":"Zoë Müller","street":"Hauptstraße 5","city":"Köln","zip":"50667"}}')),
       "fetch() POST with a JSON body (UTF-8 bytes); RFC 9112 6.2")
    boundary = "----WebKitFormBoundary7MA4YWxkTrZu0gW"
    csv = "id,name,score\r\n1,alice,93\r\n2,bob,87\r\n3,carol,78\r\n"
    mp = ("--%s\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nQ3 results\r\n"
          "--%s\r\nContent-Disposition: form-data; name=\"file\"; filename=\"scores.csv\"\r\n"
          "Content-Type: text/csv\r\n\r\n%s\r\n"
          "--%s\r\nContent-Disposition: form-data; name=\"thumb\"; filename=\"t.png\"\r\n"
          "Content-Type: image/png\r\n\r\n%s\r\n--%s--\r\n") % (boundary, boundary, csv, boundary, PNG_1X1, boundary)
    RQ("multipart-upload", request("POST", "/upload", "HTTP/1.1", [
        ("Host", "files.example.com"), ("Connection", "keep-alive"), ("Content-Length", None), ("Cache-Control", "max-age=0"),
        ("Origin", "https://files.example.com"), ("Content-Type", "multipart/form-data; boundary=" + boundary),
        ("User-Agent", CHROME_UA), ("Accept", "text/html,application/xhtml+xml,*/*;q=0.8"),
        ("Referer", "https://files.example.com/upload"), ("Accept-Encoding", "gzip, deflate, br, zstd"),
        ("Accept-Language", "en-US,en;q=0.9")], body=mp),
       "multipart/form-data upload with a CSV and a PNG part; RFC 9112 6.2")
    RQ("websocket-upgrade", request("GET", "/chat?room=general", "HTTP/1.1", [
        ("Host", "ws.example.com"), ("Connection", "Upgrade"), ("Pragma", "no-cache"), ("Cache-Control", "no-cache"),
        ("User-Agent", CHROME_UA), ("Upgrade", "websocket"), ("Origin", "https://www.example.com"),
        ("Sec-WebSocket-Version", "13"), ("Accept-Encoding", "gzip, deflate, br, zstd"),
        ("Accept-Language", "en-US,en;q=0.9"), ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
        ("Sec-WebSocket-Extensions", "permessage-deflate; client_max_window_bits")]),
       "WebSocket upgrade request (RFC 6455 4.1); D9: Upgrade does not stop the request decoder")

    # --- command-line and library clients
    RQ("curl-get", request("GET", "/index.html", "HTTP/1.1", [
        ("Host", "example.com"), ("User-Agent", "curl/8.11.0"), ("Accept", "*/*")]), "curl GET; RFC 9112 3")
    RQ("curl-head", request("HEAD", "/downloads/app-2.4.1.tar.gz", "HTTP/1.1", [
        ("Host", "dl.example.com"), ("User-Agent", "curl/8.11.0"), ("Accept", "*/*")]), "curl -I (HEAD); RFC 9110 9.3.2")
    RQ("curl-post-form", request("POST", "/api/token", "HTTP/1.1", [
        ("Host", "auth.example.com"), ("User-Agent", "curl/8.11.0"), ("Accept", "*/*"), ("Content-Length", None),
        ("Content-Type", "application/x-www-form-urlencoded")],
        body="grant_type=password&username=alice&password=s3cr3t%21"), "curl -d POST; RFC 9112 6.2")
    RQ("curl-chunked-upload", request("PUT", "/uploads/backup-2026-11-22.tar", "HTTP/1.1", [
        ("Host", "storage.example.com"), ("User-Agent", "curl/8.11.0"), ("Accept", "*/*"),
        ("Transfer-Encoding", "chunked"), ("Content-Type", "application/x-tar"), ("Expect", "100-continue")],
        chunks=["backup.txt\x00" + "\x00" * 89 + "0000644\x000001750\x000001750\x0000000000012\x00",
                "hello tar\n\x00\x00", "\x00" * 512]),
       "curl -T - chunked upload with Expect: 100-continue; RFC 9112 7.1")
    RQ("wget", request("GET", "/pub/linux/kernel/v6.x/linux-6.12.tar.xz", "HTTP/1.1", [
        ("Host", "cdn.kernel.example.org"), ("User-Agent", "Wget/1.24.5"), ("Accept", "*/*"),
        ("Accept-Encoding", "identity"), ("Connection", "Keep-Alive")]), "wget GET; RFC 9112 9.3")
    RQ("python-requests", request("GET", "/v2/items?page=2&per_page=50&sort=-created", "HTTP/1.1", [
        ("Host", "api.example.org"), ("User-Agent", "python-requests/2.32.3"), ("Accept-Encoding", "gzip, deflate"),
        ("Accept", "*/*"), ("Connection", "keep-alive"), ("Authorization", "token ghp_16C7e42F292c6912E7710c838347Ae178B4a")]),
       "python-requests GET; RFC 9112 3")
    RQ("go-http-client-post", request("POST", "/v1/events", "HTTP/1.1", [
        ("Host", "ingest.example.io"), ("User-Agent", "Go-http-client/1.1"), ("Content-Length", None),
        ("Content-Type", "application/json"), ("Accept-Encoding", "gzip")],
        body='{"type":"deploy","service":"checkout","version":"v1.42.0","ts":1795341600}'),
       "Go net/http POST; RFC 9112 6.2")
    RQ("go-http-client-chunked", request("POST", "/v1/logs/batch", "HTTP/1.1", [
        ("Host", "ingest.example.io"), ("User-Agent", "Go-http-client/1.1"), ("Transfer-Encoding", "chunked"),
        ("Content-Type", "application/x-ndjson"), ("Accept-Encoding", "gzip")],
        chunks=['{"level":"info","msg":"started"}\n', '{"level":"warn","msg":"slow query","ms":812}\n',
                '{"level":"info","msg":"done"}\n']),
       "Go net/http streaming POST (unknown length, chunked); RFC 9112 7.1")
    RQ("node-undici-fetch-chunked", request("POST", "/graphql", "HTTP/1.1", [
        ("host", "gql.example.com"), ("connection", "keep-alive"), ("content-type", "application/json"),
        ("accept", "*/*"), ("accept-language", "*"), ("sec-fetch-mode", "cors"), ("user-agent", "node"),
        ("accept-encoding", "gzip, deflate"), ("transfer-encoding", "chunked")],
        chunks=['{"query":"query($id:ID!){user(id:$id){name email}}","variables":{"id":"42"}}']),
       "Node fetch (undici) with a stream body: lowercase names, chunked; RFC 9112 7.1, RFC 9110 5.1")
    RQ("java-httpclient-h2c", request("GET", "/status", "HTTP/1.1", [
        ("Connection", "Upgrade, HTTP2-Settings"), ("Content-Length", "0"), ("Host", "svc.internal:8080"),
        ("HTTP2-Settings", "AAEAAEAAAAIAAAABAAMAAABkAAQBAAAAAAUAAEAA"), ("Upgrade", "h2c"),
        ("User-Agent", "Java-http-client/21.0.5")]),
       "Java HttpClient h2c upgrade attempt; D9, RFC 9110 7.8: Upgrade does not stop the request decoder")
    RQ("apachebench-1.0", request("GET", "/bench", "HTTP/1.0", [
        ("Host", "localhost:8080"), ("User-Agent", "ApacheBench/2.3"), ("Accept", "*/*")]),
       "ab HTTP/1.0 request: closes by default (RFC 9112 9.3)")
    RQ("apachebench-1.0-keep-alive", request("GET", "/bench", "HTTP/1.0", [
        ("Connection", "Keep-Alive"), ("Host", "localhost:8080"), ("User-Agent", "ApacheBench/2.3"), ("Accept", "*/*")]),
       "ab -k HTTP/1.0 request with Connection: Keep-Alive (RFC 9112 9.3)")
    RQ("wrk-pipelined", [request("GET", "/plaintext", "HTTP/1.1", [
        ("Host", "tfb-server:8080"), ("Accept", "text/plain,text/html;q=0.9,application/xhtml+xml;q=0.9,"
                                                "application/xml;q=0.8,*/*;q=0.7"), ("Connection", "keep-alive")])] * 3,
       "wrk pipelined plaintext benchmark requests; RFC 9112 9.3.2")

    # --- proxies
    RQ("connect-proxy", request("CONNECT", "www.example.com:443", "HTTP/1.1", [
        ("Host", "www.example.com:443"), ("User-Agent", "curl/8.11.0"), ("Proxy-Connection", "Keep-Alive"),
        ("Proxy-Authorization", "Basic YWxhZGRpbjpvcGVuc2VzYW1l")]), "CONNECT through a proxy; RFC 9112 3.2.3")
    RQ("absolute-form-proxy-get", request("GET", "http://www.example.com/path/page.html?q=1", "HTTP/1.1", [
        ("Host", "www.example.com"), ("User-Agent", "curl/8.11.0"), ("Accept", "*/*"),
        ("Proxy-Connection", "Keep-Alive")]), "absolute-form request to a forward proxy; RFC 9112 3.2.2")
    RQ("absolute-form-proxy-1.0", request("GET", "http://example.org/", "HTTP/1.0", [
        ("Accept", "text/html, text/plain, text/sgml, */*;q=0.01"), ("Accept-Encoding", "gzip, compress, bzip2"),
        ("Accept-Language", "en"), ("User-Agent", "Lynx/2.9.2 libwww-FM/2.14 SSL-MM/1.4.1 OpenSSL/3.0.15")]),
       "Lynx HTTP/1.0 absolute-form via a proxy, no Host; RFC 9112 3.2.2, D7")
    RQ("absolute-form-proxy-post", request("POST", "http://api.internal:8080/v1/jobs", "HTTP/1.1", [
        ("Host", "api.internal:8080"), ("User-Agent", "python-requests/2.32.3"), ("Accept-Encoding", "gzip, deflate"),
        ("Accept", "*/*"), ("Connection", "keep-alive"), ("Content-Length", None), ("Content-Type", "application/json")],
        body='{"job":"reindex","shard":7}'), "absolute-form POST via a proxy; RFC 9112 3.2.2")
    RQ("options-asterisk", request("OPTIONS", "*", "HTTP/1.1", [
        ("Host", "www.example.com"), ("User-Agent", "check_http/v2.4.12 (monitoring-plugins 2.4.12)"),
        ("Connection", "close")]), "OPTIONS * server-wide probe; RFC 9112 3.2.4")

    # --- APIs and webhooks
    payload = ('{"ref":"refs/heads/main","before":"6113728f27ae82c7b1a177c8d03f9e96e0adf246",'
               '"after":"59b20b8d5c6ff8d09518454d4dd8b7a10b46f7f2","repository":{"id":1296269,'
               '"full_name":"octo-org/octo-repo","private":false},"pusher":{"name":"octocat"}}')
    sig = hmac.new(b"It's a Secret to Everybody", payload.encode(), hashlib.sha256).hexdigest()
    RQ("github-webhook", request("POST", "/hooks/github", "HTTP/1.1", [
        ("Host", "ci.example.com"), ("User-Agent", "GitHub-Hookshot/8c4fd2e"), ("Content-Length", None),
        ("Accept", "*/*"), ("Content-Type", "application/json"), ("X-GitHub-Delivery", "72d3162e-cc78-11e3-81ab-4c9367dc0958"),
        ("X-GitHub-Event", "push"), ("X-GitHub-Hook-ID", "292430182"),
        ("X-GitHub-Hook-Installation-Target-ID", "79929171"), ("X-GitHub-Hook-Installation-Target-Type", "repository"),
        ("X-Hub-Signature-256", "sha256=" + sig)], body=payload), "GitHub webhook POST; RFC 9112 6.2")
    payload = ('{"id":"evt_1QJ2x3Lkdj","object":"event","type":"payment_intent.succeeded","data":{"object":'
               '{"id":"pi_3QJ2","amount":2000,"currency":"eur"}},"livemode":false}')
    sig = hmac.new(b"whsec_test", ("1795341600." + payload).encode(), hashlib.sha256).hexdigest()
    RQ("stripe-webhook", request("POST", "/webhooks/stripe", "HTTP/1.1", [
        ("Host", "shop.example.com"), ("User-Agent", "Stripe/1.0 (+https://stripe.com/docs/webhooks)"),
        ("Content-Length", None), ("Accept", "*/*; q=0.5, application/xml"), ("Cache-Control", "no-cache"),
        ("Content-Type", "application/json; charset=utf-8"), ("Stripe-Signature", "t=1795341600,v1=" + sig)],
        body=payload), "Stripe webhook POST; RFC 9112 6.2")
    RQ("slack-slash-command", request("POST", "/slack/commands", "HTTP/1.1", [
        ("Host", "bot.example.com"), ("User-Agent", "Slackbot 1.0 (+https://api.slack.com/robots)"),
        ("Accept-Encoding", "gzip,deflate"), ("Accept", "application/json,*/*"),
        ("X-Slack-Signature", "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503"),
        ("X-Slack-Request-Timestamp", "1795341600"), ("Content-Length", None),
        ("Content-Type", "application/x-www-form-urlencoded")],
        body="token=gIkuvaNzQIHg97ATvDxqgjtO&team_id=T0001&channel_name=ops&user_name=steve&command=%2Fdeploy"
             "&text=checkout+v1.42.0&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2F1234%2F5678"),
       "Slack slash-command POST; RFC 9112 6.2")
    RQ("rest-put-json", request("PUT", "/api/v1/users/42/preferences", "HTTP/1.1", [
        ("Host", "api.example.com"), ("Authorization", "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.x"),
        ("Content-Type", "application/json"), ("Accept", "application/json"), ("If-Match", '"v17"'),
        ("Content-Length", None)], body='{"theme":"dark","language":"de","notifications":{"email":false,"push":true}}'),
       "REST PUT with If-Match; RFC 9112 6.2")
    RQ("rest-patch-merge", request("PATCH", "/api/v1/users/42", "HTTP/1.1", [
        ("Host", "api.example.com"), ("Content-Type", "application/merge-patch+json"), ("Content-Length", None),
        ("Authorization", "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.x")], body='{"nickname":null}'),
       "REST PATCH; RFC 9112 6.2")
    RQ("rest-delete", request("DELETE", "/api/v1/orders/8812", "HTTP/1.1", [
        ("Host", "api.example.com"), ("Authorization", "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.x"),
        ("Accept", "application/json"), ("X-Idempotency-Key", "3f1c7a4e-1b2d-4c3e-9f8a-7b6c5d4e3f2a")]),
       "REST DELETE without a body; RFC 9112 6.3 rule 7")
    RQ("graphql-post", request("POST", "/graphql", "HTTP/1.1", [
        ("Host", "api.github.example.com"), ("Authorization", "bearer ghp_16C7e42F292c6912E7710c838347Ae178B4a"),
        ("Content-Type", "application/json"), ("Accept", "application/vnd.github+json"), ("Content-Length", None)],
        body='{"query":"{ viewer { login repositories(first: 3) { nodes { name } } } }"}'), "GraphQL POST; RFC 9112 6.2")
    RQ("grpc-web", request("POST", "/helloworld.Greeter/SayHello", "HTTP/1.1", [
        ("Host", "grpc.example.com"), ("Connection", "keep-alive"), ("Content-Length", None),
        ("Accept", "application/grpc-web-text"), ("X-User-Agent", "grpc-web-javascript/0.1"),
        ("Content-Type", "application/grpc-web+proto"), ("X-Grpc-Web", "1"), ("grpc-timeout", "9999m"),
        ("Origin", "https://www.example.com")], body="\x00\x00\x00\x00\x07\x0a\x05world"),
       "gRPC-Web unary call, binary length-prefixed body; RFC 9112 6.2")
    body = "The quick brown fox jumps over the lazy dog.\n"
    md5 = base64.b64encode(hashlib.md5(body.encode()).digest()).decode()
    sha = hashlib.sha256(body.encode()).hexdigest()
    RQ("s3-put-content-md5", request("PUT", "/reports/2026/11/fox.txt", "HTTP/1.1", [
        ("Host", "my-bucket.s3.us-east-1.amazonaws.com"), ("User-Agent", "aws-sdk-go-v2/1.32.4 os/linux lang/go#1.23.3"),
        ("Content-Length", None), ("Authorization", "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20261122/us-east-1/s3/"
                                                    "aws4_request, SignedHeaders=content-md5;content-type;host;"
                                                    "x-amz-content-sha256;x-amz-date, Signature="
                                                    "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"),
        ("Content-Md5", md5), ("Content-Type", "text/plain"), ("X-Amz-Content-Sha256", sha),
        ("X-Amz-Date", "20261122T100000Z"), ("Accept-Encoding", "identity")], body=body),
       "S3 PutObject with Content-MD5; RFC 9112 6.2")
    RQ("s3-put-aws-chunked", request("PUT", "/media/clip.bin", "HTTP/1.1", [
        ("Host", "media-bucket.s3.eu-west-1.amazonaws.com"), ("User-Agent", "aws-sdk-java/2.29.15"),
        ("Content-Encoding", "aws-chunked"), ("Transfer-Encoding", "chunked"),
        ("X-Amz-Content-Sha256", "STREAMING-UNSIGNED-PAYLOAD-TRAILER"), ("X-Amz-Decoded-Content-Length", "20"),
        ("X-Amz-Trailer", "x-amz-checksum-crc32"), ("X-Amz-Date", "20261122T100000Z")],
        chunks=[("0123456789", ";chunk-signature=ad80c730a21e5b8d04586a2213dd63b9a0e99e0e2307b0ade35a65485a288648"),
                ("abcdefghij", ";chunk-signature=0055627c9e194cb4542bae2aa5492e3c1575bbb81b612b7d234b86a503ef5497")],
        trailers=[("x-amz-checksum-crc32", "sOO8/Q==")]),
       "S3 streaming upload: chunked with chunk-ext signatures and a checksum trailer; RFC 9112 7.1.1, 7.1.2")
    RQ("oauth-token", request("POST", "/oauth2/token", "HTTP/1.1", [
        ("Host", "login.example.com"), ("Authorization", "Basic czZCaGRSa3F0MzpnWDFmQmF0M2JW"),
        ("Content-Type", "application/x-www-form-urlencoded;charset=UTF-8"), ("Accept", "application/json"),
        ("Content-Length", None)], body="grant_type=client_credentials&scope=read%3Aorders%20write%3Aorders"),
       "OAuth 2.0 client-credentials token request (RFC 6749 4.4); RFC 9112 6.2")
    RQ("soap-post", request("POST", "/StockQuote.asmx", "HTTP/1.1", [
        ("Host", "legacy.example.com"), ("Content-Type", "text/xml; charset=utf-8"), ("Content-Length", None),
        ("SOAPAction", '"http://tempuri.org/GetQuote"')],
        body='<?xml version="1.0" encoding="utf-8"?>\r\n<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">'
             '<soap:Body><GetQuote xmlns="http://tempuri.org/"><symbol>ACME</symbol></GetQuote></soap:Body></soap:Envelope>'),
       "SOAP 1.1 POST; RFC 9112 6.2")
    RQ("webdav-propfind", request("PROPFIND", "/remote.php/dav/files/alice/Documents/", "HTTP/1.1", [
        ("Host", "cloud.example.com"), ("User-Agent", "Mozilla/5.0 (Linux) mirall/3.14.3 (Nextcloud)"),
        ("Depth", "1"), ("Content-Type", "application/xml; charset=utf-8"), ("Content-Length", None),
        ("Authorization", "Basic YWxpY2U6YXBwLXBhc3N3b3Jk")],
        body='<?xml version="1.0"?>\n<d:propfind xmlns:d="DAV:"><d:prop><d:getlastmodified/><d:getcontentlength/>'
             '<d:resourcetype/></d:prop></d:propfind>\n'), "WebDAV PROPFIND (an extension method token); RFC 9110 9.1")
    gz = gzip_stored('{"metrics":[{"name":"cpu","value":0.73},{"name":"mem","value":0.41}]}')
    RQ("gzip-request-body", request("POST", "/api/v1/metrics", "HTTP/1.1", [
        ("Host", "metrics.example.com"), ("Content-Type", "application/json"), ("Content-Encoding", "gzip"),
        ("Content-Length", None), ("User-Agent", "telegraf/1.32.3")], body=gz),
       "POST with a gzip Content-Encoding body (bytes as Latin-1, not decoded); RFC 9110 8.4")
    ndjson = ('{"index":{"_index":"logs-2026.11.22","_id":"1"}}\n{"@timestamp":"2026-11-22T10:00:00Z","msg":"login ok"}\n'
              '{"index":{"_index":"logs-2026.11.22","_id":"2"}}\n{"@timestamp":"2026-11-22T10:00:01Z","msg":"logout"}\n')
    RQ("elasticsearch-bulk", request("POST", "/_bulk?refresh=wait_for", "HTTP/1.1", [
        ("Host", "es01:9200"), ("Content-Type", "application/x-ndjson"), ("Content-Length", None),
        ("User-Agent", "elasticsearch-py/8.16.0 (Python/3.12.7; elastic-transport/8.15.1)"),
        ("Accept", "application/vnd.elasticsearch+json; compatible-with=8")], body=ndjson),
       "Elasticsearch _bulk NDJSON POST; RFC 9112 6.2")
    pkt = "0014command=ls-refs\n0014object-format=sha1\n00010009peel\n000csymrefs\n000bunborn\n0000"
    RQ("git-upload-pack", request("POST", "/octo-org/octo-repo.git/git-upload-pack", "HTTP/1.1", [
        ("Host", "git.example.com"), ("User-Agent", "git/2.47.1"), ("Accept-Encoding", "deflate, gzip, br, zstd"),
        ("Content-Type", "application/x-git-upload-pack-request"), ("Accept", "application/x-git-upload-pack-result"),
        ("Git-Protocol", "version=2"), ("Content-Length", None)], body=pkt), "git smart-HTTP v2 POST; RFC 9112 6.2")
    RQ("docker-blob-chunked", request("PATCH", "/v2/acme/app/blobs/uploads/5f2c8a1e-3b4d-4e6f-8a9b-0c1d2e3f4a5b", "HTTP/1.1", [
        ("Host", "registry.example.com"), ("User-Agent", "docker/27.3.1 go/go1.22.7 os/linux arch/amd64"),
        ("Authorization", "Bearer eyJhbGciOiJFUzI1NiJ9.e30.sig"), ("Content-Type", "application/octet-stream"),
        ("Transfer-Encoding", "chunked"), ("Accept-Encoding", "gzip")],
        chunks=["\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff" + "\xed\xc1\x01\x0d\x00\x00\x00\xc2\xa0\xf7Om\x0e7\xa0"]),
       "docker push blob upload, binary chunked body; RFC 9112 7.1")
    RQ("conditional-get", request("GET", "/assets/app.3f9a2c.js", "HTTP/1.1", [
        ("Host", "static.example.com"), ("User-Agent", FIREFOX_UA), ("Accept", "*/*"),
        ("Accept-Encoding", "gzip, deflate, br, zstd"), ("If-Modified-Since", "Tue, 17 Nov 2026 08:12:31 GMT"),
        ("If-None-Match", '"3f9a2c-1b2e4"'), ("Connection", "keep-alive")]), "conditional GET; RFC 9112 3")
    RQ("range-get", request("GET", "/videos/intro.mp4", "HTTP/1.1", [
        ("Host", "media.example.com"), ("User-Agent", SAFARI_UA), ("Accept", "*/*"), ("Range", "bytes=0-1"),
        ("Accept-Language", "en-US,en;q=0.9"), ("X-Playback-Session-Id", "A1B2C3D4-E5F6-47A8-9B0C-1D2E3F4A5B6C"),
        ("Accept-Encoding", "identity"), ("Connection", "keep-alive")]), "Safari video range probe; RFC 9110 14.2")
    RQ("sse-get", request("GET", "/events/stream?topic=builds", "HTTP/1.1", [
        ("Host", "ci.example.com"), ("Accept", "text/event-stream"), ("Cache-Control", "no-cache"),
        ("Last-Event-ID", "8812"), ("User-Agent", CHROME_UA), ("Connection", "keep-alive")]), "EventSource GET; RFC 9112 3")
    RQ("kube-probe", request("GET", "/healthz", "HTTP/1.1", [
        ("Host", "10.244.1.17:8080"), ("User-Agent", "kube-probe/1.31"), ("Accept", "*/*"), ("Connection", "close")]),
       "Kubernetes liveness probe with Connection: close; RFC 9112 9.6")
    RQ("prometheus-scrape", request("GET", "/metrics", "HTTP/1.1", [
        ("Host", "10.244.2.31:9100"), ("User-Agent", "Prometheus/3.0.1"),
        ("Accept", "application/openmetrics-text;version=1.0.0;escaping=allow-utf-8;q=0.6,"
                   "application/openmetrics-text;version=0.0.1;q=0.5,text/plain;version=1.0.0;escaping=allow-utf-8;q=0.4,"
                   "text/plain;version=0.0.4;q=0.3,*/*;q=0.2"),
        ("Accept-Encoding", "gzip"), ("X-Prometheus-Scrape-Timeout-Seconds", "10")]), "Prometheus scrape GET; RFC 9112 3")
    RQ("ipv6-host", request("GET", "/", "HTTP/1.1", [
        ("Host", "[2001:db8::1]:8080"), ("User-Agent", "curl/8.11.0"), ("Accept", "*/*")]),
       "request to an IPv6 literal; RFC 9112 3.2, RFC 3986 3.2.2")


def gen_realistic_responses():
    # --- the bench inputs
    (v, s, r), fields = parse_head(BENCH["response-small"])
    raw, exp = response(v, int(s), r, fields, body="ok")
    assert raw == BENCH["response-small"] + "ok"
    RS("bench-response-small", (raw, exp), "bench input response-small.http with its 2-byte body; RFC 9112 6.2")
    (v, s, r), fields = parse_head(BENCH["response-medium"])
    events = ['event: message_start\ndata: {"type":"message_start","message":{"id":"msg_01","role":"assistant"}}\n\n',
              'event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"type":"text_delta","text":"Hello"}}\n\n',
              'event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"type":"text_delta","text":' +
              u8('" wörld"') + '}}\n\n',
              'event: message_stop\ndata: {"type":"message_stop"}\n\n']
    raw, exp = response(v, int(s), r, fields, chunks=events)
    assert raw.startswith(BENCH["response-medium"])
    RS("bench-response-medium", (raw, exp), "bench input response-medium.http with a chunked SSE body; RFC 9112 7.1")
    (v, s, r), fields = parse_head(BENCH["response-large"])
    items = []
    i = 0
    while len(json.dumps({"items": items}, separators=(",", ":"))) < 47900:
        items.append({"id": i, "name": "item-%05d" % i, "tags": ["a", "b"], "score": (i * 37) % 101})
        i += 1
    text = json_padded({"items": items, "cursor": ""}, 48213 - 23, "cursor")
    gz = gzip_stored(text)
    assert len(gz) == 48213
    raw, exp = response(v, int(s), r, fields, body=gz)
    assert raw == BENCH["response-large"] + gz
    RS("bench-response-large", (raw, exp), "bench input response-large.http with its 48213-byte gzip body; RFC 9112 6.2")

    # --- redirects
    nginx301 = ("<html>\r\n<head><title>301 Moved Permanently</title></head>\r\n<body>\r\n"
                "<center><h1>301 Moved Permanently</h1></center>\r\n<hr><center>nginx/1.26.2</center>\r\n</body>\r\n</html>\r\n")
    RS("nginx-301", response("HTTP/1.1", 301, "Moved Permanently", [
        ("Server", "nginx/1.26.2"), ("Date", DATE), ("Content-Type", "text/html"), ("Content-Length", None),
        ("Connection", "keep-alive"), ("Location", "https://example.com/")], body=nginx301), "nginx 301; RFC 9110 15.4.2")
    RS("express-302-set-cookie", response("HTTP/1.1", 302, "Found", [
        ("X-Powered-By", "Express"), ("Set-Cookie", "connect.sid=s%3AaBcD.eFgH; Path=/; Expires=Mon, 23 Nov 2026 10:00:00 GMT; "
                                                    "HttpOnly; SameSite=Lax"),
        ("Location", "/dashboard"), ("Vary", "Accept"), ("Content-Type", "text/plain; charset=utf-8"),
        ("Content-Length", None), ("Date", DATE), ("Connection", "keep-alive"), ("Keep-Alive", "timeout=5")],
        body="Found. Redirecting to /dashboard"), "Express login redirect; RFC 9110 15.4.3")
    RS("307-https-upgrade", response("HTTP/1.1", 307, "Temporary Redirect", [
        ("Location", "https://www.example.com/checkout?step=2"), ("Content-Length", "0"), ("Date", DATE),
        ("Server", "envoy")]), "307 redirect with an empty body; RFC 9110 15.4.8")
    RS("vercel-308", response("HTTP/1.1", 308, "Permanent Redirect", [
        ("Cache-Control", "public, max-age=0, must-revalidate"), ("Content-Type", "text/plain"), ("Date", DATE),
        ("Location", "/docs/v2/"), ("Refresh", "0;url=/docs/v2/"), ("Server", "Vercel"),
        ("Strict-Transport-Security", "max-age=63072000"), ("X-Vercel-Id", "fra1::mqx2z-1795341600000-4b1c2d3e4f5a"),
        ("Transfer-Encoding", "chunked")], chunks=["/docs/v2/"]), "308 redirect with a chunked body; RFC 9110 15.4.9")

    # --- errors
    nginx404 = ("<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n"
                "<hr><center>nginx/1.26.2</center>\r\n</body>\r\n</html>\r\n")
    RS("nginx-404", response("HTTP/1.1", 404, "Not Found", [
        ("Server", "nginx/1.26.2"), ("Date", DATE), ("Content-Type", "text/html"), ("Content-Length", None),
        ("Connection", "keep-alive")], body=nginx404), "nginx 404 HTML; RFC 9110 15.5.5")
    apache404 = ('<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>404 Not Found</title>\n'
                 '</head><body>\n<h1>Not Found</h1>\n<p>The requested URL was not found on this server.</p>\n<hr>\n'
                 '<address>Apache/2.4.62 (Debian) Server at www.example.com Port 80</address>\n</body></html>\n')
    RS("apache-404", response("HTTP/1.1", 404, "Not Found", [
        ("Date", DATE), ("Server", "Apache/2.4.62 (Debian)"), ("Content-Length", None),
        ("Keep-Alive", "timeout=5, max=100"), ("Connection", "Keep-Alive"), ("Content-Type", "text/html; charset=iso-8859-1")],
        body=apache404), "Apache 404 HTML; RFC 9110 15.5.5")
    RS("problem-json-500", response("HTTP/1.1", 500, "Internal Server Error", [
        ("Content-Type", "application/problem+json"), ("Content-Length", None), ("Date", DATE),
        ("X-Request-Id", "b7c1e2d3-4f5a-6b7c-8d9e-0f1a2b3c4d5e")],
        body='{"type":"https://example.com/probs/db","title":"Database unavailable","status":500,'
             '"detail":"connection pool exhausted","instance":"/api/v1/orders"}'), "RFC 9457 problem details 500")
    RS("nginx-502", response("HTTP/1.1", 502, "Bad Gateway", [
        ("Server", "nginx"), ("Date", DATE), ("Content-Type", "text/html"), ("Content-Length", None),
        ("Connection", "close")],
        body="<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n"
             "<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"), "nginx 502 closing the connection; RFC 9112 9.6",
       tail="HTTP/1.1 200 OK\r\n")
    RS("cloudflare-403", response("HTTP/1.1", 403, "Forbidden", [
        ("Date", DATE), ("Content-Type", "text/html; charset=UTF-8"), ("Content-Length", None),
        ("Connection", "close"), ("X-Frame-Options", "SAMEORIGIN"), ("Referrer-Policy", "same-origin"),
        ("Cache-Control", "private, max-age=0, no-store, no-cache, must-revalidate, post-check=0, pre-check=0"),
        ("Expires", "Thu, 01 Jan 1970 00:00:01 GMT"), ("Server", "cloudflare"), ("CF-RAY", "8e6f1c2d3a4b5c6d-FRA")],
        body="<!DOCTYPE html>\n<html><head><title>Attention Required! | Cloudflare</title></head>"
             "<body><h1>Sorry, you have been blocked</h1></body></html>\n"), "Cloudflare block page; RFC 9110 15.5.4")
    RS("401-www-authenticate", response("HTTP/1.1", 401, "Unauthorized", [
        ("WWW-Authenticate", 'Bearer realm="api", error="invalid_token", error_description="The access token expired"'),
        ("WWW-Authenticate", 'Basic realm="api", charset="UTF-8"'), ("Content-Type", "application/json"),
        ("Content-Length", None), ("Date", DATE)], body='{"error":"invalid_token"}'),
       "401 with two WWW-Authenticate lines; RFC 9110 11.6.1")
    RS("429-retry-after", response("HTTP/1.1", 429, "Too Many Requests", [
        ("Date", DATE), ("Content-Type", "application/json"), ("Content-Length", None), ("Retry-After", "30"),
        ("RateLimit-Policy", '"default";q=100;w=60'), ("RateLimit", '"default";r=0;t=30')],
        body='{"message":"API rate limit exceeded"}'), "429 with Retry-After (RFC 6585 4)")
    RS("405-allow", response("HTTP/1.1", 405, "Method Not Allowed", [
        ("Allow", "GET, HEAD, OPTIONS"), ("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", None),
        ("Date", DATE)], body="Method Not Allowed\n"), "405 with Allow; RFC 9110 15.5.6")
    RS("503-http-1.0-until-close", response("HTTP/1.0", 503, "Service Unavailable", [
        ("Content-Type", "text/html"), ("Cache-Control", "no-cache"), ("Connection", "close")],
        body="<html><body><h1>503 Service Unavailable</h1>\nNo server is available to handle this request.\n</body></html>\n",
        until_close=True), "HAProxy-style HTTP/1.0 503 without Content-Length: body until close; RFC 9112 6.3 rule 8")

    # --- success, APIs
    RS("express-json", response("HTTP/1.1", 200, "OK", [
        ("X-Powered-By", "Express"), ("Access-Control-Allow-Origin", "*"), ("Content-Type", "application/json; charset=utf-8"),
        ("Content-Length", None), ("ETag", 'W/"5b-Fe9dHBLv9hE4u3n9Q7Dx6m1z9P0"'), ("Date", DATE),
        ("Connection", "keep-alive"), ("Keep-Alive", "timeout=5")],
        body=u8('{"id":42,"name":"Zoë","email":"zoe@example.com","roles":["admin","dev"],"created":"2026-01-02T03:04:05Z"}')),
       "Express JSON 200; RFC 9112 6.2")
    RS("201-created", response("HTTP/1.1", 201, "Created", [
        ("Location", "/api/v1/orders/8813"), ("Content-Type", "application/json"), ("Content-Length", None),
        ("Date", DATE), ("Server", "gunicorn")],
        body='{"id":8813,"status":"pending","total":{"amount":4599,"currency":"EUR"}}'), "201 Created; RFC 9110 15.3.2")
    RS("202-accepted", response("HTTP/1.1", 202, "Accepted", [
        ("Date", DATE), ("Content-Type", "application/json"), ("Content-Length", None),
        ("Location", "/api/v1/jobs/7f3a"), ("Retry-After", "5")], body='{"job":"7f3a","state":"queued"}'),
       "202 Accepted; RFC 9110 15.3.3")
    RS("204-cors-preflight", response("HTTP/1.1", 204, "No Content", [
        ("Access-Control-Allow-Origin", "https://shop.example.com"), ("Access-Control-Allow-Methods", "GET,POST,PUT,DELETE"),
        ("Access-Control-Allow-Headers", "authorization,content-type"), ("Access-Control-Max-Age", "86400"),
        ("Vary", "Origin, Access-Control-Request-Method, Access-Control-Request-Headers"), ("Date", DATE)],
        no_body=True), "CORS preflight answer 204; RFC 9110 15.3.5", request_method=["OPTIONS"])
    RS("set-cookie-multiple", response("HTTP/1.1", 200, "OK", [
        ("Date", DATE), ("Content-Type", "text/html; charset=utf-8"), ("Content-Length", None),
        ("Set-Cookie", "sessionid=abc123; Path=/; HttpOnly; Secure; SameSite=Lax"),
        ("Set-Cookie", "csrftoken=Zx9Yw8Vu7Ts6; Path=/; Max-Age=31449600; SameSite=Lax"),
        ("Set-Cookie", "theme=dark; Path=/; Expires=Wed, 22 Nov 2027 10:00:00 GMT"),
        ("Cache-Control", "private, no-cache")], body="<!doctype html><title>Welcome</title><p>Signed in.</p>\n"),
       "login page with three Set-Cookie lines; RFC 6265 3, RFC 9110 5.3")
    RS("gzip-html", response("HTTP/1.1", 200, "OK", [
        ("Server", "nginx/1.26.2"), ("Date", DATE), ("Content-Type", "text/html; charset=UTF-8"),
        ("Content-Length", None), ("Connection", "keep-alive"), ("Vary", "Accept-Encoding"),
        ("Last-Modified", "Tue, 17 Nov 2026 08:12:31 GMT"), ("ETag", 'W/"6738a3af-204"'), ("Content-Encoding", "gzip")],
        body=GZ_HTML), "gzip Content-Encoding body, reported undecoded; RFC 9110 8.4")
    RS("gzip-chunked-json", response("HTTP/1.1", 200, "OK", [
        ("Content-Type", "application/javascript"), ("Transfer-Encoding", "chunked"), ("Connection", "keep-alive"),
        ("Content-Encoding", "gzip"), ("Vary", "Accept-Encoding"), ("Cache-Control", "public, max-age=31536000, immutable")],
        chunks=[GZ_JS[:10], GZ_JS[10:100], GZ_JS[100:]]),
       "gzip content sent in chunks: chunked removed, gzip kept; RFC 9112 7.1")
    RS("sse-chunked", response("HTTP/1.1", 200, "OK", [
        ("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache"), ("Connection", "keep-alive"),
        ("X-Accel-Buffering", "no"), ("Transfer-Encoding", "chunked")],
        chunks=[": ping\n\n", "id: 8813\nevent: build\ndata: {\"status\":\"running\"}\n\n",
                "id: 8814\nevent: build\ndata: {\"status\":\"passed\"}\n\n", "retry: 10000\n\n"]),
       "server-sent events, one event per chunk; RFC 9112 7.1")
    RS("chunked-ndjson", response("HTTP/1.1", 200, "OK", [
        ("Content-Type", "application/x-ndjson"), ("Date", DATE), ("Transfer-Encoding", "chunked")],
        chunks=['{"model":"llama3","response":"The","done":false}\n', '{"model":"llama3","response":" sky","done":false}\n',
                '{"model":"llama3","response":" is blue.","done":false}\n', '{"model":"llama3","response":"","done":true}\n']),
       "streamed NDJSON, several chunks; RFC 9112 7.1")
    RS("chunked-server-timing-trailer", response("HTTP/1.1", 200, "OK", [
        ("Content-Type", "text/html; charset=utf-8"), ("Transfer-Encoding", "chunked"), ("Trailer", "Server-Timing"),
        ("Date", DATE)], chunks=["<!doctype html><html><body>", "<p>rendered</p>", "</body></html>"],
        trailers=[("Server-Timing", "total;dur=123.4, db;dur=45.6")]), "chunked with a Server-Timing trailer; RFC 9112 7.1.2")
    RS("grpc-trailers", response("HTTP/1.1", 200, "OK", [
        ("Content-Type", "application/grpc-web+proto"), ("Transfer-Encoding", "chunked"),
        ("Trailer", "grpc-status, grpc-message"), ("Access-Control-Allow-Origin", "https://www.example.com"),
        ("Access-Control-Expose-Headers", "grpc-status,grpc-message")],
        chunks=["\x00\x00\x00\x00\x0d\x0a\x0bHello world"], trailers=[("grpc-status", "0"), ("grpc-message", "")]),
       "gRPC-ish response with status in trailers; RFC 9112 7.1.2")
    RS("s3-put-response", response("HTTP/1.1", 200, "OK", [
        ("x-amz-id-2", "LriYPLdmOdAiIfgSm/F1YsViT1LW94/xUQxMsF7xiEb1a0wiIOIxl+zbwZ163pt7"),
        ("x-amz-request-id", "0A49CE4060975EAC"), ("Date", DATE), ("x-amz-server-side-encryption", "AES256"),
        ("ETag", '"37b51d194a7513e45b56f6524f2d51f2"'), ("x-amz-checksum-crc32", "sOO8/Q=="),
        ("Content-Length", "0"), ("Server", "AmazonS3")]), "S3 PutObject answer; RFC 9112 6.2")
    RS("s3-get-object", response("HTTP/1.1", 200, "OK", [
        ("x-amz-id-2", "eftixk72aD6Ap51TnqcoF8eFidJG9Z/2mkiDFu8yU9AS1ed4OpIszj7UDNEHGran"),
        ("x-amz-request-id", "318BC8BC148832E5"), ("Date", DATE), ("Last-Modified", "Wed, 12 Nov 2026 17:50:00 GMT"),
        ("ETag", '"fba9dede5f27731c9771645a39863328"'), ("x-amz-version-id", "3HL4kqtJlcpXroDTDmJ+rmSpXd3dIbrHY"),
        ("Accept-Ranges", "bytes"), ("Content-Type", "text/plain"), ("Content-Length", None), ("Server", "AmazonS3")],
        body="The quick brown fox jumps over the lazy dog.\n"), "S3 GetObject; RFC 9112 6.2")
    RS("png-image", response("HTTP/1.1", 200, "OK", [
        ("Content-Type", "image/png"), ("Content-Length", None), ("Cache-Control", "public, max-age=604800"),
        ("Accept-Ranges", "bytes"), ("Age", "3127"), ("X-Cache", "HIT")], body=PNG_1X1),
       "binary PNG body (bytes as Latin-1); RFC 9112 6.2")
    RS("css-immutable", response("HTTP/1.1", 200, "OK", [
        ("Content-Type", "text/css; charset=utf-8"), ("Content-Length", None),
        ("Cache-Control", "public, max-age=31536000, immutable"), ("Last-Modified", "Tue, 17 Nov 2026 08:12:31 GMT"),
        ("ETag", '"a1b2c3"'), ("Access-Control-Allow-Origin", "*")],
        body="body{margin:0;font:16px/1.5 system-ui,sans-serif}.btn{padding:.5rem 1rem;border-radius:4px}\n"),
       "static CSS with long cache; RFC 9112 6.2")
    RS("apache-html", response("HTTP/1.1", 200, "OK", [
        ("Date", DATE), ("Server", "Apache/2.4.62 (Debian)"), ("Last-Modified", "Mon, 16 Nov 2026 09:00:00 GMT"),
        ("ETag", '"2aa6-5b2e1c9d8f7a0"'), ("Accept-Ranges", "bytes"), ("Content-Length", None), ("Vary", "Accept-Encoding"),
        ("Keep-Alive", "timeout=5, max=100"), ("Connection", "Keep-Alive"), ("Content-Type", "text/html")],
        body="<html><body><h1>It works!</h1></body></html>\n"), "Apache default page; RFC 9112 6.2")
    RS("healthz-text", response("HTTP/1.1", 200, "OK", [
        ("Content-Type", "text/plain; charset=utf-8"), ("X-Content-Type-Options", "nosniff"), ("Date", DATE),
        ("Content-Length", "2")], body="ok"), "Kubernetes /healthz answer; RFC 9112 6.2")
    metrics = ('# HELP node_load1 1m load average.\n# TYPE node_load1 gauge\nnode_load1 0.42\n'
               '# HELP node_memory_MemAvailable_bytes Memory information field MemAvailable_bytes.\n'
               '# TYPE node_memory_MemAvailable_bytes gauge\nnode_memory_MemAvailable_bytes 1.2345678e+10\n')
    RS("prometheus-metrics", response("HTTP/1.1", 200, "OK", [
        ("Content-Type", "text/plain; version=0.0.4; charset=utf-8; escaping=underscores"), ("Date", DATE),
        ("Content-Length", None)], body=metrics), "Prometheus exposition; RFC 9112 6.2")
    RS("download-attachment", response("HTTP/1.1", 200, "OK", [
        ("Content-Type", "text/csv; charset=utf-8"),
        ("Content-Disposition", "attachment; filename=\"report.csv\"; filename*=UTF-8''r%C3%A9sum%C3%A9.csv"),
        ("Content-Length", None), ("Cache-Control", "no-store")], body="id,name\r\n1,alice\r\n2,bob\r\n"),
       "file download with Content-Disposition; RFC 6266")

    # --- caching, ranges, HEAD
    RS("304-not-modified", response("HTTP/1.1", 304, "Not Modified", [
        ("Server", "nginx/1.26.2"), ("Date", DATE), ("Last-Modified", "Tue, 17 Nov 2026 08:12:31 GMT"),
        ("Connection", "keep-alive"), ("ETag", '"3f9a2c-1b2e4"'), ("Cache-Control", "public, max-age=3600")], no_body=True),
       "conditional GET answered 304: no body; RFC 9110 15.4.5")
    RS("304-then-200", [
        response("HTTP/1.1", 304, "Not Modified", [("Date", DATE), ("ETag", '"v1"'), ("Cache-Control", "max-age=60")],
                 no_body=True),
        response("HTTP/1.1", 200, "OK", [("Date", DATE), ("ETag", '"v2"'), ("Content-Type", "application/json"),
                                         ("Content-Length", None)], body='{"v":2}')],
       "keep-alive revalidations: 304 then 200; RFC 9112 6.3 rule 1")
    RS("206-range", response("HTTP/1.1", 206, "Partial Content", [
        ("Content-Type", "video/mp4"), ("Content-Range", "bytes 0-1/7340032"), ("Content-Length", "2"),
        ("Accept-Ranges", "bytes"), ("Last-Modified", "Mon, 16 Nov 2026 09:00:00 GMT"), ("ETag", '"70000-5b2e"')],
        body="\x00\x00"), "206 single range; RFC 9110 15.3.7")
    mb = ("\r\n--THIS_STRING_SEPARATES\r\nContent-Type: text/plain\r\nContent-Range: bytes 0-4/44\r\n\r\nThe q"
          "\r\n--THIS_STRING_SEPARATES\r\nContent-Type: text/plain\r\nContent-Range: bytes 40-43/44\r\n\r\ndog.\r\n"
          "--THIS_STRING_SEPARATES--\r\n")
    RS("206-multipart-byteranges", response("HTTP/1.1", 206, "Partial Content", [
        ("Date", DATE), ("Last-Modified", "Mon, 16 Nov 2026 09:00:00 GMT"),
        ("Content-Type", "multipart/byteranges; boundary=THIS_STRING_SEPARATES"), ("Content-Length", None)], body=mb),
       "206 multipart/byteranges; RFC 9110 14.6")
    RS("head-answer", response("HTTP/1.1", 200, "OK", [
        ("Server", "nginx/1.26.2"), ("Date", DATE), ("Content-Type", "application/octet-stream"),
        ("Content-Length", "51837440"), ("Last-Modified", "Mon, 16 Nov 2026 09:00:00 GMT"), ("Connection", "keep-alive"),
        ("ETag", '"67386f50-3170000"'), ("Accept-Ranges", "bytes")], no_body=True),
       "answer to HEAD: Content-Length declared, no body; RFC 9110 9.3.2", request_method=["HEAD"])
    RS("head-chunked-then-get", [
        response("HTTP/1.1", 200, "OK", [("Content-Type", "text/html"), ("Transfer-Encoding", "chunked"), ("Date", DATE)],
                 no_body=True),
        response("HTTP/1.1", 200, "OK", [("Content-Type", "text/html"), ("Transfer-Encoding", "chunked"), ("Date", DATE)],
                 chunks=["<p>hi</p>"])],
       "HEAD answer announcing chunked, then the GET answer; RFC 9112 6.3 rule 1", request_method=["HEAD", "GET"])

    # --- interim, upgrade, tunnels
    RS("100-continue-201", [
        response("HTTP/1.1", 100, "Continue", [], no_body=True),
        response("HTTP/1.1", 201, "Created", [("Location", "/uploads/backup-2026-11-22.tar"), ("Content-Length", "0"),
                                              ("Date", DATE)])],
       "100 Continue then 201 for an upload; RFC 9110 15.2.1, D13", request_method=["PUT"])
    RS("103-early-hints", [
        response("HTTP/1.1", 103, "Early Hints", [("Link", "</static/site.css>; rel=preload; as=style"),
                                                  ("Link", "</static/app.js>; rel=preload; as=script")], no_body=True),
        response("HTTP/1.1", 200, "OK", [("Date", DATE), ("Content-Type", "text/html; charset=utf-8"),
                                         ("Link", "</static/site.css>; rel=preload; as=style"), ("Content-Length", None)],
                 body="<!doctype html><link rel=stylesheet href=/static/site.css><h1>Hi</h1>\n")],
       "103 Early Hints then 200 (RFC 8297); D13", request_method=["GET"])
    RS("101-websocket", response("HTTP/1.1", 101, "Switching Protocols", [
        ("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Accept", "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="),
        ("Sec-WebSocket-Extensions", "permessage-deflate")], no_body=True, tunnel=True),
       "WebSocket 101 then frames: the decoder reads nothing after a 101 (POLICY Connection, RFC 9110 15.2.2)",
       tail="\x81\x05Hello\x89\x00")
    RS("connect-200-tunnel", response("HTTP/1.1", 200, "Connection established", [], no_body=True, tunnel=True),
       "proxy answer to CONNECT, then TLS bytes: D9, RFC 9110 9.3.6, RFC 9112 6.3 rule 2", request_method=["CONNECT"],
       tail="\x16\x03\x03\x00\x7a\x02\x00\x00\x76\x03\x03" + "\x5a" * 32)
    RS("connect-407-then-200", [
        response("HTTP/1.1", 407, "Proxy Authentication Required", [
            ("Proxy-Authenticate", 'Basic realm="corp-proxy"'), ("Content-Type", "text/html"), ("Content-Length", None),
            ("Proxy-Connection", "keep-alive")], body="<html><body>Proxy authentication required</body></html>"),
        response("HTTP/1.1", 200, "Connection established", [("Via", "1.1 corp-proxy")], no_body=True, tunnel=True)],
       "CONNECT rejected with 407, retried with credentials, tunnel established; D9, RFC 9110 9.3.6",
       request_method=["CONNECT", "CONNECT"], tail="\x16\x03\x03\x00\x05hello")

    # --- connection handling and unusual status-lines real servers send
    RS("http-1.0-until-close", response("HTTP/1.0", 200, "OK", [
        ("Server", "SimpleHTTP/0.6 Python/3.12.7"), ("Date", DATE), ("Content-type", "text/html; charset=utf-8")],
        body="<!DOCTYPE HTML>\n<html><body><h1>Directory listing for /</h1>\n<ul>\n<li><a href=\"a.txt\">a.txt</a></li>\n"
             "</ul>\n</body></html>\n", until_close=True),
       "Python http.server HTTP/1.0 without Content-Length: body until close; RFC 9112 6.3 rule 8")
    RS("http-1.1-close-until-close", response("HTTP/1.1", 200, "OK", [
        ("Content-Type", "text/plain"), ("Connection", "close")], body="streamed until the socket closes\n", until_close=True),
       "HTTP/1.1 with Connection: close and no framing: body until close; RFC 9112 6.3 rule 8")
    RS("http-1.0-keep-alive-cl", [
        response("HTTP/1.0", 200, "OK", [("Content-Type", "text/plain"), ("Content-Length", None),
                                         ("Connection", "keep-alive")], body="one"),
        response("HTTP/1.0", 200, "OK", [("Content-Type", "text/plain"), ("Content-Length", None)], body="two")],
       "HTTP/1.0 keep-alive answers: the first keeps the connection, the second closes it; RFC 9112 9.3",
       tail="HTTP/1.0 200 OK\r\n\r\nignored")
    RS("pipelined-keep-alive", [
        response("HTTP/1.1", 200, "OK", [("Content-Type", "text/plain"), ("Content-Length", None), ("Server", "tfb")],
                 body="Hello, World!")] * 3, "three pipelined plaintext answers; RFC 9112 9.3.2",
       request_method=["GET", "GET", "GET"])
    RS("tomcat-empty-reason", response("HTTP/1.1", 200, "", [
        ("Content-Type", "text/html;charset=UTF-8"), ("Content-Length", None), ("Date", DATE)],
        body="<html><body>ok</body></html>", raw_status_line="HTTP/1.1 200 "),
       "Tomcat-style status-line with an empty reason; RFC 9112 4")
    RS("no-reason-no-sp", response("HTTP/1.1", 404, "", [
        ("Content-Type", "application/json"), ("Content-Length", None)], body='{"error":"not found"}',
        raw_status_line="HTTP/1.1 404"),
       "status-line without SP after the code, accepted as an empty reason (POLICY Status-line, RFC 9112 4)")
