"""Rule cases of tests/vectors/fields.jsonl: field names and values, trimming, Host. One accepted
and one rejected case (at least) for every rule; "D<n>" in a `why` names a decision of
docs/policy-decisions.md."""

from common import M, RESP0, R, Q, S


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
