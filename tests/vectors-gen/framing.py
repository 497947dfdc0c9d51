"""Rule cases of tests/vectors/framing.jsonl: body framing: Content-Length, Transfer-Encoding, and
framing by status and method. One accepted and one rejected case (at least) for every rule;
"D<n>" in a `why` names a decision of docs/policy-decisions.md."""

from common import M, gzip_stored, RESP0, POST, CH, RCH, HELLO, MAX, R, INC, Q, S


def gen_framing():
    F = "framing"
    W = "POLICY Body framing, RFC 9112 6.2: Content-Length is 1*DIGIT"
    Q(F, "framing/request/content-length", POST + "Content-Length: 5\r\n\r\nhello",
      [M(method="POST", body="hello", content_length=5, chunked=False, keep_alive=True)], W)
    Q(F, "framing/request/content-length-zero", POST + "Content-Length: 0\r\n\r\n",
      [M(body="", content_length=0, chunked=False)], W)
    Q(F, "framing/request/content-length-on-get", "GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc",
      [M(method="GET", body="abc", content_length=3)], W + "; framing does not depend on the method")
    for name, v, n in [("leading-zeros", "007", 7), ("zero-zero", "00", 0),
                       ("ows", "  5 ", 5), ("htab-ows", "\t5\t", 5),
                       ("many-leading-zeros", "0000000000000000000000005", 5)]:
        Q(F, "framing/request/content-length-" + name, POST + "Content-Length: %s\r\n\r\n%s" % (v, "x" * n),
          [M(body="x" * n, content_length=n)], W + "; D6: leading zeros are fine; OWS is not part of the value")
    for name, v in [("plus", "+5"), ("minus", "-5"), ("space-inside", "5 5"), ("comma-equal", "5,5"),
                    ("comma-sp-equal", "5, 5"), ("comma-different", "5, 6"), ("hex", "0x5"), ("hex-letter", "a"),
                    ("decimal", "5.0"), ("exponent", "5e0"), ("empty", ""), ("only-ws", " \t "),
                    ("letters", "five"), ("semicolon", "5;"), ("underscore", "1_0"), ("trailing-comma", "5,"),
                    ("leading-comma", ",5"), ("nul", "5\x00"), ("vt", "5\x0b"), ("superscript", "\xb2")]:
        Q(F, "framing/request/content-length-bad-" + name,
          POST + "Content-Length: %s\r\n\r\nhello" % v, R,
          W + " (no sign, no spaces inside, no commas); D6: an empty value is an error")
    W = "POLICY Body framing, RFC 9112 6.3: more than one Content-Length field line is an error, even with equal values"
    for name, hs in [("equal", "Content-Length: 5\r\nContent-Length: 5\r\n"),
                     ("different", "Content-Length: 5\r\nContent-Length: 6\r\n"),
                     ("case", "Content-Length: 5\r\ncontent-length: 5\r\n"),
                     ("zero", "Content-Length: 0\r\nContent-Length: 0\r\n"),
                     ("apart", "Content-Length: 5\r\nX: y\r\nContent-Length: 5\r\n"),
                     ("one-empty", "Content-Length: 5\r\nContent-Length:\r\n")]:
        Q(F, "framing/request/duplicate-content-length-" + name, POST + hs + "\r\nhello", R, W)
    W = "POLICY Body framing, RFC 9110 8.6: a Content-Length above 2^63-1 is an error"
    for name, v in [("2^63", str(MAX + 1)), ("2^64", str(2 ** 64)), ("2^64+5", str(2 ** 64 + 5)),
                    ("huge", "9" * 40)]:
        Q(F, "framing/request/content-length-" + name, POST + "Content-Length: %s\r\n\r\nhello" % v, R, W)
    Q(F, "framing/request/content-length-2^63-1", POST + "Content-Length: %d\r\n\r\nhello" % MAX, [INC],
      "POLICY Body framing, RFC 9110 8.6, D10: 2^63-1 is accepted; the stream then ends before the body: incomplete")
    Q(F, "framing/request/content-length-2^63-1-leading-zeros", POST + "Content-Length: 0%d\r\n\r\nhi" % MAX, [INC],
      "POLICY Body framing, RFC 9110 8.6, D6: leading zeros do not change the value 2^63-1; the stream ends: incomplete")
    Q(F, "framing/request/content-length-short-body", POST + "Content-Length: 10\r\n\r\nhello", [INC],
      "D10, RFC 9112 8: the stream ends in the middle of the body: incomplete")

    W = "POLICY Body framing, RFC 9112 6.1/6.3: Transfer-Encoding and Content-Length in one message is an error"
    Q(F, "framing/request/te-then-cl", POST + "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n" + HELLO, R, W)
    Q(F, "framing/request/cl-then-te", POST + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n" + HELLO, R, W)
    Q(F, "framing/request/te-and-cl-zero", POST + "Content-Length: 0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", R, W)
    S(F, "framing/response/te-and-cl", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n" + HELLO,
      R, W)
    S(F, "framing/response/cl-and-te-gzip", "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\nContent-Length: 5\r\n\r\nhello",
      R, W)
    W = "POLICY Body framing, RFC 9112 6.1: Transfer-Encoding in an HTTP/1.0 message is an error"
    Q(F, "framing/request/te-in-1.0", "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n" + HELLO, R, W)
    Q(F, "framing/request/te-in-1.0-with-host", "POST / HTTP/1.0\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n" + HELLO,
      R, W)
    Q(F, "framing/request/te-gzip-in-1.0", "POST / HTTP/1.0\r\nTransfer-Encoding: gzip\r\n\r\nhello", R, W)
    Q(F, "framing/request/te-and-cl-in-1.0",
      "POST / HTTP/1.0\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\nhello", R, W)
    S(F, "framing/response/te-in-1.0", "HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + HELLO, R, W)
    Q(F, "framing/request/cl-in-1.0", "POST / HTTP/1.0\r\nContent-Length: 5\r\n\r\nhello",
      [M(version="HTTP/1.0", body="hello", content_length=5, keep_alive=False)],
      "POLICY Body framing, RFC 9112 6.2: Content-Length frames an HTTP/1.0 body")

    W = "POLICY Body framing, RFC 9112 6.1/6.3: chunked (case-insensitive) must be the last transfer coding of a request"
    Q(F, "framing/request/te-chunked", CH + HELLO,
      [M(body="hello", content_length=None, chunked=True, trailers=[])], W)
    for name, v in [("Chunked", "Chunked"), ("CHUNKED", "CHUNKED"), ("cHuNkEd", "cHuNkEd")]:
        Q(F, "framing/request/te-case-" + name, POST + "Transfer-Encoding: %s\r\n\r\n" % v + HELLO,
          [M(body="hello", chunked=True, headers=[["Host", "a"], ["Transfer-Encoding", v]])], W)
    gz = gzip_stored("hello")
    Q(F, "framing/request/te-gzip-chunked", POST + "Transfer-Encoding: gzip, chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n" % (len(gz), gz),
      [M(body=gz, chunked=True, headers=[["Host", "a"], ["Transfer-Encoding", "gzip, chunked"]])],
      W + "; other codings are reported, not decoded")
    for name, v in [("gzip", "gzip"), ("identity", "identity"), ("chunked-gzip", "chunked, gzip"),
                    ("deflate", "deflate"), ("empty", ""), ("only-commas", " , ,"),
                    ("chunked-identity", "chunked, identity")]:
        Q(F, "framing/request/te-last-not-chunked-" + name,
          POST + "Transfer-Encoding: %s\r\n\r\n" % v + HELLO, R, W + "; D5: an empty value lists no coding")
    W = "POLICY Body framing, RFC 9112 6.1: chunked applied twice is an error"
    for name, hs in [("one-line", "Transfer-Encoding: chunked, chunked\r\n"),
                     ("two-lines", "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n"),
                     ("with-gzip-between", "Transfer-Encoding: chunked, gzip, chunked\r\n"),
                     ("case", "Transfer-Encoding: chunked\r\ntransfer-encoding: CHUNKED\r\n")]:
        Q(F, "framing/request/chunked-twice-" + name, POST + hs + "\r\n" + HELLO, R, W)
        S(F, "framing/response/chunked-twice-" + name, "HTTP/1.1 200 OK\r\n" + hs + "\r\n" + HELLO, R, W)
    W = "POLICY Body framing, RFC 9110 5.3, RFC 9112 6.1: more than one Transfer-Encoding field line is combined as a list, then checked as one"
    Q(F, "framing/request/te-two-lines-gzip-chunked",
      POST + "Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n" % (len(gz), gz),
      [M(body=gz, chunked=True,
         headers=[["Host", "a"], ["Transfer-Encoding", "gzip"], ["Transfer-Encoding", "chunked"]])], W)
    Q(F, "framing/request/te-two-lines-chunked-gzip",
      POST + "Transfer-Encoding: chunked\r\nTransfer-Encoding: gzip\r\n\r\n" + HELLO, R,
      W + "; the last coding is then gzip")
    Q(F, "framing/request/te-two-lines-empty-then-chunked",
      POST + "Transfer-Encoding:\r\nTransfer-Encoding: chunked\r\n\r\n" + HELLO, [M(body="hello", chunked=True)],
      W + "; D5: empty elements are ignored")
    W = "D5, RFC 9110 5.6.1.2: empty list elements are ignored"
    for name, v in [("trailing-comma", "chunked,"), ("leading-comma", ", chunked"), ("empty-middle", "gzip, , chunked"),
                    ("many-commas", ",,chunked,,")]:
        Q(F, "framing/request/te-list-" + name, POST + "Transfer-Encoding: %s\r\n\r\n" % v + HELLO,
          [M(body="hello", chunked=True)], W)
    W = "D5, RFC 9112 7: a transfer-coding is a token with optional ;name=value parameters; anything else is an error"
    Q(F, "framing/request/te-params-ok", POST + "Transfer-Encoding: gzip;level=9, chunked\r\n\r\n" + HELLO,
      [M(body="hello", chunked=True)], W)
    Q(F, "framing/request/te-params-bws-ok", POST + "Transfer-Encoding: gzip ; level=9 , chunked\r\n\r\n" + HELLO,
      [M(body="hello", chunked=True)], W)
    for name, v in [("empty-param", "gzip;, chunked"), ("param-no-value", "gzip;level, chunked"),
                    ("chunked-semicolon", "chunked;"), ("chunked-param-no-value", "chunked; a"),
                    ("chunked-param-no-name", "chunked;=x"), ("quoted-coding", '"chunked"'),
                    ("slash", "chunked/1"), ("space-inside", "chun ked"), ("at", "gzip@x, chunked")]:
        Q(F, "framing/request/te-bad-" + name, POST + "Transfer-Encoding: %s\r\n\r\n" % v + HELLO, R, W)

    W = "POLICY Body framing, RFC 9112 6.3 rule 7: a request with neither Content-Length nor Transfer-Encoding has no body"
    Q(F, "framing/request/none-post", POST + "\r\n", [M(method="POST", body="", content_length=None, chunked=False)], W)
    Q(F, "framing/request/none-then-next", POST + "\r\nGET /next HTTP/1.1\r\nHost: a\r\n\r\n",
      [M(method="POST", body=""), M(method="GET", target="/next")], W + "; the next bytes are the next request")
    Q(F, "framing/request/none-then-body-bytes", POST + "\r\nhello", [M(body=""), INC],
      W + "; \"hello\" is the start of the next request-line, cut by the end of the stream")

    # responses
    W = "POLICY Body framing, RFC 9112 6.3: response framing"
    S(F, "framing/response/content-length", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
      [M(status=200, body="hello", content_length=5, chunked=False, keep_alive=True)], W)
    S(F, "framing/response/chunked", RCH + "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n",
      [M(body="hello world", content_length=None, chunked=True, trailers=[], keep_alive=True)], W)
    S(F, "framing/response/chunked-trailers", RCH + "5\r\nhello\r\n0\r\nX-A: 1\r\nX-B:  two \r\n\r\n",
      [M(body="hello", trailers=[["X-A", "1"], ["X-B", "two"]])], W)
    W = "POLICY Body framing, RFC 9112 6.3 rule 8: a response with neither header runs to the end of the stream"
    S(F, "framing/response/until-close-1.1", "HTTP/1.1 200 OK\r\n\r\nabc\r\n\r\nHTTP/1.1 200 OK\r\n\r\n",
      [M(version="HTTP/1.1", body="abc\r\n\r\nHTTP/1.1 200 OK\r\n\r\n", content_length=None, chunked=False,
         keep_alive=False)], W)
    S(F, "framing/response/until-close-1.0", "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nhello\n",
      [M(version="HTTP/1.0", body="hello\n", content_length=None, keep_alive=False)], W)
    S(F, "framing/response/until-close-empty", "HTTP/1.1 200 OK\r\n\r\n",
      [M(body="", content_length=None, keep_alive=False)], W + "; an empty body is complete at the end of the stream")
    S(F, "framing/response/until-close-keep-alive-header", "HTTP/1.1 200 OK\r\nConnection: keep-alive\r\n\r\nxyz",
      [M(body="xyz", keep_alive=False)], W + "; such a response does not keep the connection alive")
    S(F, "framing/response/until-close-binary", "HTTP/1.1 404 Not Found\r\n\r\n\x00\xff\r\n\n\r",
      [M(status=404, body="\x00\xff\r\n\n\r", keep_alive=False)], W)
    W = "POLICY Body framing, RFC 9112 6.1/6.3: Transfer-Encoding whose last coding is not chunked: read until close"
    S(F, "framing/response/te-gzip-until-close", "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n" + gz,
      [M(body=gz, content_length=None, chunked=False, keep_alive=False,
         headers=[["Transfer-Encoding", "gzip"]])], W)
    S(F, "framing/response/te-chunked-gzip-until-close", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\n" + HELLO,
      [M(body=HELLO, chunked=False, keep_alive=False)], W)
    S(F, "framing/response/te-identity-until-close", "HTTP/1.1 200 OK\r\nTransfer-Encoding: identity\r\n\r\nabc",
      [M(body="abc", chunked=False, keep_alive=False)], W)
    S(F, "framing/response/te-empty-until-close", "HTTP/1.1 200 OK\r\nTransfer-Encoding:\r\n\r\nabc",
      [M(body="abc", chunked=False, keep_alive=False)], W + "; D5: an empty value lists no coding")
    S(F, "framing/response/te-two-lines-chunked-gzip", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n"
      "Transfer-Encoding: gzip\r\n\r\n" + HELLO, [M(body=HELLO, chunked=False, keep_alive=False)],
      W + "; field lines are combined first")
    S(F, "framing/response/te-gzip-chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"
      "%x\r\n%s\r\n0\r\n\r\n" % (len(gz), gz), [M(body=gz, chunked=True, keep_alive=True)],
      "POLICY Body framing, RFC 9112 7: only chunked is removed; gzip is reported, not decoded")
    S(F, "framing/response/te-two-lines-gzip-chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n"
      "Transfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n" % (len(gz), gz), [M(body=gz, chunked=True)],
      "POLICY Body framing, RFC 9110 5.3: Transfer-Encoding field lines are combined as a list")
    S(F, "framing/response/te-bad-coding", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked;\r\n\r\n" + HELLO, R,
      "D5, RFC 9112 7: anything but a token with ;name=value parameters in Transfer-Encoding is an error")
    W = "POLICY Body framing, RFC 9110 8.6, RFC 9112 6.3: Content-Length rules apply to responses too"
    for name, v in [("plus", "+5"), ("comma", "5, 5"), ("space-inside", "5 5"), ("empty", ""), ("2^63", str(MAX + 1))]:
        S(F, "framing/response/content-length-bad-" + name, "HTTP/1.1 200 OK\r\nContent-Length: %s\r\n\r\nhello" % v, R, W)
    S(F, "framing/response/duplicate-content-length", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello",
      R, W)
    S(F, "framing/response/content-length-2^63-1", "HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\nhello" % MAX, [INC],
      W + "; 2^63-1 is accepted and the stream ends first: incomplete")
    S(F, "framing/response/content-length-leading-zeros", "HTTP/1.1 200 OK\r\nContent-Length: 002\r\n\r\nok",
      [M(body="ok", content_length=2)], W + "; D6: leading zeros are fine")
    S(F, "framing/response/content-length-short", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhello", [INC],
      "D10, RFC 9112 8: the stream ends in the middle of the body: incomplete")

    W = "POLICY Body framing, RFC 9112 6.3 rule 1: 1xx, 204 and 304 responses have no body"
    S(F, "framing/response/204-with-cl-then-next",
      "HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
      [M(status=204, body="", content_length=10, keep_alive=True), M(status=200, body="ok")], W)
    S(F, "framing/response/304-with-cl-then-next",
      "HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\nContent-Length: 1234\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
      [M(status=304, body="", content_length=1234, keep_alive=True), M(status=200, body="ok")], W)
    S(F, "framing/response/204-no-headers-then-next", "HTTP/1.1 204 No Content\r\n\r\n" + RESP0,
      [M(status=204, body="", keep_alive=True), M(status=200, body="")], W + "; 204 does not run until close")
    S(F, "framing/response/304-no-headers-end", "HTTP/1.1 304 Not Modified\r\n\r\n",
      [M(status=304, body="", keep_alive=True)], W)
    S(F, "framing/response/1xx-then-final", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
      [M(status=100, body=""), M(status=200, body="ok")], W + "; D13: the final response follows", request_method=["POST"])
    S(F, "framing/response/204-then-until-close", "HTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 200 OK\r\n\r\nrest",
      [M(status=204, body=""), M(status=200, body="rest", keep_alive=False)], W)
    W = "POLICY Body framing, RFC 9112 6.3 rule 1: any answer to HEAD has no body"
    S(F, "framing/response/head-with-cl", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n",
      [M(status=200, body="", content_length=5, keep_alive=True)], W, request_method=["HEAD"])
    S(F, "framing/response/head-with-cl-then-get",
      "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
      [M(status=200, body="", content_length=5), M(status=200, body="hello", content_length=5)], W,
      request_method=["HEAD", "GET"])
    S(F, "framing/response/head-with-te-then-get",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
      [M(status=200, body=""), M(status=200, body="hello")], W, request_method=["HEAD", "GET"])
    S(F, "framing/response/head-without-framing-then-get",
      "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
      [M(status=200, body="", keep_alive=True), M(status=200, body="hello")], W + "; a HEAD answer does not run until close",
      request_method=["HEAD", "GET"])
    S(F, "framing/response/head-404", "HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\n" + RESP0,
      [M(status=404, body="", content_length=9), M(status=200)], W, request_method=["HEAD", "GET"])
    S(F, "framing/response/get-then-head",
      "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n",
      [M(status=200, body="ok"), M(status=200, body="", content_length=2)], W + "; request_method is per final response, in order",
      request_method=["GET", "HEAD"])
    W = "D9, RFC 9112 6.3 rule 2: a 2xx response to CONNECT has no body and ends what the decoder reads"
    S(F, "framing/response/connect-200", "HTTP/1.1 200 Connection Established\r\n\r\n\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",
      [M(status=200, reason="Connection Established", body="")], W, request_method=["CONNECT"])
    S(F, "framing/response/connect-204-with-cl", "HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\nnot http",
      [M(status=204, body="")], W, request_method=["CONNECT"])
    S(F, "framing/response/connect-407-then-200",
      "HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"p\"\r\nContent-Length: 4\r\n\r\ndeny"
      "HTTP/1.1 200 OK\r\n\r\n\x16\x03\x01",
      [M(status=407, body="deny", keep_alive=True), M(status=200, body="")],
      W + "; a non-2xx answer to CONNECT is framed as usual", request_method=["CONNECT", "CONNECT"])
    S(F, "framing/response/connect-200-after-100",
      "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n\r\n\x16\x03\x01",
      [M(status=100), M(status=200, body="")], W + "; 1xx do not count in request_method",
      request_method=["CONNECT"])
