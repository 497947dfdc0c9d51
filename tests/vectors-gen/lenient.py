"""Vectors for the lenient settings (docs/leniency.md), in lenient.jsonl.

Each option gets
- `relaxed` cases: an input that the strict parser rejects, written twice: once without
  options (`.../strict`, expect reject) and once with the option, expecting the exact outcome;
- `kept` cases: inputs that stay rejected with the option on (and, where it matters, with
  every option on), so that an option never relaxes more than its rule.

Cases use the `options` key, a project extension to FORMAT.md (README.md).
"""

from common import M, add
from model import OPTION_NAMES

FILE = "lenient"
ALL = list(OPTION_NAMES)
COUNTS = {}


def group_of(options):
    """The id group of a case: its first option, or `combined` when it turns on every one."""
    return "combined" if len(options) == len(ALL) else options[0]


def relaxed(options, name, kind, input, expect, why, request_method=None):
    """`input` is rejected strictly and gives `expect` with `options` on."""
    group = group_of(options)
    base = "lenient/%s/%s" % (group, name)
    add(FILE, base + "/strict", kind, input, "reject", "strict: " + why, request_method=request_method)
    add(FILE, base, kind, input, expect, why, request_method=request_method, options=options)
    COUNTS[group] = COUNTS.get(group, 0) + 2


def kept(options, name, kind, input, why, expect="reject", request_method=None):
    """What the options leave as it was (by default: rejected)."""
    group = group_of(options)
    add(FILE, "lenient/%s/kept/%s" % (group, name), kind, input, expect, why,
        request_method=request_method, options=options)
    COUNTS[group] = COUNTS.get(group, 0) + 1


def req(method="GET", target="/", version="HTTP/1.1", headers=(("Host", "a"),), body="",
        content_length=None, chunked=False, keep_alive=True, trailers=()):
    return M(method=method, target=target, version=version, headers=[list(h) for h in headers],
             body=body, content_length=content_length, chunked=chunked, keep_alive=keep_alive,
             trailers=[list(t) for t in trailers])


def res(status=200, reason="OK", version="HTTP/1.1", headers=(), body="", content_length=None,
        chunked=False, keep_alive=True, trailers=()):
    return M(status=status, reason=reason, version=version, headers=[list(h) for h in headers],
             body=body, content_length=content_length, chunked=chunked, keep_alive=keep_alive,
             trailers=[list(t) for t in trailers])


