"""Rule cases, continued: body framing, chunked coding, connection handling,
smuggling shapes, pipelining and response specifics."""

from common import M, add, gzip_stored
from rules import GET, INC, Q, R, RESP0, S

POST = "POST / HTTP/1.1\r\nHost: a\r\n"
CH = POST + "Transfer-Encoding: chunked\r\n\r\n"
RCH = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
HELLO = "5\r\nhello\r\n0\r\n\r\n"
MAX = 2 ** 63 - 1


# ---------------------------------------------------------------- framing
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


# ---------------------------------------------------------------- chunked
def gen_chunked():
    F = "chunked"
    W = "POLICY Body framing, RFC 9112 7.1: chunk-size is 1*HEXDIG without sign or prefix, at most 16 hex digits"
    for name, size, data in [("lower-hex", "a", "0123456789"), ("upper-hex", "A", "0123456789"),
                             ("mixed-hex", "1f", "x" * 31), ("upper-1F", "1F", "y" * 31),
                             ("leading-zeros", "005", "hello"), ("16-digits", "0000000000000005", "hello"),
                             ("16-digits-zero-last", None, "hello")]:
        if size is None:
            Q(F, "chunked/size/" + name, CH + "5\r\nhello\r\n0000000000000000\r\n\r\n", [M(body="hello", chunked=True)],
              W + "; a 16-digit zero is the last chunk")
            continue
        Q(F, "chunked/size/" + name, CH + "%s\r\n%s\r\n0\r\n\r\n" % (size, data), [M(body=data, chunked=True)], W)
    Q(F, "chunked/size/many-chunks", CH + "1\r\na\r\n2\r\nbc\r\n3\r\ndef\r\n0\r\n\r\n", [M(body="abcdef")], W)
    Q(F, "chunked/size/only-last-chunk", CH + "0\r\n\r\n", [M(body="", chunked=True, trailers=[])], W)
    Q(F, "chunked/size/last-chunk-leading-zeros", CH + "000\r\n\r\n", [M(body="")], W)
    Q(F, "chunked/size/16-digits-max", CH + "FFFFFFFFFFFFFFFF\r\nabc", [INC],
      W + "; D12: any value of up to 16 digits is accepted; the stream ends inside the chunk: incomplete")
    Q(F, "chunked/size/16-digits-large", CH + "7fffffffffffffff\r\nabc", [INC],
      W + "; D12: the stream ends inside the chunk: incomplete")
    for name, size in [("17-digits", "10000000000000000"), ("17-digits-leading-zero", "00000000000000005"),
                       ("17-f", "FFFFFFFFFFFFFFFFF"), ("32-digits-truncates-to-5", "00000000000000010000000000000005"),
                       ("minus", "-5"), ("plus", "+5"), ("0x-prefix", "0x5"), ("0X-prefix", "0X5"),
                       ("trailing-sp", "5 "), ("trailing-htab", "5\t"), ("leading-sp", " 5"), ("leading-htab", "\t5"),
                       ("empty", ""), ("not-hex", "g"), ("hex-then-garbage", "5g"), ("comma", "5,"),
                       ("decimal-point", "5.0"), ("underscore", "1_0"), ("obs-text", "5\xe9"), ("nul", "5\x00"),
                       ("sp-inside", "1 0")]:
        Q(F, "chunked/size/bad-" + name, CH + "%s\r\nhello\r\n0\r\n\r\n" % size, R,
          W + "; D4: whitespace only around \";\" and \"=\" in chunk-ext")
    S(F, "chunked/size/response-17-digits", RCH + "10000000000000000\r\nhello\r\n0\r\n\r\n", R, W)
    S(F, "chunked/size/response-negative", RCH + "-5\r\nhello\r\n0\r\n\r\n", R, W)

    W = "POLICY Body framing, RFC 9112 7.1.1, D4: chunk-ext = *( BWS \";\" BWS name [ BWS \"=\" BWS ( token / quoted-string ) ] )"
    for name, ext in [("name", ";a"), ("name-value", ";a=b"), ("two", ";a=b;c"), ("two-values", ";a=b;c=d"),
                      ("bws-before-semicolon", " ;a=b"), ("bws-after-semicolon", "; a=b"), ("bws-around-equals", ";a = b"),
                      ("bws-everywhere", " ; a = b ; c"), ("htab-bws", "\t;\ta\t=\tb"), ("many-bws", "   ;   a   =   b"),
                      ("quoted", ';a="b c"'), ("quoted-empty", ';a=""'), ("quoted-escaped-quote", ';a="b\\"c"'),
                      ("quoted-escaped-backslash", ';a="b\\\\"'), ("quoted-semicolon-comma", ';a="x;y,z=w"'),
                      ("quoted-obs-text", ';a="caf\xe9"'), ("quoted-pair-obs-text", ';a="\\\xe9"'),
                      ("quoted-htab", ';a="b\tc"'), ("quoted-then-more", ';a="b";c=d'),
                      ("bws-after-quoted", ';a="b" ;c'), ("token-chars", ";!#$%&'*+-.^_`|~=!#$%&'*+-.^_`|~"),
                      ("same-name-twice", ";a;a"), ("signature", ";chunk-signature=ad80c730a21e5b8d04586a2213dd63b9a0e99e0e2307b0ade35a65485a288648")]:
        Q(F, "chunked/ext/" + name, CH + "5%s\r\nhello\r\n0\r\n\r\n" % ext, [M(body="hello", chunked=True)], W)
    Q(F, "chunked/ext/on-last-chunk", CH + "5\r\nhello\r\n0;a=b\r\n\r\n", [M(body="hello")], W)
    Q(F, "chunked/ext/on-last-chunk-bws", CH + "5\r\nhello\r\n0 ; a = \"b\"\r\n\r\n", [M(body="hello")], W)
    S(F, "chunked/ext/response", RCH + "5;a=b\r\nhello\r\n0;c\r\n\r\n", [M(body="hello")], W)
    for name, ext in [("empty-name", ";"), ("empty-name-ws", "; "), ("no-name-value", ";=b"), ("empty-value", ";a="),
                      ("empty-value-ws", ";a= "), ("trailing-ws-after-value", ";a=b "), ("trailing-ws-after-name", ";a "),
                      ("trailing-htab", ";a=b\t"), ("unterminated-quote", ';a="b'), ("escaped-final-quote", ';a="b\\"'),
                      ("garbage-after-quote", ';a="b"c'), ("two-equals", ";a=b=c"), ("sp-in-name", ";a b"),
                      ("no-semicolon", " a"), ("comma", ",a"), ("at-in-name", ";a@b"), ("quoted-name", ';"a"=b'),
                      ("nul-in-quoted", ';a="\x00"'), ("del-in-quoted", ';a="\x7f"'), ("ctl-in-quoted-pair", ';a="\\\x01"'),
                      ("bare-lf-in-quoted", ';a="b\nc"'), ("double-semicolon", ";;a"), ("semicolon-trailing", ";a;"),
                      ("value-slash", ";a=b/c"), ("obs-text-name", ";\xe9")]:
        Q(F, "chunked/ext/bad-" + name, CH + "5%s\r\nhello\r\n0\r\n\r\n" % ext, R, W)
    Q(F, "chunked/ext/bad-on-last-chunk", CH + "5\r\nhello\r\n0;\r\n\r\n", R, W)
    Q(F, "chunked/ext/bare-lf", CH + "5;a\nhello\r\n0\r\n\r\n", R, W + "; POLICY Lines: a bare LF is an error")
    Q(F, "chunked/ext/bare-cr", CH + "5;a\rhello\r\n0\r\n\r\n", R, W + "; POLICY Lines: a bare CR is an error")

    W = "POLICY Body framing, RFC 9112 7.1: chunk data must be followed by CRLF"
    Q(F, "chunked/data/crlf-inside-data", CH + "5\r\na\r\nb\x00\r\n0\r\n\r\n", [M(body="a\r\nb\x00")],
      W + "; data bytes are opaque")
    Q(F, "chunked/data/binary", CH + "4\r\n\x00\xff\r\n\r\n0\r\n\r\n", [M(body="\x00\xff\r\n")], W)
    for name, body in [("no-crlf", "5\r\nhelloX\r\n0\r\n\r\n"), ("lf-only", "5\r\nhello\n0\r\n\r\n"),
                       ("cr-only", "5\r\nhello\r0\r\n\r\n"), ("data-too-long", "5\r\nhello!\r\n0\r\n\r\n"),
                       ("data-too-short", "5\r\nhell\r\n0\r\n\r\n"), ("missing-crlf-before-last", "5\r\nhello0\r\n\r\n"),
                       ("lf-cr", "5\r\nhello\n\r0\r\n\r\n"), ("sp-before-crlf", "5\r\nhello \r\n0\r\n\r\n")]:
        Q(F, "chunked/data/" + name, CH + body, R, W)
    S(F, "chunked/data/response-no-crlf", RCH + "5\r\nhelloX\r\n0\r\n\r\n", R, W)
    W = "POLICY Lines, RFC 9112 7.1: chunk lines end in CRLF"
    for name, body in [("size-line", "5\nhello\r\n0\r\n\r\n"), ("last-chunk-line", "5\r\nhello\r\n0\n\r\n"),
                       ("final-crlf", "5\r\nhello\r\n0\r\n\n"), ("all", "5\nhello\n0\n\n"),
                       ("size-line-cr", "5\rhello\r\n0\r\n\r\n"), ("last-chunk-cr", "5\r\nhello\r\n0\r\r\n")]:
        Q(F, "chunked/lines/bare-" + name, CH + body, R, W)
    W = "D10, RFC 9112 8: a stream that ends in the middle of a chunked body is incomplete"
    for name, body in [("after-size", "5\r\n"), ("in-data", "5\r\nhel"), ("after-data", "5\r\nhello"),
                       ("after-data-cr", "5\r\nhello\r"), ("no-last-chunk", "5\r\nhello\r\n"),
                       ("in-size-line", "5"), ("after-last-chunk", "5\r\nhello\r\n0\r\n"),
                       ("in-trailer", "5\r\nhello\r\n0\r\nX: y\r\n"), ("in-ext", "5;a=b"),
                       ("in-quoted-ext", '5;a="b')]:
        Q(F, "chunked/eof/" + name, CH + body, [INC], W)

    W = "POLICY Body framing, RFC 9112 7.1.2: trailer fields follow the rules of fields"
    Q(F, "chunked/trailers/one", CH + "5\r\nhello\r\n0\r\nX-Checksum: abc\r\n\r\n",
      [M(body="hello", trailers=[["X-Checksum", "abc"]], headers=[["Host", "a"], ["Transfer-Encoding", "chunked"]])], W)
    Q(F, "chunked/trailers/several-trimmed", CH + "0\r\nA: 1\r\nb:\t2 \r\nA:3\r\nEmpty:\r\n\r\n",
      [M(body="", trailers=[["A", "1"], ["b", "2"], ["A", "3"], ["Empty", ""]])], W)
    Q(F, "chunked/trailers/obs-text", CH + "0\r\nX: caf\xe9\r\n\r\n", [M(trailers=[["X", "caf\xe9"]])], W)
    Q(F, "chunked/trailers/then-next-request", CH + "0\r\nX: y\r\n\r\n" + GET,
      [M(method="POST", trailers=[["X", "y"]]), M(method="GET")], W)
    for name, tr in [("bare-lf", "X: y\n\r\n"), ("bare-lf-end", "X: y\r\n\n"), ("bare-cr", "X: y\rZ: w\r\n\r\n"),
                     ("ws-before-colon", "X : y\r\n\r\n"), ("obs-fold", "X: y\r\n z\r\n\r\n"),
                     ("leading-ws", " X: y\r\n\r\n"), ("nul", "X: a\x00b\r\n\r\n"), ("ctl", "X: a\x01b\r\n\r\n"),
                     ("no-colon", "X\r\n\r\n"), ("bad-name", "X(y): z\r\n\r\n"), ("empty-name", ": z\r\n\r\n"),
                     ("del", "X: a\x7f\r\n\r\n")]:
        Q(F, "chunked/trailers/bad-" + name, CH + "5\r\nhello\r\n0\r\n" + tr, R, W)
    S(F, "chunked/trailers/response", RCH + "5\r\nhello\r\n0\r\nServer-Timing: db;dur=53\r\n\r\n",
      [M(body="hello", trailers=[["Server-Timing", "db;dur=53"]])], W)
    S(F, "chunked/trailers/response-bad", RCH + "5\r\nhello\r\n0\r\nX : y\r\n\r\n", R, W)


