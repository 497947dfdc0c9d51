"""Rule cases of tests/vectors/response.jsonl: status-lines, reasons, interim 1xx responses. One
accepted and one rejected case (at least) for every rule; "D<n>" in a `why` names a decision of
docs/policy-decisions.md."""

from common import M, RESP0, R, S


def gen_response():
    F = "response"
    W = "POLICY Status-line, RFC 9112 4: HTTP-version SP 3DIGIT SP reason-phrase"
    for name, line, st, rs in [("ok", "HTTP/1.1 200 OK", 200, "OK"), ("1.0", "HTTP/1.0 200 OK", 200, "OK"),
                               ("reason-spaces", "HTTP/1.1 404 Not Found", 404, "Not Found"),
                               ("reason-long", "HTTP/1.1 500 Internal Server Error: the database is on fire", 500,
                                "Internal Server Error: the database is on fire"),
                               ("reason-obs-text", "HTTP/1.1 200 Gr\xfc\xdfe", 200, "Gr\xfc\xdfe"),
                               ("reason-utf8", "HTTP/1.1 200 " + "\xc3\xa7a va", 200, "\xc3\xa7a va"),
                               ("reason-htab", "HTTP/1.1 200 O\tK", 200, "O\tK"),
                               ("reason-symbols", "HTTP/1.1 200 !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", 200,
                                "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"),
                               ("reason-unusual-for-code", "HTTP/1.1 200 Not Found", 200, "Not Found"),
                               ("empty-reason", "HTTP/1.1 200 ", 200, ""),
                               ("no-sp-after-code", "HTTP/1.1 200", 200, ""),
                               ("no-sp-after-code-404", "HTTP/1.1 404", 404, ""),
                               ("status-100-range-low", None, 100, "Continue"),
                               ("status-599", "HTTP/1.1 599 Whatever", 599, "Whatever"),
                               ("status-299", "HTTP/1.1 299 X", 299, "X"),
                               ("status-unknown-418", "HTTP/1.1 418 I'm a teapot", 418, "I'm a teapot")]:
        if line is None:
            S(F, "response/status-line/" + name, "HTTP/1.1 100 Continue\r\n\r\n" + RESP0,
              [M(status=100, reason="Continue"), M(status=200)], W + "; D1: 100..599 is the valid range",
              request_method=["GET"])
            continue
        S(F, "response/status-line/" + name, line + "\r\nContent-Length: 0\r\n\r\n",
          [M(version=line[:8], status=st, reason=rs)],
          W + ("; POLICY: no SP after the code is accepted as an empty reason" if "no-sp" in name else
               "; D1: 100..599 is the valid range" if name.startswith("status") else ""))
    for name, line in [("code-then-text", "HTTP/1.1 200OK"), ("code-2-digits", "HTTP/1.1 20 OK"),
                       ("code-4-digits", "HTTP/1.1 2000 OK"), ("code-letters", "HTTP/1.1 2x0 OK"),
                       ("double-sp-before-code", "HTTP/1.1  200 OK"), ("negative", "HTTP/1.1 -20 OK"),
                       ("no-code", "HTTP/1.1 OK"), ("version-only", "HTTP/1.1"), ("version-sp", "HTTP/1.1 "),
                       ("htab-after-version", "HTTP/1.1\t200 OK"), ("htab-after-code", "HTTP/1.1 200\tOK"),
                       ("lowercase-http", "http/1.1 200 OK"), ("version-no-minor", "HTTP/1 200 OK"),
                       ("version-3-parts", "HTTP/1.1.1 200 OK"), ("version-11", "HTTP/11 200 OK"),
                       ("leading-sp", " HTTP/1.1 200 OK"), ("icy", "ICY 200 OK"), ("reason-del", "HTTP/1.1 200 O\x7fK"),
                       ("reason-ctl", "HTTP/1.1 200 O\x01K"), ("reason-nul", "HTTP/1.1 200 OK\x00"),
                       ("reason-vt", "HTTP/1.1 200 O\x0bK"), ("code-plus", "HTTP/1.1 +20 OK"),
                       ("code-fullwidth", "HTTP/1.1 \xb2\xb2\xb2 OK"), ("empty-line", "")]:
        S(F, "response/status-line/" + name, line + "\r\nContent-Length: 0\r\n\r\n", R, W)
    for code in ["000", "099", "600", "999", "001"]:
        S(F, "response/status-line/status-" + code, "HTTP/1.1 %s X\r\nContent-Length: 0\r\n\r\n" % code, R,
          "D1, RFC 9110 15: a status code outside 100..599 is rejected")
    S(F, "response/fields/ws-before-colon", "HTTP/1.1 200 OK\r\nServer : x\r\nContent-Length: 0\r\n\r\n", R,
      "POLICY Fields, RFC 9112 5.1: whitespace between field name and colon is an error")
    S(F, "response/fields/bad-value-byte", "HTTP/1.1 200 OK\r\nServer: a\x01\r\nContent-Length: 0\r\n\r\n", R,
      "POLICY Fields, RFC 9110 5.5: field-value bytes are VCHAR, obs-text, SP, HTAB")
    S(F, "response/fields/no-host-needed", "HTTP/1.1 200 OK\r\nServer: x\r\nContent-Length: 0\r\n\r\n",
      [M(headers=[["Server", "x"], ["Content-Length", "0"]])], "D7, RFC 9112 3.2: Host is required only in HTTP/1.1 requests")
    S(F, "response/fields/set-cookie-repeated",
      "HTTP/1.1 200 OK\r\nSet-Cookie: a=1; Path=/\r\nSet-Cookie: b=2; Expires=Wed, 21 Oct 2026 07:28:00 GMT\r\nContent-Length: 0\r\n\r\n",
      [M(headers=[["Set-Cookie", "a=1; Path=/"], ["Set-Cookie", "b=2; Expires=Wed, 21 Oct 2026 07:28:00 GMT"],
                  ["Content-Length", "0"]])], "RFC 9110 5.3: repeated field lines are reported as sent, in order")
    W = "D13, RFC 9110 15.2, RFC 9112 6.3 rule 1: interim responses have no body and are followed by the final response; each is an outcome"
    S(F, "response/interim/100-then-200", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
      [M(status=100, reason="Continue", body="", keep_alive=True), M(status=200, body="ok")], W, request_method=["POST"])
    S(F, "response/interim/103-then-200", "HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload; as=style\r\n\r\n"
      "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
      [M(status=103, headers=[["Link", "</style.css>; rel=preload; as=style"]], body=""), M(status=200, body="ok")], W,
      request_method=["GET"])
    S(F, "response/interim/100-103-102-then-200", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.js>; rel=preload\r\n\r\n"
      "HTTP/1.1 102 Processing\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n",
      [M(status=100), M(status=103), M(status=102), M(status=201, body="")], W, request_method=["PUT"])
    S(F, "response/interim/103-then-head-answer", "HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n"
      "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n",
      [M(status=103), M(status=200, body="", content_length=10)], W + "; request_method counts only final responses",
      request_method=["HEAD"])
    S(F, "response/interim/head-then-interim-then-get", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n"
      "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc",
      [M(status=200, body=""), M(status=100), M(status=200, body="abc")], W + "; request_method counts only final responses",
      request_method=["HEAD", "POST"])
    S(F, "response/interim/100-eof", "HTTP/1.1 100 Continue\r\n\r\n", [M(status=100, body="")],
      W + "; D10: the stream ends between messages")
    S(F, "response/interim/199-unknown", "HTTP/1.1 199 Odd\r\n\r\n" + RESP0, [M(status=199, body=""), M(status=200)],
      "POLICY Body framing, RFC 9110 15.2, D13: every 1xx has no body")
