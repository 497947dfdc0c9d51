"""Realistic responses (tests/vectors/realistic-responses.jsonl), the way servers and proxies
send them, with full expectations."""

import json

from common import gzip_stored, response, u8
from realistic import BENCH, DATE, GZ_HTML, GZ_JS, PNG_1X1, RS, json_padded, parse_head


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
