"""Cases for docs/policy-decisions.md items 14-23: the points POLICY.md leaves open that the
first round of vectors did not cover."""

from common import CRLF, M, add

F = "decisions"
H = "Host: a"


def req(first, *fields, body=""):
    return first + CRLF + "".join(f + CRLF for f in fields) + CRLF + body


def res(first, *fields, body=""):
    return first + CRLF + "".join(f + CRLF for f in fields) + CRLF + body


def gen_decisions():
    # D14: status-line versions.
    for v in ("HTTP/1.2", "HTTP/2.0", "HTTP/0.9"):
        add(F, "decisions/status-version/unsupported-" + v[5:].replace(".", "-"), "response",
            res(v + " 200 OK", "Content-Length: 0"), "reject",
            "RFC 9112 2.3, D14: only HTTP/1.0 and HTTP/1.1 status-lines")
    for v in ("http/1.1", "HTTP/1.1.0", "HTTP/11", "HTTP/1.x"):
        add(F, "decisions/status-version/malformed-" + v.replace("/", "-").replace(".", "_"), "response",
            res(v + " 200 OK", "Content-Length: 0"), "reject", "RFC 9112 2.3, D14: malformed HTTP-version")
    add(F, "decisions/status-version/http10-ok", "response",
        res("HTTP/1.0 200 OK", "Content-Length: 2", body="hi"),
        [M(version="HTTP/1.0", status=200, body="hi", keep_alive=False)], "RFC 9112 2.3, D14")

    # D15: chunked with parameters.
    for i, te in enumerate(("chunked;a=b", "chunked ; a=b", "gzip, chunked;q=1", 'chunked;x="y"')):
        add(F, "decisions/te-params/chunked-%d" % i, "request",
            req("POST / HTTP/1.1", H, "Transfer-Encoding: " + te, body="0\r\n\r\n"), "reject",
            "RFC 9112 7, D15: chunked takes no parameters")
        add(F, "decisions/te-params/chunked-response-%d" % i, "response",
            res("HTTP/1.1 200 OK", "Transfer-Encoding: " + te, body="0\r\n\r\n"), "reject",
            "RFC 9112 7, D15: chunked takes no parameters")
    add(F, "decisions/te-params/gzip-params-ok", "request",
        req("POST / HTTP/1.1", H, "Transfer-Encoding: gzip;level=9, chunked", body="2\r\nab\r\n0\r\n\r\n"),
        [M(body="ab", chunked=True, content_length=None)], "RFC 9112 6.1, D15: parameters on other codings")

    # D16: field rules apply to bodiless responses.
    for status, method in (("204 No Content", "GET"), ("304 Not Modified", "GET"), ("200 OK", "HEAD"),
                           ("100 Continue", "GET")):
        code = status.split()[0]
        tag = code + ("-head" if method == "HEAD" else "")
        for name, fields in (("bad-cl", ["Content-Length: 1x"]),
                             ("dup-cl", ["Content-Length: 1", "Content-Length: 1"]),
                             ("cl-te", ["Content-Length: 1", "Transfer-Encoding: chunked"])):
            add(F, "decisions/bodiless/%s-%s" % (tag, name), "response",
                res("HTTP/1.1 " + status, *fields), "reject",
                "RFC 9112 6.3, D16: field rules hold where no body follows", request_method=[method])
    add(F, "decisions/bodiless/304-http10-te", "response",
        res("HTTP/1.0 304 Not Modified", "Transfer-Encoding: chunked"), "reject",
        "RFC 9112 6.1, D16: Transfer-Encoding in HTTP/1.0")

    # D17: trailer sections have their own 64-line limit.
    head = "POST / HTTP/1.1" + CRLF + H + CRLF + "Transfer-Encoding: chunked" + CRLF
    for i in range(1, 63):
        head += "X-H%d: v" % i + CRLF
    head += CRLF  # 64 head field lines
    for n, expect in ((64, [M(body="x", chunked=True)]), (65, "reject")):
        trailers = "".join("T-%d: v" % i + CRLF for i in range(n))
        add(F, "decisions/trailer-limit/%d-lines" % n, "request",
            head + "1\r\nx\r\n0\r\n" + trailers + CRLF, expect,
            "RFC 9112 7.1.2, D17: 64 trailer field lines, inclusive, apart from the head's")

    # D18: trailer fields are parsed, not obeyed.
    add(F, "decisions/trailers/framing-fields-ignored", "request",
        req("POST / HTTP/1.1", H, "Transfer-Encoding: chunked",
            body="1\r\nx\r\n0\r\nContent-Length: 99\r\nTransfer-Encoding: gzip\r\nHost: b\r\nHost: c\r\n"
                 "Connection: close\r\n\r\n") + req("GET /next HTTP/1.1", H),
        [M(body="x", chunked=True, content_length=None, keep_alive=True,
           trailers=[["Content-Length", "99"], ["Transfer-Encoding", "gzip"], ["Host", "b"], ["Host", "c"],
                     ["Connection", "close"]]),
         M(target="/next")],
        "RFC 9110 6.5.1, D18: trailer fields do not change framing or the connection")

    # D19: Connection elements are tokens.
    for i, v in enumerate(("close x", "close;x", "keep-alive=1", '"close"', "close/1")):
        add(F, "decisions/connection/invalid-%d" % i, "request", req("GET / HTTP/1.1", H, "Connection: " + v),
            "reject", "RFC 9110 7.6.1, D19: Connection is a list of tokens")
    add(F, "decisions/connection/tokens-ok", "request",
        req("GET / HTTP/1.1", H, "Connection: , Upgrade ,, x-custom-token ,"),
        [M(keep_alive=True)], "RFC 9110 5.6.1, D19: empty elements ignored")

    # D20: empty host before a port; IPvFuture.
    for i, v in enumerate((":80", ":")):
        add(F, "decisions/host/empty-host-port-%d" % i, "request", req("GET / HTTP/1.1", "Host: " + v),
            "reject", "RFC 3986 3.2.2, D20: a port with no host")
    add(F, "decisions/host/connect-empty-host", "request", req("CONNECT :443 HTTP/1.1", "Host: a:443"),
        "reject", "RFC 9112 3.2.3, D20: authority-form needs a host")
    add(F, "decisions/host/ipvfuture", "request", req("GET / HTTP/1.1", "Host: [v1.fe80::a+en1]:8080"),
        [M(headers=[["Host", "[v1.fe80::a+en1]:8080"]])], "RFC 3986 3.2.2, D20: IPvFuture")
    add(F, "decisions/host/empty-allowed", "request", req("GET / HTTP/1.1", "Host:"),
        [M(headers=[["Host", ""]])], "RFC 9112 3.2: an empty Host is allowed")

    # D21: reason phrases as sent.
    for i, reason in enumerate((" OK", "OK ", "\tOK\t", "  ")):
        add(F, "decisions/reason/as-sent-%d" % i, "response",
            res("HTTP/1.1 200 " + reason, "Content-Length: 0"), [M(status=200, reason=reason)],
            "RFC 9112 4, D21: the reason phrase is reported as sent")

    # D22: absolute-form with other schemes; port lengths.
    for i, t in enumerate(("urn:isbn:0451450523", "ftp://ftp.example.com/pub/file.txt", "mailto:a@example.com",
                           "ftp://user:pa%20ss@ftp.example.com/", "htp://u:p@a/",
                           "https://example.com:65535/", "http://[2001:db8::1]/x?y")):
        add(F, "decisions/absolute/ok-%d" % i, "request", req("GET " + t + " HTTP/1.1", H),
            [M(target=t)], "RFC 3986 4.3, D22: absolute-form")
    for i, t in enumerate(("http://a:123456/", "1http://a/", "http//a/", "http:a", "https://:80/",
                           "HTTP://u@a/", "ftp://u\"@a/")):
        add(F, "decisions/absolute/bad-%d" % i, "request", req("GET " + t + " HTTP/1.1", H), "reject",
            "RFC 3986 4.3, RFC 9110 4.2, D22: invalid absolute-form")

    # D23: empty lines at the end of a stream.
    one = req("GET / HTTP/1.1", H)
    add(F, "decisions/trailing-crlf/two-then-eof", "request", one + CRLF * 2, [M(method="GET")],
        "RFC 9112 2.2, D23: up to 2 empty lines are skipped; the stream then ends cleanly")
    add(F, "decisions/trailing-crlf/three-then-eof", "request", one + CRLF * 3, [M(method="GET"), "reject"],
        "RFC 9112 2.2, D23: a third empty line is an error")
    add(F, "decisions/trailing-crlf/partial-then-eof", "request", one + "\r", [M(method="GET"), "incomplete"],
        "RFC 9112 2.2, D23: a lone CR at the end is an incomplete line")


