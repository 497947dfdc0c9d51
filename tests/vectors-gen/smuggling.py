"""Rule cases of tests/vectors/smuggling.jsonl: smuggling shapes: CL.TE, TE.CL, duplicate and
malformed lengths, obfuscated Transfer-Encoding, bare LF, overflows. One accepted and one
rejected case (at least) for every rule; "D<n>" in a `why` names a decision of docs/policy-
decisions.md."""

from common import M, GET, POST, CH, HELLO, R, INC, Q


def gen_smuggling():
    F = "smuggling"
    W = "POLICY Body framing, RFC 9112 6.1/6.3, 11.2: Content-Length with Transfer-Encoding is an error"
    Q(F, "smuggling/cl-te", POST + "Content-Length: 6\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nG", R, W)
    Q(F, "smuggling/te-cl", POST + "Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n8\r\nSMUGGLED\r\n0\r\n\r\n", R, W)
    Q(F, "smuggling/te-cl-obfuscated-te", POST + "Content-Length: 4\r\nTransfer-Encoding: xchunked\r\n\r\n5c\r\n", R, W)
    W = "POLICY Body framing, RFC 9110 8.6, RFC 9112 6.3 rule 5: more than one Content-Length field line is an error, even with equal values"
    Q(F, "smuggling/cl-cl-equal", POST + "Content-Length: 3\r\nContent-Length: 3\r\n\r\nabc", R, W)
    Q(F, "smuggling/cl-cl-different", POST + "Content-Length: 0\r\nContent-Length: 44\r\n\r\n" + GET, R, W)
    W = "POLICY Body framing, RFC 9110 8.6: Content-Length is 1*DIGIT (no sign, spaces inside, commas, hex)"
    for name, v in [("plus", "+3"), ("minus", "-3"), ("space-inside", "1 0"), ("comma-list", "3, 3"),
                    ("comma-list-different", "3, 30"), ("hex", "0x3"), ("trailing-garbage", "3abc"),
                    ("leading-garbage", "abc3"), ("vt", "\x0b3"), ("ff-inside", "3\x0c")]:
        Q(F, "smuggling/cl-" + name, POST + "Content-Length: %s\r\n\r\nabc" % v, R, W)
    W = "POLICY Fields/Body framing, RFC 9110 5.5, RFC 9112 7: Transfer-Encoding value trimmed of SP/HTAB, codings compared case-insensitively"
    for name, v in [("trailing-sp", "chunked "), ("leading-htab", "\tchunked"), ("leading-sp-htab", " \t chunked \t "),
                    ("Chunked", "Chunked"), ("CHUNKED", "CHUNKED")]:
        Q(F, "smuggling/te-" + name, POST + "Transfer-Encoding: %s\r\n\r\n" % v + HELLO,
          [M(body="hello", chunked=True, headers=[["Host", "a"], ["Transfer-Encoding", v.strip(" \t")]])], W)
    W = "POLICY Body framing, RFC 9112 6.1 and 7, D5: in a request the last transfer coding must be chunked; a coding is a token"
    for name, v in [("chunked-identity", "chunked, identity"), ("xchunked", "xchunked"), ("chunked-false", "chunked-false"),
                    ("chunked-semicolon", "chunked;"), ("chunked-bad-param", "chunked;x"),
                    ("chunked-bad-param-eq", "chunked;=1"), ("quoted", '"chunked"'), ("x-chunked-header-value", "x chunked"),
                    ("chunked-sp-x", "chunked x"), ("chunked-chunked", "chunked, chunked")]:
        Q(F, "smuggling/te-" + name, POST + "Transfer-Encoding: %s\r\n\r\n" % v + HELLO, R, W)
    W = "POLICY Fields, RFC 9110 5.5: VT and FF are not allowed in a field value (only SP and HTAB are whitespace)"
    for name, v in [("vt-leading", "\x0bchunked"), ("ff-leading", "\x0cchunked"), ("vt-trailing", "chunked\x0b"),
                    ("ff-trailing", "chunked\x0c"), ("nul-trailing", "chunked\x00"), ("cr-leading", "\rchunked")]:
        Q(F, "smuggling/te-" + name, POST + "Transfer-Encoding: %s\r\n\r\n" % v + HELLO, R, W)
    Q(F, "smuggling/te-obs-fold", POST + "Transfer-Encoding:\r\n chunked\r\n\r\n" + HELLO, R,
      "POLICY Lines, RFC 9112 5.2: obs-fold is an error")
    Q(F, "smuggling/te-obs-fold-continuation", POST + "Transfer-Encoding: gzip\r\n , chunked\r\n\r\n" + HELLO, R,
      "POLICY Lines, RFC 9112 5.2: obs-fold is an error")
    Q(F, "smuggling/te-leading-ws-first-line", "POST / HTTP/1.1\r\n Transfer-Encoding: chunked\r\nHost: a\r\n\r\n" + HELLO, R,
      "POLICY Lines, RFC 9112 2.2: whitespace at the start of the first header line is an error")
    Q(F, "smuggling/te-ws-before-colon", POST + "Transfer-Encoding : chunked\r\n\r\n" + HELLO, R,
      "POLICY Fields, RFC 9112 5.1: whitespace between field name and colon is an error")
    Q(F, "smuggling/te-htab-before-colon", POST + "Transfer-Encoding\t: chunked\r\n\r\n" + HELLO, R,
      "POLICY Fields, RFC 9112 5.1: whitespace between field name and colon is an error")
    Q(F, "smuggling/cl-ws-before-colon", POST + "Content-Length : 5\r\n\r\nhello", R,
      "POLICY Fields, RFC 9112 5.1: whitespace between field name and colon is an error")
    Q(F, "smuggling/te-gzip-then-chunked-lines", POST + "Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n" + HELLO,
      [M(body="hello", chunked=True)], "POLICY Body framing, RFC 9112 6.1: Transfer-Encoding lines are combined; chunked is last")
    Q(F, "smuggling/te-chunked-then-chunked-lines", POST + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n"
      + HELLO, R, "POLICY Body framing, RFC 9112 6.1: chunked applied twice is an error")
    Q(F, "smuggling/te-chunked-then-identity-lines", POST + "Transfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n"
      + HELLO, R, "POLICY Body framing, RFC 9112 6.1: the combined list ends in identity, not chunked: error in a request")
    Q(F, "smuggling/te-in-1.0-with-cl", "POST / HTTP/1.0\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n" + HELLO, R,
      "POLICY Body framing, RFC 9112 6.1: Transfer-Encoding in HTTP/1.0 is an error")
    Q(F, "smuggling/te-underscore-is-other-field", POST + "Transfer_Encoding: chunked\r\n\r\n0\r\n\r\n",
      [M(body="", chunked=False, headers=[["Host", "a"], ["Transfer_Encoding", "chunked"]]), R],
      "RFC 9110 5.1: Transfer_Encoding is another field; the request has no body, and \"0\" then fails as a request-line")
    Q(F, "smuggling/cl-underscore-is-other-field", POST + "Content_Length: 3\r\n\r\n" + GET,
      [M(body="", content_length=None), M(method="GET")],
      "RFC 9110 5.1: Content_Length is another field; the request has no body and the next request is parsed")
    W = "POLICY Body framing, RFC 9112 7.1: chunk-size is at most 16 hex digits without sign or prefix"
    for name, size in [("17-digits", "10000000000000000"), ("17-digits-overflow-to-small", "10000000000000005"),
                       ("20-digits", "FFFFFFFFFFFFFFFFFFFF"), ("negative", "-1"), ("0x-prefix", "0x5"),
                       ("plus", "+5")]:
        Q(F, "smuggling/chunk-size-" + name, CH + "%s\r\nhello\r\n0\r\n\r\n" % size, R, W)
    Q(F, "smuggling/chunk-ext-bare-lf", CH + "5;a=b\nhello\r\n0\r\n\r\n", R, "POLICY Lines, RFC 9112 7.1: a bare LF is an error (chunk-ext line)")
    Q(F, "smuggling/chunk-ext-bare-lf-then-smuggle", CH + "2;\nxx\r\n45\r\n0\r\n\r\nGET /admin HTTP/1.1\r\nHost: a\r\n\r\n\r\n0\r\n\r\n",
      R, "POLICY Lines, RFC 9112 7.1: a bare LF in a chunk line is an error")
    Q(F, "smuggling/chunk-data-lf-terminator", CH + "5\r\nhello\n0\r\n\r\n", R,
      "RFC 9112 7.1: chunk data must be followed by CRLF")
    W = "POLICY Lines, RFC 9112 2.2: every line ends in CRLF; bare LF / bare CR are errors"
    for name, inp in [("lf-request-line", "POST / HTTP/1.1\nHost: a\r\nContent-Length: 5\r\n\r\nhello"),
                      ("lf-field-line", POST + "Content-Length: 5\nTransfer-Encoding: chunked\r\n\r\n" + HELLO),
                      ("lf-empty-line", POST + "Content-Length: 5\r\n\nhello"),
                      ("lf-trailer", CH + "0\r\nX: y\n\r\n"),
                      ("cr-field-line", POST + "Content-Length: 5\rTransfer-Encoding: chunked\r\n\r\n" + HELLO),
                      ("cr-empty-line", POST + "Content-Length: 5\r\n\rhello"),
                      ("cr-chunk-size", CH + "5\rhello\r\n0\r\n\r\n"),
                      ("lf-last-chunk", CH + "0\n\r\n" + GET)]:
        Q(F, "smuggling/bare-" + name, inp, R, W)
    Q(F, "smuggling/nul-in-value", POST + "X: a\x00\r\nContent-Length: 5\r\n\r\nhello", R, "POLICY Lines, RFC 9110 5.5: NUL in the head is an error")
    Q(F, "smuggling/nul-in-te", POST + "Transfer-Encoding: chunked\x00, gzip\r\n\r\n" + HELLO, R, "POLICY Lines, RFC 9110 5.5: NUL in the head is an error")
    Q(F, "smuggling/absolute-form-different-host",
      "GET http://a.example/admin HTTP/1.1\r\nHost: b.example\r\n\r\n",
      [M(method="GET", target="http://a.example/admin", headers=[["Host", "b.example"]])],
      "POLICY does not reject absolute-form with a different Host (RFC 9112 3.2.2 says the target wins; that is the caller's choice)")
    Q(F, "smuggling/absolute-form-empty-host-header", "GET http://a.example/ HTTP/1.1\r\nHost:\r\n\r\n",
      [M(target="http://a.example/", headers=[["Host", ""]])], "POLICY Fields, RFC 9112 3.2: an empty Host is allowed")
    hidden = "GET /admin HTTP/1.1\r\nHost: a\r\n\r\n"
    Q(F, "smuggling/request-hidden-in-cl-body", POST + "Content-Length: %d\r\n\r\n%s" % (len(hidden), hidden),
      [M(method="POST", body=hidden, content_length=len(hidden))],
      "RFC 9112 6.2: the body is exactly Content-Length bytes; a request inside it is data")
    Q(F, "smuggling/request-hidden-in-chunked-body", CH + "%x\r\n%s\r\n0\r\n\r\n" % (len(hidden), hidden),
      [M(method="POST", body=hidden, chunked=True)], "RFC 9112 7.1: chunk data is data")
    Q(F, "smuggling/cl-0-then-request", POST + "Content-Length: 0\r\n\r\n" + hidden,
      [M(method="POST", body="", content_length=0), M(method="GET", target="/admin")],
      "RFC 9112 6.2: Content-Length 0 means no body; what follows is the next request")
    Q(F, "smuggling/chunked-0-then-request", CH + "0\r\n\r\n" + hidden,
      [M(method="POST", body=""), M(method="GET", target="/admin")],
      "RFC 9112 7.1: the last chunk ends the body; what follows is the next request")
    Q(F, "smuggling/get-with-cl-body-request", "GET / HTTP/1.1\r\nHost: a\r\nContent-Length: %d\r\n\r\n%s" % (len(hidden), hidden),
      [M(method="GET", body=hidden)], "RFC 9112 6.2: Content-Length frames a GET body too")
    Q(F, "smuggling/host-duplicate", "GET / HTTP/1.1\r\nHost: a.example\r\nHost: evil.example\r\n\r\n", R,
      "POLICY Fields, RFC 9112 3.2: more than one Host is an error")
    Q(F, "smuggling/host-with-path", "GET / HTTP/1.1\r\nHost: a.example/evil\r\n\r\n", R,
      "POLICY Fields, D7, RFC 9110 7.2: Host has no path")
    Q(F, "smuggling/host-userinfo", "GET / HTTP/1.1\r\nHost: a.example@evil.example\r\n\r\n", R,
      "POLICY Fields, D7, RFC 9110 4.2.4: Host has no userinfo")
    Q(F, "smuggling/te-chunked-large-size-then-eof", CH + "FFFFFFFFFFFFFFFF\r\n" + hidden, [INC],
      "D12, RFC 9112 7.1: 16 hex digits are accepted; the chunk is still open at the end of the stream: incomplete")
    Q(F, "smuggling/request-line-crlf-in-target", "GET /a\r\nX: b HTTP/1.1\r\nHost: a\r\n\r\n", R,
      "RFC 9112 3: a request-line \"GET /a\" has no HTTP-version")
    Q(F, "smuggling/header-name-crlf-injection", POST + "X-A\r\nContent-Length: 5\r\n\r\nhello", R,
      "RFC 9112 5: a field line without a colon is an error")