def gen_bare_lf():
    o = ["bare_lf"]
    why = "RFC 9112 2.2: a recipient MAY recognize a single LF as a line terminator (option bare_lf)"
    relaxed(o, "request-head", "request", "GET / HTTP/1.1\nHost: a\n\n", [req()], why)
    relaxed(o, "mixed-line-ends", "request", "GET / HTTP/1.1\r\nHost: a\nX: b\r\n\n",
            [req(headers=[("Host", "a"), ("X", "b")])], why)
    relaxed(o, "end-of-head", "request", "GET / HTTP/1.1\r\nHost: a\r\n\n", [req()], why)
    relaxed(o, "response-head", "response", "HTTP/1.1 200 OK\nContent-Length: 2\n\nhi",
            [res(headers=[("Content-Length", "2")], body="hi", content_length=2)], why)
    relaxed(o, "status-line-without-reason", "response", "HTTP/1.1 204\nX: y\n\n",
            [res(status=204, reason="", headers=[("X", "y")])], why)
    relaxed(o, "chunk-lines", "request",
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\nhello\n0\n\n",
            [req("POST", headers=[("Host", "a"), ("Transfer-Encoding", "chunked")], body="hello",
                 chunked=True)], why)
    relaxed(o, "chunk-ext-ended-by-lf", "request",
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;a=b\nhello\r\n0;c\n\r\n",
            [req("POST", headers=[("Host", "a"), ("Transfer-Encoding", "chunked")], body="hello",
                 chunked=True)], why)
    relaxed(o, "chunk-ext-quoted-ended-by-lf", "response",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;a=\"x y\"\nabc\r\n0\r\n\r\n",
            [res(headers=[("Transfer-Encoding", "chunked")], body="abc", chunked=True)], why)
    relaxed(o, "trailers", "request",
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\nT: 1\nU: 2\n\n",
            [req("POST", headers=[("Host", "a"), ("Transfer-Encoding", "chunked")], body="x",
                 chunked=True, trailers=[("T", "1"), ("U", "2")])], why)
    relaxed(o, "empty-lines-before-request", "request", "\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n", [req()],
            why)
    relaxed(o, "pipelined", "request",
            "GET /1 HTTP/1.1\nHost: a\n\n\nGET /2 HTTP/1.1\nHost: a\n\n",
            [req(target="/1"), req(target="/2")], why)
    relaxed(o, "empty-lines-at-end", "request", "GET / HTTP/1.1\nHost: a\n\n\n\n", [req()],
            why + "; D23: up to 2 empty lines after a message")
    kept(o, "third-empty-line", "request", "GET / HTTP/1.1\nHost: a\n\n\n\r\n\n",
         "RFC 9112 2.2: up to 2 empty lines before a request-line; bare LF lines count too",
         expect=[req(), "reject"])
    kept(o, "bare-cr", "request", "GET / HTTP/1.1\rHost: a\r\n\r\n",
         "RFC 9112 2.2: a bare CR stays an error with bare_lf")
    kept(o, "cr-cr-lf", "request", "GET / HTTP/1.1\r\r\nHost: a\r\n\r\n",
         "RFC 9112 2.2: CR CR LF is a bare CR, not a line end")
    kept(o, "bare-cr-after-chunk-data", "request",
         "POST / HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n\n1\nx\r0\n\n",
         "RFC 9112 7.1: chunk data ends with a line end; a bare CR stays an error")
    kept(o, "space-before-lf-in-chunk-size", "request",
         "POST / HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n\n5 \nhello\n0\n\n",
         "RFC 9112 7.1 and D4: no whitespace after chunk-size unless a chunk-ext follows")
    kept(o, "space-before-lf-in-chunk-ext", "request",
         "POST / HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n\n5;a \nhello\n0\n\n",
         "RFC 9112 7.1.1 and D4: no BWS at the end of a chunk-ext")
    kept(o, "cl-and-te", "request",
         "POST / HTTP/1.1\nHost: a\nContent-Length: 5\nTransfer-Encoding: chunked\n\n0\n\n",
         "RFC 9112 6.3: Transfer-Encoding with Content-Length stays an error")
    kept(o, "nul", "request", "GET / HTTP/1.1\nHost: a\nX: a\x00b\n\n",
         "RFC 9110 5.5: NUL stays an error")
    kept(o, "empty-line-before-status-line", "response", "\nHTTP/1.1 200 OK\nContent-Length: 0\n\n",
         "RFC 9112 2.2 and D8: no empty line before a status-line")
    kept(o, "lf-then-space-is-no-fold", "request", "GET / HTTP/1.1\nHost: a\nX: a\n b\n\n",
         "RFC 9112 5.2: obs-fold stays an error without obs_fold")