def gen_truncated():
    """D24: a stream that ends inside a head or trailer section that is already invalid."""
    why = "RFC 9112 2.2, D24: what arrived of a head cut short is held to the rules"
    cases = [
        ("invalid-target-byte", "GET /\x01", "reject"),
        ("invalid-method-byte", "G\x01", "reject"),
        ("pct-cut-short", "GET /a%4", "incomplete"),
        ("pct-bad", "GET /a%4z", "reject"),
        ("version-cut-short", "GET / HTTP/1.", "incomplete"),
        ("version-unsupported", "GET / HTTP/2.0", "reject"),
        ("asterisk-not-options", "GET * ", "reject"),
        ("request-line-cr", "GET / HTTP/1.1\r", "incomplete"),
        ("field-name-space", "GET / HTTP/1.1\r\nHost: a\r\nX Y", "reject"),
        ("field-name-cut-short", "GET / HTTP/1.1\r\nHost: a\r\nX-Y", "incomplete"),
        ("obs-fold", "GET / HTTP/1.1\r\nHost: a\r\n x", "reject"),
        ("field-value-byte", "GET / HTTP/1.1\r\nHost: a\r\nX: a\x7f", "reject"),
        ("content-length-cut-short", "GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1x", "incomplete"),
        ("content-length-complete", "GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1x\r", "reject"),
        ("duplicate-host-complete", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r", "reject"),
        ("empty-line-cr-no-host", "GET / HTTP/1.1\r\n\r", "reject"),
        ("empty-line-cr-valid", "GET / HTTP/1.1\r\nHost: a\r\n\r", "incomplete"),
        ("after-complete-invalid-field", "GET / HTTP/1.1\r\nHost: a\r\nContent-Length: x\r\nY", "reject"),
    ]
    for name, data, outcome in cases:
        add(F, "decisions/truncated/" + name, "request", data, [outcome], why)
    first = req("GET /1 HTTP/1.1", H)
    add(F, "decisions/truncated/second-request-invalid", "request", first + "GET /\x00",
        [M(target="/1"), "reject"], why)
    add(F, "decisions/truncated/second-request-valid", "request", first + "GET /2 HT",
        [M(target="/1"), "incomplete"], why)
    for name, data, outcome in [("status-code-byte", "HTTP/1.1 2x", "reject"),
                                ("status-code-cut-short", "HTTP/1.1 20", "incomplete"),
                                ("reason-byte", "HTTP/1.1 200 O\x01", "reject"),
                                ("version-byte", "HTTP/1.1x", "reject"),
                                ("lone-cr", "\r", "reject"),
                                ("lone-lf", "\n", "reject")]:
        add(F, "decisions/truncated/" + name, "response", data, [outcome], why)
    chunked = req("POST / HTTP/1.1", H, "Transfer-Encoding: chunked") + "1\r\nx\r\n0\r\nA: 1\r\n"
    add(F, "decisions/truncated/trailer-invalid", "request", chunked + "B : 2", ["reject"], why)
    add(F, "decisions/truncated/trailer-cut-short", "request", chunked + "B: 2", ["incomplete"], why)
    res_ok = res("HTTP/1.1 200 OK", "Content-Length: 0")
    add(F, "decisions/truncated/response-then-lone-cr", "response", res_ok + "\r", [M(status=200), "reject"],
        why + "; a status-line never starts with CR")
    head = req("POST / HTTP/1.1", H, "Transfer-Encoding: chunked")
    for name, line, outcome in [("chunk-ext-bad-byte", "5;a=:b", "reject"),
                                ("chunk-ext-cut-after-eq", "5;a=", "incomplete"),
                                ("chunk-ext-cut-in-quote", '5;a="x\\', "incomplete"),
                                ("chunk-ext-trailing-bws", "5;a ", "incomplete"),
                                ("chunk-size-too-long", "1" * 17, "reject"),
                                ("chunk-line-cr", "5;a=\r", "reject")]:
        add(F, "decisions/truncated/" + name, "request", head + line, [outcome], why)