# ---------------------------------------------------------------- connection
def gen_connection():
    F = "connection"
    W = "POLICY Connection, RFC 9112 9.3: HTTP/1.1 keeps the connection alive unless Connection lists close"
    Q(F, "connection/request/1.1-default", GET + GET, [M(keep_alive=True), M(keep_alive=True)], W)
    Q(F, "connection/request/1.1-keep-alive", "GET / HTTP/1.1\r\nHost: a\r\nConnection: keep-alive\r\n\r\n" + GET,
      [M(keep_alive=True), M(keep_alive=True)], W)
    W2 = W + "; wherever close is listed it wins; after it nothing is read (later bytes give no outcome)"
    for name, v in [("close", "close"), ("Close", "Close"), ("CLOSE", "CLOSE"), ("ws", "  close\t"),
                    ("keep-alive-close", "keep-alive, close"), ("close-keep-alive", "close, keep-alive"),
                    ("upgrade-close", "Upgrade, close"), ("empty-elements", ", close ,"),
                    ("no-ows", "te,close")]:
        Q(F, "connection/request/1.1-" + name,
          "GET / HTTP/1.1\r\nHost: a\r\nConnection: %s\r\n\r\n" % v + GET, [M(keep_alive=False)], W2)
    Q(F, "connection/request/1.1-two-lines", "GET / HTTP/1.1\r\nHost: a\r\nConnection: keep-alive\r\nConnection: close\r\n\r\n"
      + GET, [M(keep_alive=False)], W2 + "; Connection field lines are combined")
    for name, v in [("closed", "closed"), ("close-ish", "x-close"), ("upgrade", "Upgrade"), ("empty", "")]:
        Q(F, "connection/request/1.1-not-close-" + name,
          "GET / HTTP/1.1\r\nHost: a\r\nConnection: %s\r\n\r\n" % v + GET, [M(keep_alive=True), M(keep_alive=True)],
          W + "; only the token close counts")
    W = "POLICY Connection, RFC 9112 9.3: HTTP/1.0 closes unless Connection lists keep-alive; close wins"
    Q(F, "connection/request/1.0-default", "GET / HTTP/1.0\r\n\r\n" + GET, [M(keep_alive=False)],
      W + "; nothing is read after it")
    for name, v in [("keep-alive", "keep-alive"), ("Keep-Alive", "Keep-Alive"), ("KEEP-ALIVE", "KEEP-ALIVE"),
                    ("list", "foo, keep-alive")]:
        Q(F, "connection/request/1.0-" + name, "GET / HTTP/1.0\r\nConnection: %s\r\n\r\n" % v + "GET / HTTP/1.0\r\n\r\n",
          [M(version="HTTP/1.0", keep_alive=True), M(version="HTTP/1.0", keep_alive=False)], W)
    for name, v in [("keep-alive-close", "keep-alive, close"), ("close", "close"), ("other", "foo")]:
        Q(F, "connection/request/1.0-" + name, "GET / HTTP/1.0\r\nConnection: %s\r\n\r\n" % v + "GET / HTTP/1.0\r\n\r\n",
          [M(keep_alive=False)], W)
    Q(F, "connection/request/1.0-keep-alive-two-lines",
      "GET / HTTP/1.0\r\nConnection: keep-alive\r\nConnection: close\r\n\r\nGET / HTTP/1.0\r\n\r\n",
      [M(keep_alive=False)], W)
    W = "POLICY Connection, RFC 9112 9.6: after a message that does not keep the connection alive, later bytes are neither parsed nor an error"
    Q(F, "connection/after-close/garbage", "GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n\x00\x01garbage\r\n\n",
      [M(keep_alive=False)], W)
    Q(F, "connection/after-close/invalid-request", "GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\nGET  / HTTP/9.9\r\n\r\n",
      [M(keep_alive=False)], W)
    Q(F, "connection/after-close/partial-request", "GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\nGET / HT",
      [M(keep_alive=False)], W + "; a cut request after it is not incomplete")
    Q(F, "connection/after-close/with-body", POST + "Connection: close\r\nContent-Length: 2\r\n\r\nhiGET / HTTP/1.1\r\n",
      [M(body="hi", keep_alive=False)], W)
    Q(F, "connection/after-1.0/garbage", "POST / HTTP/1.0\r\nContent-Length: 2\r\n\r\nhi\r\n\r\n\r\n\r\nxyz",
      [M(body="hi", keep_alive=False)], W)
    W = "POLICY Connection, RFC 9112 9.3: responses follow the same keep-alive rule"
    S(F, "connection/response/1.1-default", RESP0 + RESP0, [M(keep_alive=True), M(keep_alive=True)], W)
    S(F, "connection/response/1.1-close", "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok" + RESP0 + "junk",
      [M(keep_alive=False, body="ok")], W + "; nothing is read after it")
    S(F, "connection/response/1.1-Close-list", "HTTP/1.1 200 OK\r\nConnection: Keep-Alive, CLOSE\r\nContent-Length: 0\r\n\r\n"
      + RESP0, [M(keep_alive=False)], W)
    S(F, "connection/response/1.0-default", "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok" + RESP0,
      [M(version="HTTP/1.0", keep_alive=False, body="ok")], W + "; nothing is read after it")
    S(F, "connection/response/1.0-keep-alive", "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok"
      "HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n", [M(keep_alive=True), M(keep_alive=False)], W)
    S(F, "connection/response/until-close-not-keep-alive", "HTTP/1.1 200 OK\r\nConnection: keep-alive\r\n\r\nbody",
      [M(keep_alive=False, body="body")], "POLICY Connection, RFC 9112 6.3 rule 8 and 9.6: a response whose body runs to the end of the stream does not keep the connection alive")
    S(F, "connection/response/1.0-keep-alive-until-close", "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\n\r\nbody",
      [M(keep_alive=False, body="body")], "POLICY Connection, RFC 9112 6.3 rule 8 and 9.6: a response whose body runs to the end of the stream does not keep the connection alive")
    W = "POLICY Connection, RFC 9110 15.2.2 and 7.8: after a 101 (Switching Protocols) response the decoder reads nothing more"
    S(F, "connection/response/101-then-bytes", "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"
      "\x81\x05hello\x88\x00", [M(status=101, reason="Switching Protocols", body="")], W)
    S(F, "connection/response/101-then-http-response", "HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\nConnection: Upgrade\r\n\r\n"
      + RESP0, [M(status=101, body="")], W + "; even bytes that look like HTTP")
    S(F, "connection/response/101-after-100", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 101 Switching Protocols\r\n\r\nPRI * HTTP/2.0\r\n",
      [M(status=100), M(status=101)], W)
    W = "D13, RFC 9112 9.3: interim responses report keep-alive by the usual version and Connection rule"
    S(F, "connection/response/100-keep-alive", "HTTP/1.1 100 Continue\r\n\r\n" + RESP0,
      [M(status=100, keep_alive=True), M(status=200, keep_alive=True)], W)
    W = "POLICY Connection, RFC 9112 6.3 and 11.2: a message with a framing error ends the connection: nothing after it is read"
    Q(F, "connection/framing-error/second-request", GET + POST + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"
      + HELLO + GET, [M(method="GET"), R], W)
    Q(F, "connection/framing-error/bad-chunk", CH + "5\r\nhelloXX0\r\n\r\n" + GET, [R], W)
    Q(F, "connection/framing-error/bad-cl-then-valid", POST + "Content-Length: 1,1\r\n\r\nx" + GET, [R], W)
    S(F, "connection/framing-error/response", RESP0 + "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n" + RESP0,
      [M(status=200), R], W)