def gen_obs_fold():
    o = ["obs_fold"]
    why = ("RFC 9112 5.2: a recipient may replace each obs-fold with SP before interpreting the value "
           "(option obs_fold)")
    h = "GET / HTTP/1.1\r\nHost: a\r\n"
    relaxed(o, "one-fold", "request", h + "X: a\r\n b\r\n\r\n",
            [req(headers=[("Host", "a"), ("X", "a b")])], why)
    relaxed(o, "whitespace-around-folds", "request", h + "X: a \r\n\t b\r\n  c\t\r\n\r\n",
            [req(headers=[("Host", "a"), ("X", "a b c")])], why)
    relaxed(o, "value-starts-after-fold", "request", h + "X:\r\n b\r\nY: c\r\n\r\n",
            [req(headers=[("Host", "a"), ("X", "b"), ("Y", "c")])], why)
    relaxed(o, "fold-of-whitespace-only", "request", h + "X: a\r\n \r\n\r\n",
            [req(headers=[("Host", "a"), ("X", "a")])], why)
    relaxed(o, "empty-value-folded", "request", h + "X:\r\n \r\n\t\r\n\r\n",
            [req(headers=[("Host", "a"), ("X", "")])], why)
    relaxed(o, "folded-host", "request", "GET / HTTP/1.1\r\nHost:\r\n example.com\r\n\r\n",
            [req(headers=[("Host", "example.com")])], why + "; Host is read unfolded")
    relaxed(o, "folded-transfer-encoding", "request",
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip,\r\n chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n",
            [req("POST", headers=[("Host", "a"), ("Transfer-Encoding", "gzip, chunked")], body="x",
                 chunked=True)], why + "; Transfer-Encoding is read unfolded")
    relaxed(o, "folded-transfer-encoding-not-chunked", "response",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked,\r\n gzip\r\n\r\nabc",
            [res(headers=[("Transfer-Encoding", "chunked, gzip")], body="abc", keep_alive=False)],
            why + "; the last coding is gzip: until close")
    relaxed(o, "folded-connection", "request", h + "Connection: keep-alive,\r\n close\r\n\r\n",
            [req(headers=[("Host", "a"), ("Connection", "keep-alive, close")], keep_alive=False)],
            why + "; Connection is read unfolded")
    relaxed(o, "folded-content-length", "request",
            "POST / HTTP/1.1\r\nHost: a\r\nContent-Length:\r\n 3\r\n\r\nabc",
            [req("POST", headers=[("Host", "a"), ("Content-Length", "3")], body="abc", content_length=3)],
            why + "; Content-Length is read unfolded")
    relaxed(o, "response", "response", "HTTP/1.1 200 OK\r\nX: a\r\n\tb\r\nContent-Length: 0\r\n\r\n",
            [res(headers=[("X", "a b"), ("Content-Length", "0")], content_length=0)], why)
    relaxed(o, "trailers", "request",
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nT: 1\r\n 2\r\n\r\n",
            [req("POST", headers=[("Host", "a"), ("Transfer-Encoding", "chunked")], chunked=True,
                 trailers=[("T", "1 2")])], why)
    relaxed(["obs_fold", "bare_lf"], "fold-after-bare-lf", "request", "GET / HTTP/1.1\nHost: a\nX: a\n b\n\n",
            [req(headers=[("Host", "a"), ("X", "a b")])], why + "; with bare_lf an LF SP is a fold too")
    kept(o, "whitespace-before-first-field", "request", "GET / HTTP/1.1\r\n X: a\r\nHost: a\r\n\r\n",
         "RFC 9112 2.2: whitespace before the first field line stays an error")
    kept(o, "whitespace-before-first-trailer", "request",
         "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n T: 1\r\n\r\n",
         "RFC 9112 5.2: a trailer section cannot start with a continuation line")
    kept(o, "fold-in-name", "request", h + "X\r\n : a\r\n\r\n",
         "RFC 9110 5.1: a fold inside a field name is no obs-fold")
    kept(o, "fold-without-lf", "request", h + "X: a\r b\r\n\r\n", "RFC 9112 2.2: a bare CR stays an error")
    kept(o, "fold-after-bare-lf", "request", h + "X: a\n b\r\n\r\n",
         "RFC 9112 2.2: a bare LF stays an error without bare_lf")
    kept(o, "folded-content-length-two-numbers", "request",
         "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\n 2\r\n\r\nabcdefghijkl",
         "RFC 9112 6.3: Content-Length `1 2` (unfolded) is invalid")
    kept(o, "folded-host-two-words", "request", "GET / HTTP/1.1\r\nHost: a\r\n b\r\n\r\n",
         "RFC 9112 3.2: Host `a b` (unfolded) is invalid")
    kept(o, "folded-te-with-cl", "request",
         "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding:\r\n chunked\r\n\r\n0\r\n\r\n",
         "RFC 9112 6.3: an obs-folded Transfer-Encoding with Content-Length stays an error")
    kept(o, "folded-chunked-twice", "request",
         "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked,\r\n chunked\r\n\r\n0\r\n\r\n",
         "RFC 9112 6.1: chunked twice stays an error")
    kept(o, "folded-word-split", "request",
         "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chun\r\n ked\r\n\r\n0\r\n\r\n",
         "RFC 9112 6.1: `chun ked` (unfolded) is no transfer-coding")
    kept(o, "cut-after-line-end", "request", h + "X: a\r\n",
         "D24 with obs_fold (RFC 9112 5.2): a fold could still continue the cut-off line, so it is incomplete",
         expect=["incomplete"])
    kept(o, "cut-after-line-end-invalid-value", "request", h + "Content-Length: x\r\n",
         "D24 with obs_fold: only bytes are judged in a line a fold could continue; "
         "Content-Length waits for its complete value (RFC 9112 6.3)", expect=["incomplete"])
    kept(o, "cut-invalid-byte-before-line-end", "request", h + "X: a\x01\r\n",
         "D24 and RFC 9110 5.5: an invalid byte before the cut is final")


