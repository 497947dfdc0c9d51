"""Realistic requests (tests/vectors/realistic-requests.jsonl), the way browsers, curl, SDKs
and proxies send them, with full expectations."""

import base64
import hashlib
import hmac

from common import gzip_stored, request, u8
from realistic import (BENCH, CHROME_UA, FIREFOX_UA, PNG_1X1, RQ, SAFARI_UA, SEC_CH_UA, json_padded,
                       parse_head)


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
