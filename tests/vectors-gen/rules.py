"""Rule cases: one accepted and one rejected case (at least) for every rule of
POLICY.md and docs/policy-decisions.md ("D<n>" in `why` names a decision)."""

from common import M, add

H = "Host: a\r\n"
GET = "GET / HTTP/1.1\r\nHost: a\r\n\r\n"
RESP0 = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"


def Q(file, id, input, expect, why):
    add(file, id, "request", input, expect, why)


def S(file, id, input, expect, why, request_method=None):
    add(file, id, "response", input, expect, why, request_method)


R = "reject"
INC = "incomplete"


# ---------------------------------------------------------------- lines
def gen_lines():
    F = "lines"
    Q(F, "lines/crlf/minimal-request", GET,
      [M(method="GET", target="/", version="HTTP/1.1", headers=[["Host", "a"]], body="",
         content_length=None, chunked=False, keep_alive=True)],
      "RFC 9112 2.1: every line ends in CRLF")
    S(F, "lines/crlf/minimal-response", RESP0,
      [M(version="HTTP/1.1", status=200, reason="OK", headers=[["Content-Length", "0"]], body="")],
      "RFC 9112 2.1: every line ends in CRLF")

    bare_lf = [
        ("request-line-end", "GET / HTTP/1.1\nHost: a\r\n\r\n"),
        ("field-line-end", "GET / HTTP/1.1\r\nHost: a\nX: y\r\n\r\n"),
        ("last-field-line-end", "GET / HTTP/1.1\r\nHost: a\n\r\n"),
        ("final-empty-line", "GET / HTTP/1.1\r\nHost: a\r\n\n"),
        ("all-lines", "GET / HTTP/1.1\nHost: a\n\n"),
        ("inside-request-line", "GET /\n HTTP/1.1\r\nHost: a\r\n\r\n"),
        ("inside-field-value", "GET / HTTP/1.1\r\nHost: a\r\nX: a\nb\r\n\r\n"),
        ("leading-empty-line", "\nGET / HTTP/1.1\r\nHost: a\r\n\r\n"),
        ("leading-empty-line-after-crlf", "\r\n\nGET / HTTP/1.1\r\nHost: a\r\n\r\n"),
        ("lf-cr", "GET / HTTP/1.1\n\rHost: a\r\n\r\n"),
    ]
    for name, inp in bare_lf:
        Q(F, "lines/bare-lf/" + name, inp, R, "POLICY Lines, RFC 9112 2.2: a bare LF in the head is an error")
    S(F, "lines/bare-lf/status-line-end", "HTTP/1.1 200 OK\nContent-Length: 0\r\n\r\n", R,
      "POLICY Lines, RFC 9112 2.2: a bare LF in the head is an error")
    S(F, "lines/bare-lf/response-final-empty-line", "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\n", R,
      "POLICY Lines, RFC 9112 2.2: a bare LF in the head is an error")

    bare_cr = [
        ("request-line-end", "GET / HTTP/1.1\rHost: a\r\n\r\n"),
        ("field-line-end", "GET / HTTP/1.1\r\nHost: a\rX: y\r\n\r\n"),
        ("inside-field-value", "GET / HTTP/1.1\r\nHost: a\r\nX: a\rb\r\n\r\n"),
        ("before-crlf", "GET / HTTP/1.1\r\r\nHost: a\r\n\r\n"),
        ("final-empty-line", "GET / HTTP/1.1\r\nHost: a\r\n\r\r\n"),
        ("leading", "\rGET / HTTP/1.1\r\nHost: a\r\n\r\n"),
        ("inside-request-line", "GET /\r HTTP/1.1\r\nHost: a\r\n\r\n"),
        ("cr-only-lines", "GET / HTTP/1.1\rHost: a\r\r"
                          "GET / HTTP/1.1\r\nHost: a\r\n\r\n"),
    ]
    for name, inp in bare_cr:
        Q(F, "lines/bare-cr/" + name, inp, R, "POLICY Lines, RFC 9112 2.2: a bare CR in the head is an error")
    S(F, "lines/bare-cr/status-line-end", "HTTP/1.1 200 OK\rContent-Length: 0\r\n\r\n", R,
      "POLICY Lines, RFC 9112 2.2: a bare CR in the head is an error")

    nul = [
        ("leading", "\x00GET / HTTP/1.1\r\nHost: a\r\n\r\n"),
        ("method", "G\x00ET / HTTP/1.1\r\nHost: a\r\n\r\n"),
        ("target", "GET /\x00 HTTP/1.1\r\nHost: a\r\n\r\n"),
        ("version", "GET / HTTP/1.1\x00\r\nHost: a\r\n\r\n"),
        ("field-name", "GET / HTTP/1.1\r\nHost: a\r\nX\x00: y\r\n\r\n"),
        ("field-value", "GET / HTTP/1.1\r\nHost: a\r\nX: a\x00b\r\n\r\n"),
        ("field-value-end", "GET / HTTP/1.1\r\nHost: a\r\nX: ab\x00\r\n\r\n"),
        ("own-line", "GET / HTTP/1.1\r\nHost: a\r\n\x00\r\n\r\n"),
        ("before-final-crlf", "GET / HTTP/1.1\r\nHost: a\r\n\x00\r\n"),
    ]
    for name, inp in nul:
        Q(F, "lines/nul/" + name, inp, R, "POLICY Lines, RFC 9110 5.5: a NUL anywhere in the head is an error")
    S(F, "lines/nul/reason", "HTTP/1.1 200 O\x00K\r\nContent-Length: 0\r\n\r\n", R,
      "POLICY Lines, RFC 9110 5.5: a NUL anywhere in the head is an error")
    Q(F, "lines/nul/in-body-ok", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\na\x00b",
      [M(method="POST", body="a\x00b", content_length=3)],
      "POLICY Lines: the NUL rule is about the head; body bytes are opaque (RFC 9112 6)")
    Q(F, "lines/bare-lf/in-body-ok", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\na\nb\rc",
      [M(method="POST", body="a\nb\rc", content_length=5)],
      "POLICY Lines: line rules apply to the head; body bytes are opaque (RFC 9112 6)")

    # leading empty lines
    for n in (1, 2):
        Q(F, "lines/leading-empty/%d-skipped" % n, "\r\n" * n + GET,
          [M(method="GET", target="/", headers=[["Host", "a"]])],
          "POLICY Lines, RFC 9112 2.2: up to 2 empty lines before a request-line are skipped")
    Q(F, "lines/leading-empty/0", GET, [M(method="GET", target="/")],
      "POLICY Lines, RFC 9112 2.2: no empty line before the request-line")
    for n in (3, 4):
        Q(F, "lines/leading-empty/%d-rejected" % n, "\r\n" * n + GET, R,
          "POLICY Lines, RFC 9112 2.2: a third empty line before a request-line is an error")
    Q(F, "lines/leading-empty/2-then-post-body",
      "\r\n\r\nPOST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nhi",
      [M(method="POST", body="hi", content_length=2)],
      "POLICY Lines, RFC 9112 2.2: 2 skipped empty lines do not disturb framing")
    Q(F, "lines/leading-empty/only-empty-lines", "\r\n\r\n", [],
      "D10, RFC 9112 2.2: a stream that ends after nothing but skippable empty lines gives no outcome")
    Q(F, "lines/leading-empty/empty-stream", "", [],
      "D10, RFC 9112 2.2: an empty stream gives no outcome")
    Q(F, "lines/leading-empty/one-empty-line", "\r\n", [],
      "D10, RFC 9112 2.2: a stream that ends after nothing but skippable empty lines gives no outcome")
    S(F, "lines/leading-empty/before-status-line", "\r\n" + RESP0, R,
      "D8: empty lines before a status-line are an error (RFC 9112 2.2 allows them only before a request-line)")
    S(F, "lines/leading-empty/two-before-status-line", "\r\n\r\n" + RESP0, R,
      "D8, RFC 9112 2.2: empty lines before a status-line are an error")
    S(F, "lines/leading-empty/empty-response-stream", "", [],
      "D10, RFC 9112 2.2: an empty stream gives no outcome")

    # whitespace at the start of the first header line
    Q(F, "lines/first-field-ws/sp", "GET / HTTP/1.1\r\n Host: a\r\n\r\n", R,
      "POLICY Lines, RFC 9112 2.2: whitespace at the start of the first header line is an error")
    Q(F, "lines/first-field-ws/htab", "GET / HTTP/1.1\r\n\tHost: a\r\n\r\n", R,
      "POLICY Lines, RFC 9112 2.2: whitespace at the start of the first header line is an error")
    Q(F, "lines/first-field-ws/sp-other-field", "GET / HTTP/1.1\r\n X: y\r\nHost: a\r\n\r\n", R,
      "POLICY Lines, RFC 9112 2.2: whitespace at the start of the first header line is an error")
    S(F, "lines/first-field-ws/response", "HTTP/1.1 200 OK\r\n Content-Length: 0\r\n\r\n", R,
      "POLICY Lines, RFC 9112 2.2: whitespace at the start of the first header line is an error")
    Q(F, "lines/first-field-ws/none-ok", "GET / HTTP/1.1\r\nHost:a\r\nX:y\r\n\r\n",
      [M(headers=[["Host", "a"], ["X", "y"]])],
      "POLICY Lines: a first header line that starts with the name is fine; OWS after ':' is optional (RFC 9112 5)")

    # obs-fold
    Q(F, "lines/obs-fold/sp", "GET / HTTP/1.1\r\nHost: a\r\nX: b\r\n c\r\n\r\n", R,
      "POLICY Lines, RFC 9112 5.2: obs-fold is an error")
    Q(F, "lines/obs-fold/htab", "GET / HTTP/1.1\r\nHost: a\r\nX: b\r\n\tc\r\n\r\n", R,
      "POLICY Lines, RFC 9112 5.2: obs-fold is an error")
    Q(F, "lines/obs-fold/empty-first-part", "GET / HTTP/1.1\r\nHost: a\r\nX:\r\n c\r\n\r\n", R,
      "POLICY Lines, RFC 9112 5.2: obs-fold is an error")
    Q(F, "lines/obs-fold/host", "GET / HTTP/1.1\r\nHost:\r\n a\r\n\r\n", R,
      "POLICY Lines, RFC 9112 5.2: obs-fold is an error")
    Q(F, "lines/obs-fold/last-line", "GET / HTTP/1.1\r\nHost: a\r\n \r\n\r\n", R,
      "POLICY Lines, RFC 9112 5.2: a line starting with SP after a field line is obs-fold, an error")
    S(F, "lines/obs-fold/response", "HTTP/1.1 200 OK\r\nX: b\r\n c\r\nContent-Length: 0\r\n\r\n", R,
      "POLICY Lines, RFC 9112 5.2: obs-fold is an error")
    Q(F, "lines/obs-fold/inner-sp-ok", "GET / HTTP/1.1\r\nHost: a\r\nX: b c\r\n\r\n",
      [M(headers=[["Host", "a"], ["X", "b c"]])],
      "POLICY Lines: SP inside a field value is not obs-fold (RFC 9110 5.5)")