def gen_space_before_colon():
    o = ["space_before_colon"]
    why = "RFC 9112 5.1: whitespace between field name and colon (option space_before_colon)"
    relaxed(o, "host", "request", "GET / HTTP/1.1\r\nHost : a\r\n\r\n", [req()], why)
    relaxed(o, "tabs-and-spaces", "request", "GET / HTTP/1.1\r\nHost: a\r\nX-A\t: b\r\nX-B \t : c\r\n\r\n",
            [req(headers=[("Host", "a"), ("X-A", "b"), ("X-B", "c")])], why)
    relaxed(o, "content-length", "request", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length : 2\r\n\r\nhi",
            [req("POST", headers=[("Host", "a"), ("Content-Length", "2")], body="hi", content_length=2)],
            why + "; the name is Content-Length")
    relaxed(o, "transfer-encoding", "request",
            "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding : chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n",
            [req("POST", headers=[("Host", "a"), ("Transfer-Encoding", "chunked")], body="hi",
                 chunked=True)], why + "; the name is Transfer-Encoding")
    relaxed(o, "response", "response", "HTTP/1.1 200 OK\r\nContent-Length  : 2\r\n\r\nhi",
            [res(headers=[("Content-Length", "2")], body="hi", content_length=2)], why)
    relaxed(o, "trailer", "response",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nT : 1\r\n\r\n",
            [res(headers=[("Transfer-Encoding", "chunked")], chunked=True, trailers=[("T", "1")])], why)
    kept(o, "te-with-cl", "request",
         "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nTransfer-Encoding : chunked\r\n\r\n0\r\n\r\n",
         "RFC 9112 6.3: Transfer-Encoding with Content-Length stays an error")
    kept(o, "space-inside-name", "request", "GET / HTTP/1.1\r\nHost: a\r\nX Y: b\r\n\r\n",
         "RFC 9110 5.1: a field name is a token")
    kept(o, "no-name", "request", "GET / HTTP/1.1\r\nHost: a\r\nX: b\r\n\t: c\r\n\r\n",
         "RFC 9112 5.2: a line starting with whitespace is an obs-fold, an error")
    kept(o, "only-colon", "request", "GET / HTTP/1.1\r\nHost: a\r\n : b\r\n\r\n",
         "RFC 9112 5.2: a line starting with whitespace is an obs-fold, an error")
    kept(o, "duplicate-host", "request", "GET / HTTP/1.1\r\nHost : a\r\nHost: a\r\n\r\n",
         "RFC 9112 3.2: more than one Host stays an error")
    kept(o, "no-colon", "request", "GET / HTTP/1.1\r\nHost: a\r\nX \r\n\r\n",
         "RFC 9112 5: a field line has a colon")


def gen_request_line_spaces():
    o = ["request_line_spaces"]
    why = "RFC 9112 3: recipients MAY parse on whitespace boundaries (option request_line_spaces)"
    relaxed(o, "two-spaces", "request", "GET  /  HTTP/1.1\r\nHost: a\r\n\r\n", [req()], why)
    relaxed(o, "many-spaces", "request", "POST     /a?b=c   HTTP/1.0\r\nContent-Length: 1\r\n\r\nx",
            [req("POST", "/a?b=c", "HTTP/1.0", headers=[("Content-Length", "1")], body="x",
                 content_length=1, keep_alive=False)], why)
    relaxed(o, "status-line", "response", "HTTP/1.1   200 OK\r\nContent-Length: 0\r\n\r\n",
            [res(headers=[("Content-Length", "0")], content_length=0)],
            "RFC 9112 4: several SP between version and status code (option request_line_spaces)")
    relaxed(o, "status-line-reason-keeps-spaces", "response", "HTTP/1.1  200  OK\r\nContent-Length: 0\r\n\r\n",
            [res(reason=" OK", headers=[("Content-Length", "0")], content_length=0)],
            "RFC 9112 4 and D21: SPs after the code belong to the reason phrase")
    kept(o, "htab", "request", "GET\t/ HTTP/1.1\r\nHost: a\r\n\r\n",
         "RFC 9112 3: HTAB stays an error between request-line parts")
    kept(o, "leading-space", "request", " GET / HTTP/1.1\r\nHost: a\r\n\r\n",
         "RFC 9112 3: no whitespace before the method")
    kept(o, "trailing-space", "request", "GET / HTTP/1.1 \r\nHost: a\r\n\r\n",
         "RFC 9112 3: no whitespace after the version")
    kept(o, "missing-target", "request", "GET  HTTP/1.1\r\nHost: a\r\n\r\n",
         "RFC 9112 3: a request-line has three parts")
    kept(o, "status-line-leading-space", "response", " HTTP/1.1 200 OK\r\n\r\n",
         "RFC 9112 4: no whitespace before the version")
    kept(o, "status-line-htab", "response", "HTTP/1.1\t200 OK\r\n\r\n",
         "RFC 9112 4: HTAB stays an error in the status-line")


