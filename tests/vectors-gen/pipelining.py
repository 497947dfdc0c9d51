"""Rule cases of tests/vectors/pipelining.jsonl: several messages in one stream, cut short or
failing midway. One accepted and one rejected case (at least) for every rule; "D<n>" in a `why`
names a decision of docs/policy-decisions.md."""

from common import M, RESP0, RCH, R, INC, Q, S


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