# ---------------------------------------------------------------- request-line
def gen_request_line():
    F = "request-line"
    W = "RFC 9112 3: method SP request-target SP HTTP-version CRLF, exactly one SP between parts"
    Q(F, "request-line/sp/single", "GET /a HTTP/1.1\r\nHost: a\r\n\r\n",
      [M(method="GET", target="/a", version="HTTP/1.1")], W)
    for name, line in [
        ("double-after-method", "GET  / HTTP/1.1"),
        ("double-after-target", "GET /  HTTP/1.1"),
        ("trailing-sp", "GET / HTTP/1.1 "),
        ("leading-sp", " GET / HTTP/1.1"),
        ("htab-separators", "GET\t/\tHTTP/1.1"),
        ("htab-after-method", "GET\t/ HTTP/1.1"),
        ("htab-after-target", "GET /\tHTTP/1.1"),
        ("missing-version", "GET /"),
        ("missing-version-sp", "GET / "),
        ("method-only", "GET"),
        ("sp-in-target", "GET /a b HTTP/1.1"),
        ("four-parts", "GET / HTTP/1.1 x"),
        ("empty-target", "GET  HTTP/1.1"),
        ("vt-separator", "GET\x0b/ HTTP/1.1"),
        ("ff-separator", "GET /\x0cHTTP/1.1"),
    ]:
        Q(F, "request-line/sp/" + name, line + "\r\nHost: a\r\n\r\n", R, W)
    Q(F, "request-line/empty-line-only-then-get", "\r\n" + GET, [M(method="GET")],
      "RFC 9112 2.2: an empty line before the request-line is skipped")

    # method
    W = "POLICY Request-line, RFC 9110 9.1 and 5.6.2: method is a case-sensitive token, any token accepted"
    for name, m in [("get", "GET"), ("post", "POST"), ("put", "PUT"), ("delete", "DELETE"),
                    ("patch", "PATCH"), ("head", "HEAD"), ("trace", "TRACE"),
                    ("unknown", "FOO"), ("m-search", "M-SEARCH"), ("propfind", "PROPFIND"),
                    ("lowercase", "get"), ("mixed-case", "Get"), ("one-char", "X"),
                    ("all-tchar", "!#$%&'*+-.^_`|~09AZaz"), ("digits", "123"),
                    ("long", "A" * 100)]:
        Q(F, "request-line/method/" + name, m + " / HTTP/1.1\r\nHost: a\r\n\r\n",
          [M(method=m, target="/")], W)
    for name, m in [("paren", "GE(T"), ("slash", "GE/T"), ("at", "G@T"), ("colon", "GET:"),
                    ("quote", 'G"T'), ("obs-text", "G\xc9T"), ("del", "GE\x7fT"),
                    ("comma", "GET,POST"), ("brackets", "[GET]")]:
        Q(F, "request-line/method/" + name, m + " / HTTP/1.1\r\nHost: a\r\n\r\n", R, W + ": not a tchar")
    Q(F, "request-line/method/lowercase-connect", "connect a.example:443 HTTP/1.1\r\nHost: a.example:443\r\n\r\n", R,
      "POLICY Request-line, RFC 9110 9.1, RFC 9112 3.2.3: methods are case-sensitive, so `connect` is not CONNECT and may not use authority-form")
    Q(F, "request-line/method/lowercase-options-asterisk", "options * HTTP/1.1\r\nHost: a\r\n\r\n", R,
      "POLICY Request-line, RFC 9110 9.1, RFC 9112 3.2.4: methods are case-sensitive, so `options` is not OPTIONS and may not use asterisk-form")
    Q(F, "request-line/method/lowercase-absolute-form", "get http://a/ HTTP/1.1\r\nHost: a\r\n\r\n",
      [M(method="get", target="http://a/")],
      "POLICY Request-line: absolute-form is allowed for any method (RFC 9112 3.2.2)")

    # origin-form
    W = "POLICY Request-line, RFC 9112 3.2.1, RFC 3986 3.3/3.4: origin-form = absolute-path [ \"?\" query ] of pchar"
    for name, t in [("root", "/"), ("segments", "/a/b/c"), ("query", "/a?b=c&d=e"),
                    ("empty-segments", "//a//b/"), ("empty-query", "/?"), ("query-qmark-slash", "/a?b?c/d"),
                    ("pct-upper", "/%41%2F"), ("pct-lower", "/%aa%bf"), ("pct-in-query", "/?a=%20b"),
                    ("pct-00", "/%00"), ("tilde", "/~user/"), ("colon-at", "/a:b@c"),
                    ("sub-delims", "/!$&'()*+,;="), ("unreserved", "/-._~09AZaz"),
                    ("dot-segments", "/a/../b/./c"), ("query-only-slashes", "/?//"),
                    ("long", "/" + "a" * 2000)]:
        Q(F, "request-line/origin-form/" + name, "GET %s HTTP/1.1\r\nHost: a\r\n\r\n" % t,
          [M(method="GET", target=t)], W)
    for name, t in [("no-leading-slash", "a/b"), ("pct-one-digit", "/%4"), ("pct-alone", "/%"),
                    ("pct-not-hex", "/%zz"), ("pct-half-hex", "/%4g"), ("pct-in-query-alone", "/?a=%"),
                    ("pct-in-query-bad", "/?%g0"), ("pct-pct", "/%%41"), ("pct-end-one-digit", "/a%2"),
                    ("backslash", "/a\\b"), ("brackets", "/[a]"), ("caret", "/a^b"), ("pipe", "/a|b"),
                    ("braces", "/{a}"), ("lt-gt", "/<a>"), ("dquote", '/"a"'), ("backtick", "/`a`"),
                    ("obs-text", "/caf\xe9"), ("utf8-raw", "/" + "\xc3\xa9")]:
        Q(F, "request-line/origin-form/" + name, "GET %s HTTP/1.1\r\nHost: a\r\n\r\n" % t, R,
          W + "; every \"%\" starts a two-hex-digit pct-encoding")

    # fragment
    W = "POLICY Request-line, RFC 9112 3.2: a fragment (\"#\") in the request-target is an error"
    for name, t in [("path", "/a#b"), ("empty", "/#"), ("query", "/?a#b"), ("trailing", "/a#"),
                    ("absolute-form", "http://a/#x"), ("pct-then-hash", "/%41#")]:
        Q(F, "request-line/fragment/" + name, "GET %s HTTP/1.1\r\nHost: a\r\n\r\n" % t, R, W)
    Q(F, "request-line/fragment/pct-encoded-hash-ok", "GET /a%23b HTTP/1.1\r\nHost: a\r\n\r\n",
      [M(target="/a%23b")], "RFC 3986 2.1: %23 is a pct-encoding, not a fragment; the target is reported as sent")

    # absolute-form
    W = "POLICY Request-line, RFC 9112 3.2.2: absolute-form is allowed for any method"
    for name, m, t, host in [
        ("get", "GET", "http://a/", "a"),
        ("post-query", "POST", "http://a/x?y=1", "a"),
        ("put-https-port", "PUT", "https://a:8443/x", "a:8443"),
        ("delete", "DELETE", "http://a/x", "a"),
        ("options", "OPTIONS", "http://a/", "a"),
        ("unknown-method", "FOO", "http://a/", "a"),
        ("scheme-uppercase", "GET", "HTTP://A/", "A"),
        ("scheme-mixed-case", "GET", "hTtPs://a/", "a"),
        ("empty-path", "GET", "http://a", "a"),
        ("empty-path-query", "GET", "http://a?x=1", "a"),
        ("ipv6", "GET", "http://[::1]:8080/", "[::1]:8080"),
        ("ipv4", "GET", "http://192.0.2.1/p", "192.0.2.1"),
        ("pct", "GET", "http://a/%41?%42", "a"),
        ("long-path", "GET", "http://a.example.com/a/b/c/d?e=f&g=h/i?j", "a.example.com"),
    ]:
        Q(F, "request-line/absolute-form/" + name, "%s %s HTTP/1.1\r\nHost: %s\r\n\r\n" % (m, t, host),
          [M(method=m, target=t)], W)
    W2 = "D2, RFC 9110 4.2.1/4.2.2/4.2.4: http(s) absolute-form needs \"//\" and a non-empty host, no userinfo"
    for name, t in [("http-no-slashes", "http:/a"), ("http-no-authority", "http:a"),
                    ("http-empty-host", "http:///x"), ("http-empty-host-no-path", "http://"),
                    ("https-empty-host", "https:///"), ("userinfo", "http://u@a/"),
                    ("userinfo-password", "http://u:p@a/"), ("userinfo-https", "https://user@a")]:
        Q(F, "request-line/absolute-form/" + name, "GET %s HTTP/1.1\r\nHost: a\r\n\r\n" % t, R, W2)
    W3 = "POLICY Request-line, RFC 3986 3 and 3.1: absolute-form is scheme \":\" hier-part with the target byte rules"
    for name, t in [("pct-bad", "http://a/%zz"), ("lt", "http://a/<"), ("bad-scheme-digit", "1http://a/"),
                    ("bad-scheme-char", "h@p://a/"), ("empty-scheme", "://a/"), ("obs-text", "http://a/\xe9"),
                    ("backslash", "http://a\\b/")]:
        Q(F, "request-line/absolute-form/" + name, "GET %s HTTP/1.1\r\nHost: a\r\n\r\n" % t, R, W3)

    # authority-form
    W = "POLICY Request-line, RFC 9112 3.2.3, D3: authority-form (uri-host \":\" port) only with CONNECT"
    for name, t in [("name", "a.example:443"), ("ipv4", "192.0.2.1:443"), ("ipv6", "[2001:db8::1]:443"),
                    ("port-65535", "a:65535"), ("port-5-digits-above-65535", "a:99999"),
                    ("port-leading-zero", "a:0443"), ("uppercase-host", "A.EXAMPLE:443")]:
        Q(F, "request-line/authority-form/" + name, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n" % (t, t),
          [M(method="CONNECT", target=t, headers=[["Host", t]], body="", content_length=None)], W)
    for name, t in [("no-port", "a.example"), ("origin-form", "/"), ("asterisk", "*"),
                    ("absolute-form", "http://a.example:443/"), ("userinfo", "u@a.example:443"),
                    ("path", "a.example:443/x"), ("port-6-digits", "a:123456"), ("port-not-digits", "a:b"),
                    ("port-sign", "a:+443"), ("ipv6-unbracketed", "2001:db8::1:443"), ("query", "a:443?x")]:
        Q(F, "request-line/authority-form/" + name, "CONNECT %s HTTP/1.1\r\nHost: a.example:443\r\n\r\n" % t, R,
          W + "; CONNECT only with authority-form")
    for m, t in [("GET", "a.example:443"), ("POST", "localhost:8080"), ("OPTIONS", "a:443"),
                 ("FOO", "192.0.2.1:80")]:
        Q(F, "request-line/authority-form/with-%s" % m.lower(), "%s %s HTTP/1.1\r\nHost: a\r\n\r\n" % (m, t), R,
          W + "; D2: host:port is authority-form even though it matches absolute-URI")

    # asterisk-form
    W = "POLICY Request-line, RFC 9112 3.2.4: asterisk-form only with OPTIONS"
    Q(F, "request-line/asterisk-form/options", "OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n",
      [M(method="OPTIONS", target="*")], W)
    Q(F, "request-line/asterisk-form/options-1.0", "OPTIONS * HTTP/1.0\r\n\r\n",
      [M(method="OPTIONS", target="*", version="HTTP/1.0")], W)
    Q(F, "request-line/asterisk-form/options-origin-form", "OPTIONS /* HTTP/1.1\r\nHost: a\r\n\r\n",
      [M(method="OPTIONS", target="/*")], W + "; \"/*\" is origin-form (\"*\" is a sub-delim)")
    for name, line in [("get", "GET *"), ("post", "POST *"), ("head", "HEAD *"), ("m-search", "M-SEARCH *"),
                       ("options-star-slash", "OPTIONS */"), ("options-double-star", "OPTIONS **"),
                       ("options-star-query", "OPTIONS *?a")]:
        Q(F, "request-line/asterisk-form/" + name, line + " HTTP/1.1\r\nHost: a\r\n\r\n", R, W)

    # version
    W = "POLICY Request-line, RFC 9112 2.3: HTTP-version is HTTP/1.1 or HTTP/1.0"
    Q(F, "request-line/version/1.1", GET, [M(version="HTTP/1.1", keep_alive=True)], W)
    Q(F, "request-line/version/1.0", "GET / HTTP/1.0\r\n\r\n", [M(version="HTTP/1.0", keep_alive=False)], W)
    Q(F, "request-line/version/1.0-with-host", "GET / HTTP/1.0\r\nHost: a\r\n\r\n",
      [M(version="HTTP/1.0", headers=[["Host", "a"]])], W)
    for v in ["HTTP/1.2", "HTTP/2.0", "HTTP/0.9", "HTTP/3.0", "HTTP/9.9", "HTTP/1.9", "HTTP/0.0"]:
        Q(F, "request-line/version/other-" + v[5:], "GET / %s\r\nHost: a\r\n\r\n" % v, R,
          "POLICY Request-line, RFC 9110 2.5 and 15.6.6: any other well-formed HTTP/x.y is its own error (505)")
    for name, v in [("no-minor", "HTTP/1"), ("major-2-only", "HTTP/2"), ("trailing-dot", "HTTP/1."),
                    ("leading-dot", "HTTP/.1"), ("three-parts", "HTTP/1.1.1"), ("two-digit-major", "HTTP/11.1"),
                    ("two-digit-minor", "HTTP/1.10"), ("no-dot", "HTTP/11"), ("lowercase", "http/1.1"),
                    ("mixed-case", "Http/1.1"), ("no-slash", "HTTP1.1"), ("sp-for-slash", "HTTP 1.1"),
                    ("letters", "HTTP/a.b"), ("https", "HTTPS/1.1"), ("comma", "HTTP/1,1"),
                    ("backslash", "HTTP\\1.1"), ("leading-zero-major", "HTTP/01.1"), ("plus", "HTTP/+1.1"),
                    ("rtsp", "RTSP/1.0"), ("empty-name", "/1.1")]:
        Q(F, "request-line/version/malformed-" + name, "GET / %s\r\nHost: a\r\n\r\n" % v, R,
          "POLICY Request-line, RFC 9112 2.3: a malformed HTTP-version is a syntax error")
    Q(F, "request-line/version/http-0.9-simple-request", "GET /\r\n\r\n", R,
      "POLICY Request-line, RFC 9112 3: a request-line without HTTP-version is an error")