# ---------------------------------------------------------------- smuggling
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


# ---------------------------------------------------------------- pipelining
def gen_pipelining():
    F = "pipelining"
    reqs = [
        ("GET /1 HTTP/1.1\r\nHost: a\r\n\r\n", M(method="GET", target="/1", body="", keep_alive=True)),
        ("POST /2 HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello",
         M(method="POST", target="/2", body="hello", content_length=5, chunked=False, keep_alive=True)),
        ("POST /3 HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\nX: y\r\n\r\n",
         M(method="POST", target="/3", body="abcde", content_length=None, chunked=True, trailers=[["X", "y"]],
           keep_alive=True)),
        ("GET /4 HTTP/1.1\r\nHost: a\r\n\r\n", M(method="GET", target="/4", body="", keep_alive=True)),
    ]
    W = "RFC 9112 9.3.2: several requests in one stream are parsed in order"
    Q(F, "pipelining/four-requests", "".join(r for r, _ in reqs), [e for _, e in reqs], W)
    for n in (1, 2):
        Q(F, "pipelining/four-requests-%d-empty-lines" % n, ("\r\n" * n).join(r for r, _ in reqs), [e for _, e in reqs],
          W + "; D8: up to 2 empty lines before each pipelined request are skipped (RFC 9112 2.2)")
    Q(F, "pipelining/four-requests-trailing-empty-lines", "".join(r for r, _ in reqs) + "\r\n\r\n", [e for _, e in reqs],
      W + "; D10: empty lines at the end give no further outcome")
    Q(F, "pipelining/3-empty-lines-between", reqs[0][0] + "\r\n\r\n\r\n" + reqs[3][0], [reqs[0][1], R],
      "D8, POLICY Lines, RFC 9112 2.2: a third empty line before a pipelined request is an error")
    Q(F, "pipelining/mixed-empty-lines", reqs[0][0] + "\r\n" + reqs[1][0] + reqs[2][0] + "\r\n\r\n" + reqs[3][0],
      [e for _, e in reqs], W)
    W = "D10, RFC 9112 8: a stream that ends in the middle of a message gives incomplete for it"
    for name, tail in [("request-line", "GET /2 HT"), ("head", "GET /2 HTTP/1.1\r\nHost: a\r\n"),
                       ("head-cr", "GET /2 HTTP/1.1\r\nHost: a\r\n\r"), ("cl-body", "POST /2 HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhel"),
                       ("chunked-body", "POST /2 HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n"),
                       ("after-empty-line", "\r\nGET"), ("one-byte", "G")]:
        Q(F, "pipelining/eof-in-second-" + name, reqs[0][0] + tail, [reqs[0][1], INC], W)
    W = "POLICY Connection, RFC 9112 9.3.2: a rejected message ends the stream's outcomes; nothing after it is read"
    Q(F, "pipelining/second-rejected", reqs[0][0] + "GET / HTTP/2.0\r\nHost: a\r\n\r\n" + reqs[3][0], [reqs[0][1], R], W)
    Q(F, "pipelining/second-rejected-no-host", reqs[0][0] + "GET / HTTP/1.1\r\n\r\n" + reqs[3][0], [reqs[0][1], R], W)
    Q(F, "pipelining/third-rejected", reqs[0][0] + reqs[1][0] + "GET /x HTTP/1.1\r\nHost: a\r\nContent-Length: x\r\n\r\n" + reqs[3][0],
      [reqs[0][1], reqs[1][1], R], W)
    W = "POLICY Connection, RFC 9112 9.6: after a request with Connection: close nothing is read"
    Q(F, "pipelining/close-then-more", reqs[0][0] + "GET /c HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n" + reqs[1][0] + reqs[3][0],
      [reqs[0][1], M(target="/c", keep_alive=False)], W)
    Q(F, "pipelining/1.0-then-more", "GET /a HTTP/1.0\r\n\r\n" + reqs[0][0], [M(target="/a", keep_alive=False)],
      "POLICY Connection, RFC 9112 9.3: an HTTP/1.0 request without keep-alive ends the reading")
    Q(F, "pipelining/1.0-keep-alive-chain", "GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n" + reqs[0][0] +
      "GET /b HTTP/1.0\r\n\r\n" + reqs[3][0],
      [M(target="/a", keep_alive=True), reqs[0][1], M(target="/b", keep_alive=False)],
      "POLICY Connection, RFC 9112 9.3: HTTP/1.0 keep-alive keeps reading; the last HTTP/1.0 request without it ends it")
    Q(F, "pipelining/connect-then-get", "CONNECT a.example:443 HTTP/1.1\r\nHost: a.example:443\r\n\r\n" + reqs[0][0],
      [M(method="CONNECT", target="a.example:443"), reqs[0][1]],
      "D9, RFC 9110 9.3.6: CONNECT does not stop the request decoder; the server's answer decides")
    Q(F, "pipelining/upgrade-then-get", "GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n" + reqs[0][0],
      [M(target="/ws", keep_alive=True), reqs[0][1]], "D9, RFC 9110 7.8: a request carrying Upgrade does not stop the request decoder")
    # responses
    W = "RFC 9112 9.3.2: responses are parsed in order"
    rs = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok" + RCH + "3\r\nabc\r\n0\r\n\r\n" + \
         "HTTP/1.1 404 Not Found\r\nContent-Length: 4\r\n\r\nnope"
    S(F, "pipelining/responses-three", rs, [M(status=200, body="ok"), M(status=200, body="abc", chunked=True),
                                            M(status=404, reason="Not Found", body="nope")], W)
    S(F, "pipelining/responses-with-head", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok" +
      "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n" + "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nxyz",
      [M(status=200, body="ok"), M(status=200, body="", content_length=100), M(status=200, body="xyz")], W + "; the HEAD answer has no body",
      request_method=["GET", "HEAD", "GET"])
    S(F, "pipelining/responses-empty-line-between", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok\r\n" + RESP0,
      [M(body="ok"), R], "D8, RFC 9112 2.2: empty lines before a status-line are an error, also between responses")
    S(F, "pipelining/responses-eof-in-second", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200",
      [M(body="ok"), INC], "D10, RFC 9112 8: the stream ends in the middle of the second response")
    S(F, "pipelining/responses-second-rejected", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 999 Bad\r\n\r\n" + RESP0,
      [M(body="ok"), R], "D1, RFC 9110 15: a status code outside 100..599 is rejected; nothing after it is read")


# ---------------------------------------------------------------- response specifics
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
