"""Rule cases of tests/vectors/connection.jsonl: keep-alive and close, and what is read after
them. One accepted and one rejected case (at least) for every rule; "D<n>" in a `why` names a
decision of docs/policy-decisions.md."""

from common import M, GET, RESP0, POST, CH, HELLO, R, Q, S


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