# ---------------------------------------------------------------- fields
def gen_fields():
    F = "fields"
    W = "POLICY Fields, RFC 9112 5, RFC 9110 5.1/5.6.2: field-name is a token"
    for name, fn in [("simple", "X"), ("dashes", "X-Custom-Header"), ("all-tchar", "!#$%&'*+-.^_`|~09AZaz"),
                     ("underscore", "X_Forwarded_For"), ("digits", "123"), ("long", "X-" + "a" * 200)]:
        Q(F, "fields/name/" + name, "GET / HTTP/1.1\r\nHost: a\r\n%s: v\r\n\r\n" % fn,
          [M(headers=[["Host", "a"], [fn, "v"]])], W)
    Q(F, "fields/name/case-as-sent", "GET / HTTP/1.1\r\nhOsT: a\r\nx-LOWER-upper: v\r\n\r\n",
      [M(headers=[["hOsT", "a"], ["x-LOWER-upper", "v"]])],
      "FORMAT headers: names as sent; RFC 9110 5.1: field names are case-insensitive, so hOsT satisfies the Host rule")
    Q(F, "fields/name/lowercase-content-length", "POST / HTTP/1.1\r\nhost: a\r\ncontent-length: 3\r\n\r\nabc",
      [M(body="abc", content_length=3)], "RFC 9110 5.1: field names are case-insensitive")
    for name, line in [("empty", ": v"), ("no-colon", "Foo"), ("no-colon-sp", "Foo bar"),
                       ("paren", "X(y): v"), ("dquote", 'X"y: v'), ("slash", "X/Y: v"), ("at", "X@Y: v"),
                       ("brackets", "[X]: v"), ("obs-text", "X\xe9: v"), ("del", "X\x7f: v"),
                       ("sp-inside", "X Y: v"), ("equals-not-colon", "X=v")]:
        Q(F, "fields/name/" + name, "GET / HTTP/1.1\r\nHost: a\r\n%s\r\n\r\n" % line, R, W)
    W = "POLICY Fields, RFC 9112 5.1: whitespace between field name and colon is an error"
    for name, line in [("sp", "X : v"), ("htab", "X\t: v"), ("two-sp", "X  : v"), ("host", "Host : a"),
                       ("content-length", "Content-Length : 0"), ("transfer-encoding", "Transfer-Encoding : chunked")]:
        extra = "" if name == "host" else "Host: a\r\n"
        Q(F, "fields/ws-before-colon/" + name, "GET / HTTP/1.1\r\n%s%s\r\n\r\n" % (extra, line), R, W)
    S(F, "fields/ws-before-colon/response", "HTTP/1.1 200 OK\r\nContent-Length : 0\r\n\r\n", R, W)

    W = "POLICY Fields, RFC 9110 5.5, RFC 9112 5.1: leading and trailing SP/HTAB are not part of the value"
    for name, raw, val in [("one-sp", "X: v", "v"), ("no-ows", "X:v", "v"), ("many-sp", "X:    v    ", "v"),
                           ("htab", "X:\tv\t", "v"), ("mixed", "X: \t v \t ", "v"),
                           ("inner-kept", "X: \t a \t b \t ", "a \t b"), ("empty", "X:", ""),
                           ("only-ws", "X: \t \t", ""), ("colons", "X: a:b::c", "a:b::c"),
                           ("quotes", 'X: "a, b"', '"a, b"'), ("obs-text", "X: caf\xe9 \x80\xff", "caf\xe9 \x80\xff"),
                           ("all-vchar", "X: " + "".join(chr(c) for c in range(0x21, 0x7f)),
                            "".join(chr(c) for c in range(0x21, 0x7f)))]:
        Q(F, "fields/value/" + name, "GET / HTTP/1.1\r\nHost: a\r\n%s\r\n\r\n" % raw,
          [M(headers=[["Host", "a"], ["X", val]])], W)
    S(F, "fields/value/response-trim", "HTTP/1.1 200 OK\r\nX:  \tv w\t \r\nContent-Length: 0\r\n\r\n",
      [M(headers=[["X", "v w"], ["Content-Length", "0"]])], W)
    W = "POLICY Fields, RFC 9110 5.5: field-value bytes are VCHAR, obs-text, SP, HTAB"
    for name, raw in [("soh", "X: a\x01b"), ("esc", "X: \x1b[0m"), ("del", "X: a\x7fb"), ("vt", "X: a\x0bb"),
                      ("ff", "X: a\x0cb"), ("vt-leading", "X: \x0bv"), ("ff-trailing", "X: v\x0c"),
                      ("us", "X: a\x1fb")]:
        Q(F, "fields/value/" + name, "GET / HTTP/1.1\r\nHost: a\r\n%s\r\n\r\n" % raw, R, W)
    Q(F, "fields/order/repeated-names", "GET / HTTP/1.1\r\nHost: a\r\nX: 1\r\nY: 2\r\nX: 3\r\n\r\n",
      [M(headers=[["Host", "a"], ["X", "1"], ["Y", "2"], ["X", "3"]])],
      "RFC 9110 5.2/5.3: field lines are reported in order, repeated names kept as separate lines")

    # Host
    W = "POLICY Fields, RFC 9112 3.2: Host"
    Q(F, "fields/host/missing-1.1", "GET / HTTP/1.1\r\nX: y\r\n\r\n", R,
      W + ": an HTTP/1.1 request without Host is an error")
    Q(F, "fields/host/missing-1.1-no-fields", "GET / HTTP/1.1\r\n\r\n", R,
      W + ": an HTTP/1.1 request without Host is an error")
    Q(F, "fields/host/missing-1.0", "GET / HTTP/1.0\r\nX: y\r\n\r\n", [M(version="HTTP/1.0", headers=[["X", "y"]])],
      W + ": D7: Host is required only in HTTP/1.1 requests")
    S(F, "fields/host/not-required-in-response", RESP0, [M(status=200, headers=[["Content-Length", "0"]])],
      W + ": D7: Host is required only in HTTP/1.1 requests")
    for name, hs in [("duplicate-equal", "Host: a\r\nHost: a\r\n"), ("duplicate-different", "Host: a\r\nHost: b\r\n"),
                     ("duplicate-case", "Host: a\r\nhost: a\r\n"), ("duplicate-empty", "Host:\r\nHost: a\r\n"),
                     ("duplicate-apart", "Host: a\r\nX: y\r\nHost: a\r\n")]:
        Q(F, "fields/host/" + name, "GET / HTTP/1.1\r\n%s\r\n" % hs, R, W + ": more than one Host is an error")
    Q(F, "fields/host/duplicate-1.0", "GET / HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n", R,
      W + ": more than one Host is an error (any version)")
    Q(F, "fields/host/comma-list", "GET / HTTP/1.1\r\nHost: a, b\r\n\r\n", R,
      W + ": \"a, b\" is not uri-host [ \":\" port ] (SP is not allowed)")
    for name, raw, val in [("empty", "Host:", ""), ("empty-ws", "Host:  \t ", ""), ("name", "Host: a.example", "a.example"),
                           ("name-port", "Host: a.example:8080", "a.example:8080"), ("ipv4", "Host: 127.0.0.1", "127.0.0.1"),
                           ("ipv4-port", "Host: 127.0.0.1:80", "127.0.0.1:80"), ("ipv6", "Host: [::1]", "[::1]"),
                           ("ipv6-port", "Host: [2001:db8::1]:8443", "[2001:db8::1]:8443"),
                           ("idna", "Host: xn--bcher-kva.example", "xn--bcher-kva.example"),
                           ("underscore", "Host: a_b.example", "a_b.example"), ("uppercase", "Host: A.EXAMPLE", "A.EXAMPLE"),
                           ("trailing-dot", "Host: a.example.", "a.example."),
                           ("port-5-digits", "Host: a:65535", "a:65535"), ("empty-port", "Host: a:", "a:"),
                           ("trailing-ws", "Host: a \t", "a"), ("no-ows", "Host:a", "a")]:
        Q(F, "fields/host/valid-" + name, "GET / HTTP/1.1\r\n%s\r\n\r\n" % raw,
          [M(headers=[[raw.split(":")[0], val]])], W + ": D7: empty, or uri-host [ \":\" port ]")
    for name, val in [("space", "a b"), ("path", "a/b"), ("trailing-slash", "a/"), ("userinfo", "u@a"),
                      ("userinfo-password", "u:p@a"), ("two-ports", "a:80:80"), ("port-6-digits", "a:123456"),
                      ("port-letters", "a:http"), ("ipv6-unclosed", "[::1"), ("ipv6-unbracketed", "::1"),
                      ("ipv6-bad", "[zz]"), ("query", "a?b"), ("fragment", "a#b"), ("scheme", "http://a"),
                      ("dquote", 'a"b'), ("lt", "a<b"), ("backslash", "a\\b"), ("pct-bad", "a%2"),
                      ("obs-text", "caf\xe9"), ("ipv6-junk-after", "[::1]x")]:
        Q(F, "fields/host/invalid-" + name, "GET / HTTP/1.1\r\nHost: %s\r\n\r\n" % val, R,
          W + ": D7: Host must be a valid uri-host [ \":\" port ] or empty")
    Q(F, "fields/host/invalid-1.0", "GET / HTTP/1.0\r\nHost: a b\r\n\r\n", R,
      W + ": D7: Host must be valid when present, also in HTTP/1.0")


