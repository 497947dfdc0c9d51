"""Rule cases of tests/vectors/lines.jsonl: line ends (CRLF, bare LF and CR), NUL, empty lines
before a request-line, obs-fold. One accepted and one rejected case (at least) for every rule;
"D<n>" in a `why` names a decision of docs/policy-decisions.md."""

from common import M, GET, RESP0, R, Q, S


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
