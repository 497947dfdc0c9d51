"""Rule cases of tests/vectors/request-line.jsonl: the request-line: the one-SP rule, methods, the
four target forms, percent-encoding, fragments, versions. One accepted and one rejected case
(at least) for every rule; "D<n>" in a `why` names a decision of docs/policy-decisions.md."""

from common import M, GET, R, Q


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