# ---------------------------------------------------------------- limits
def _pad_field_request(total, prefix="GET / HTTP/1.1\r\nHost: a\r\nX-Pad: "):
    n = total - len(prefix) - 4
    s = prefix + "p" * n + "\r\n\r\n"
    assert len(s) == total
    return s, "p" * n


def gen_limits():
    F = "limits"
    W = "POLICY Fields limits, RFC 9110 5.4: 64 field lines, inclusive, Host counts"
    fl = ["Host: a"] + ["X-F%02d: v" % i for i in range(1, 64)]
    hs = [["Host", "a"]] + [["X-F%02d" % i, "v"] for i in range(1, 64)]
    Q(F, "limits/field-lines/64-request", "GET / HTTP/1.1\r\n" + "".join(l + "\r\n" for l in fl) + "\r\n",
      [M(headers=hs)], W)
    Q(F, "limits/field-lines/65-request",
      "GET / HTTP/1.1\r\n" + "".join(l + "\r\n" for l in fl) + "X-F64: v\r\n\r\n", R, W)
    Q(F, "limits/field-lines/64-request-1.0-no-host",
      "GET / HTTP/1.0\r\n" + "".join("X-F%02d: v\r\n" % i for i in range(64)) + "\r\n",
      [M(version="HTTP/1.0", headers=[["X-F%02d" % i, "v"] for i in range(64)])], W)
    Q(F, "limits/field-lines/65-request-1.0-no-host",
      "GET / HTTP/1.0\r\n" + "".join("X-F%02d: v\r\n" % i for i in range(65)) + "\r\n", R, W)
    rl = ["Content-Length: 2"] + ["X-F%02d: v" % i for i in range(1, 64)]
    S(F, "limits/field-lines/64-response", "HTTP/1.1 200 OK\r\n" + "".join(l + "\r\n" for l in rl) + "\r\nok",
      [M(status=200, headers=[["Content-Length", "2"]] + [["X-F%02d" % i, "v"] for i in range(1, 64)], body="ok")], W)
    S(F, "limits/field-lines/65-response",
      "HTTP/1.1 200 OK\r\n" + "".join(l + "\r\n" for l in rl) + "X-F64: v\r\n\r\nok", R, W)
    Q(F, "limits/field-lines/64-with-empty-values",
      "GET / HTTP/1.1\r\nHost: a\r\n" + "X:\r\n" * 63 + "\r\n", [M(headers=[["Host", "a"]] + [["X", ""]] * 63)], W)
    Q(F, "limits/field-lines/65-with-empty-values",
      "GET / HTTP/1.1\r\nHost: a\r\n" + "X:\r\n" * 64 + "\r\n", R, W)

    W = ("POLICY Fields limits, RFC 9110 5.4, RFC 9112 3: 8 KiB head, inclusive, counted from the first byte of the start-line "
         "through the CRLF that ends the head")
    s, pad = _pad_field_request(8192)
    Q(F, "limits/head/8192-request", s, [M(headers=[["Host", "a"], ["X-Pad", pad]])], W)
    s, pad = _pad_field_request(8193)
    Q(F, "limits/head/8193-request", s, R, W)
    s, pad = _pad_field_request(8192)
    Q(F, "limits/head/8192-request-after-2-empty-lines", "\r\n\r\n" + s, [M(headers=[["Host", "a"], ["X-Pad", pad]])],
      W + "; skipped empty lines are not part of the head")
    s, pad = _pad_field_request(8192, "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\nX-Pad: ")
    Q(F, "limits/head/8192-request-body-not-counted", s + "0123456789",
      [M(body="0123456789", content_length=10)], W + "; the body is not part of the head")
    t = "/" + "t" * (8192 - len("GET / HTTP/1.1\r\nHost: a\r\n\r\n"))
    s = "GET %s HTTP/1.1\r\nHost: a\r\n\r\n" % t
    assert len(s) == 8192
    Q(F, "limits/head/8192-long-target", s, [M(target=t)], W)
    t2 = t + "t"
    Q(F, "limits/head/8193-long-target", "GET %s HTTP/1.1\r\nHost: a\r\n\r\n" % t2, R, W)
    pre = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nX-Pad: "
    n = 8192 - len(pre) - 4
    S(F, "limits/head/8192-response", pre + "p" * n + "\r\n\r\n",
      [M(status=200, headers=[["Content-Length", "0"], ["X-Pad", "p" * n]])], W)
    S(F, "limits/head/8193-response", pre + "p" * (n + 1) + "\r\n\r\n", R, W)
    s, pad = _pad_field_request(8192)
    Q(F, "limits/head/8192-then-8193-pipelined", s + _pad_field_request(8193)[0],
      [M(headers=[["Host", "a"], ["X-Pad", pad]]), R], W + "; the limit applies to each message's head")

    W = ("POLICY Fields limits, RFC 9112 7.1.1: 64 KiB for one chunk-ext, inclusive; D4: counted from the byte after the last "
         "chunk-size digit up to, not including, the CR")
    CH = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
    ext = ";a=" + "b" * (65536 - 3)
    Q(F, "limits/chunk-ext/65536-data-chunk", CH + "5" + ext + "\r\nhello\r\n0\r\n\r\n",
      [M(body="hello", chunked=True)], W)
    Q(F, "limits/chunk-ext/65537-data-chunk", CH + "5" + ext + "b\r\nhello\r\n0\r\n\r\n", R, W)
    Q(F, "limits/chunk-ext/65536-last-chunk", CH + "5\r\nhello\r\n0" + ext + "\r\n\r\n",
      [M(body="hello", chunked=True)], W)
    Q(F, "limits/chunk-ext/65537-last-chunk", CH + "5\r\nhello\r\n0" + ext + "b\r\n\r\n", R, W)
    Q(F, "limits/chunk-ext/65536-many-exts", CH + "5" + ";a" * 32768 + "\r\nhello\r\n0\r\n\r\n",
      [M(body="hello")], W)
    Q(F, "limits/chunk-ext/65537-many-exts-bws", CH + "5 " + ";a" * 32768 + "\r\nhello\r\n0\r\n\r\n", R,
      W + "; BWS counts")
    Q(F, "limits/chunk-ext/65536-long-size-digits",
      CH + "0000000000000005" + ext + "\r\nhello\r\n0\r\n\r\n", [M(body="hello")],
      W + "; the size digits are not counted")
    Q(F, "limits/chunk-ext/65536-each-of-two-chunks",
      CH + "2" + ext + "\r\nhe\r\n3" + ext + "\r\nllo\r\n0\r\n\r\n", [M(body="hello")],
      W + "; the limit is per chunk-ext")
    RCH = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
    S(F, "limits/chunk-ext/65536-response", RCH + "5" + ext + "\r\nhello\r\n0\r\n\r\n", [M(body="hello")], W)
    S(F, "limits/chunk-ext/65537-response", RCH + "5" + ext + "b\r\nhello\r\n0\r\n\r\n", R, W)

    W = ("POLICY Fields limits, RFC 9112 7.1.2: 64 KiB for the trailer section, inclusive; D11: counted from after the last-chunk "
         "line through the CRLF that ends the trailer section")

    def trailer_section(total):
        lines, names, size = [], [], 2
        i = 0
        while size < total:
            pre = "X-T%d: " % i
            room = total - size - len(pre) - 2
            vlen = min(7000, room)
            if room - vlen < 20 and room <= 7900:  # avoid a tiny tail line
                vlen = room
            assert vlen >= 1
            lines.append(pre + "v" * vlen + "\r\n")
            names.append(["X-T%d" % i, "v" * vlen])
            size += len(lines[-1])
            i += 1
        sec = "".join(lines) + "\r\n"
        assert len(sec) == total, (len(sec), total)
        return sec, names

    sec, tr = trailer_section(65536)
    Q(F, "limits/trailers/65536", CH + "5\r\nhello\r\n0\r\n" + sec, [M(body="hello", trailers=tr)], W)
    sec2, _ = trailer_section(65537)
    Q(F, "limits/trailers/65537", CH + "5\r\nhello\r\n0\r\n" + sec2, R, W)
    Q(F, "limits/trailers/65536-last-chunk-ext-not-counted",
      CH + "5\r\nhello\r\n0;e=x\r\n" + sec, [M(body="hello", trailers=tr)], W)
    S(F, "limits/trailers/65536-response", RCH + "5\r\nhello\r\n0\r\n" + sec, [M(body="hello", trailers=tr)], W)
    S(F, "limits/trailers/65537-response", RCH + "5\r\nhello\r\n0\r\n" + sec2, R, W)