def gen_missing_host():
    o = ["missing_host"]
    why = "RFC 9112 3.2: an HTTP/1.1 request without Host (option missing_host)"
    relaxed(o, "no-host", "request", "GET / HTTP/1.1\r\n\r\n", [req(headers=[])], why)
    relaxed(o, "absolute-form", "request", "GET http://example.com/x HTTP/1.1\r\nX: y\r\n\r\n",
            [req(target="http://example.com/x", headers=[("X", "y")])], why)
    kept(o, "two-hosts", "request", "GET / HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n",
         "RFC 9112 3.2: more than one Host stays an error")
    kept(o, "invalid-host", "request", "GET / HTTP/1.1\r\nHost: a b\r\n\r\n",
         "RFC 9112 3.2: an invalid Host stays an error")
    kept(o, "userinfo-host", "request", "GET / HTTP/1.1\r\nHost: u@a\r\n\r\n",
         "RFC 9112 3.2: a Host with userinfo stays an error")


def gen_duplicate_content_length():
    o = ["duplicate_content_length"]
    why = ("RFC 9110 8.6: a list of identical Content-Length values MAY be taken as one "
           "(option duplicate_content_length)")
    post = "POST / HTTP/1.1\r\nHost: a\r\n"
    relaxed(o, "two-lines", "request", post + "Content-Length: 3\r\nContent-Length: 3\r\n\r\nabc",
            [req("POST", headers=[("Host", "a"), ("Content-Length", "3"), ("Content-Length", "3")],
                 body="abc", content_length=3)], why)
    relaxed(o, "comma-list", "request", post + "Content-Length: 3, 3,3\r\n\r\nabc",
            [req("POST", headers=[("Host", "a"), ("Content-Length", "3, 3,3")], body="abc",
                 content_length=3)], why)
    relaxed(o, "same-decimal-value", "request", post + "Content-Length: 03\r\nContent-Length: 3\r\n\r\nabc",
            [req("POST", headers=[("Host", "a"), ("Content-Length", "03"), ("Content-Length", "3")],
                 body="abc", content_length=3)], why + "; 03 and 3 are the same decimal value (D6)")
    relaxed(o, "list-and-line", "request", post + "Content-Length: 2,2\r\nX: y\r\nContent-Length: 2\r\n\r\nhi",
            [req("POST", headers=[("Host", "a"), ("Content-Length", "2,2"), ("X", "y"),
                                  ("Content-Length", "2")], body="hi", content_length=2)], why)
    relaxed(o, "response", "response", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nhi",
            [res(headers=[("Content-Length", "2"), ("Content-Length", "2")], body="hi", content_length=2)],
            why)
    relaxed(o, "bodiless-response", "response", "HTTP/1.1 304 Not Modified\r\nContent-Length: 7, 7\r\n\r\n",
            [res(304, "Not Modified", headers=[("Content-Length", "7, 7")], content_length=7)],
            why + "; D16: the rules hold where no body follows")
    for name, value in [("differing-lines", "Content-Length: 3\r\nContent-Length: 4"),
                        ("differing-list", "Content-Length: 3, 4"),
                        ("trailing-comma", "Content-Length: 3,"),
                        ("leading-comma", "Content-Length: ,3"),
                        ("empty-element", "Content-Length: 3,,3"),
                        ("sign", "Content-Length: 3, +3"),
                        ("with-te", "Content-Length: 3\r\nTransfer-Encoding: chunked\r\nContent-Length: 3")]:
        kept(o, name, "request", post + value + "\r\n\r\nabc",
             "RFC 9112 6.3: differing or invalid Content-Length values stay an error")


def gen_unknown_version():
    o = ["unknown_version"]
    why = ("RFC 9110 2.5, RFC 9112 2.3: a higher minor version is processed as HTTP/1.1 "
           "(option unknown_version)")
    relaxed(o, "http-1-2", "request", "GET / HTTP/1.2\r\nHost: a\r\n\r\n", [req()], why)
    relaxed(o, "http-1-9-chunked", "request",
            "POST / HTTP/1.9\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n",
            [req("POST", headers=[("Host", "a"), ("Transfer-Encoding", "chunked")], body="x",
                 chunked=True)], why + "; Transfer-Encoding is allowed as in HTTP/1.1")
    relaxed(o, "response", "response", "HTTP/1.5 200 OK\r\nContent-Length: 1\r\n\r\nx",
            [res(headers=[("Content-Length", "1")], body="x", content_length=1)], why)
    for name, line in [("http-2-0", "GET / HTTP/2.0"), ("http-0-9", "GET / HTTP/0.9"),
                       ("http-1-10", "GET / HTTP/1.10"), ("lowercase", "GET / http/1.2"),
                       ("letter", "GET / HTTP/1.x")]:
        kept(o, name, "request", line + "\r\nHost: a\r\n\r\n",
             "RFC 9112 2.3: other major versions and malformed versions stay errors")
    kept(o, "host-required", "request", "GET / HTTP/1.3\r\n\r\n",
         "RFC 9112 3.2: treated as HTTP/1.1, the request needs Host")
    kept(o, "response-http-2", "response", "HTTP/2.0 200 OK\r\n\r\n",
         "RFC 9112 2.3: other major versions stay errors")


def gen_target_unsafe_bytes():
    o = ["target_unsafe_bytes"]
    why = ("RFC 9112 3.2, RFC 3986 2: bytes no URI may hold, which some clients send unescaped, "
           "are accepted in the target (option target_unsafe_bytes)")
    for name, target in [("pipe", "/a|b"), ("braces", "/{id}"), ("quote", '/q?x="y"'),
                         ("caret-backtick", "/a^b`c"), ("backslash", "/a\\b"),
                         ("angle", "/<a>"), ("lone-percent", "/%zz"), ("percent-at-end", "/a%"),
                         ("percent-one-digit", "/a%4?b%"),
                         ("absolute-form-path", "http://example.com/a|b")]:
        relaxed(o, name, "request", "GET %s HTTP/1.1\r\nHost: a\r\n\r\n" % target,
                [req(target=target)], why)
    for name, target in [("fragment", "/a|b#c"), ("del", "/a|\x7f"), ("control", "/a|\x01"),
                         ("non-ascii", "/a|\x80"), ("htab", "/a|\tb"), ("host", "http://a{b/")]:
        kept(o, name, "request", "GET %s HTTP/1.1\r\nHost: a\r\n\r\n" % target,
             "RFC 9112 3.2: fragments, controls, DEL, non-ASCII bytes and the host's grammar "
             "stay errors")


def gen_combined():
    why = "docs/leniency.md: options combine; RFC 9112 2.2, 3, 5.1, 5.2"
    relaxed(ALL, "everything-at-once", "request",
            "\nPOST   /x   HTTP/1.4\nContent-Length : 2,\n 2\nX: a\r\n b\n\nhi",
            [req("POST", "/x", headers=[("Content-Length", "2, 2"), ("X", "a b")], body="hi",
                 content_length=2)], why)
    kept(ALL, "cl-and-te", "request",
         "POST / HTTP/1.1\nHost: a\nContent-Length : 3\nTransfer-Encoding:\n chunked\n\n0\n\n",
         "RFC 9112 6.3: no option makes Content-Length with Transfer-Encoding acceptable")
    kept(ALL, "te-in-http-1-0", "request",
         "POST / HTTP/1.0\nTransfer-Encoding: chunked\n\n0\n\n",
         "RFC 9112 6.1: Transfer-Encoding in HTTP/1.0 stays an error")
    kept(ALL, "bare-cr", "request", "GET / HTTP/1.1\nHost: a\rX: b\n\n",
         "RFC 9112 2.2: a bare CR stays an error")
    kept(ALL, "differing-cl", "request", "POST / HTTP/1.1\nContent-Length: 1\nContent-Length : 2\n\nab",
         "RFC 9112 6.3: differing Content-Length values stay an error")


def gen_lenient():
    gen_bare_lf()
    gen_obs_fold()
    gen_space_before_colon()
    gen_request_line_spaces()
    gen_missing_host()
    gen_duplicate_content_length()
    gen_unknown_version()
    gen_target_unsafe_bytes()
    gen_combined()
