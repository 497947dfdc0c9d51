"""Shared helpers for the vector generator (see generate.py).

Inputs are handled as Python ``str`` in which every code point is one byte
(Latin-1), exactly as they are written into the ``input`` key.
"""

import collections
import struct
import zlib

CRLF = "\r\n"

# file name (without .jsonl) -> list of cases, in generation order
FILES = collections.OrderedDict()
_IDS = set()


def add(file, id, kind, input, expect, why, request_method=None, options=None):
    """Record one case. Keys are written in FORMAT.md order; our extension `options` (the
    lenient settings the case turns on, README.md) follows `kind`."""
    if isinstance(input, bytes):
        input = input.decode("latin-1")
    assert id not in _IDS, "duplicate id " + id
    assert kind in ("request", "response"), id
    assert all(ord(c) < 256 for c in input), id
    assert why, id
    if request_method is not None:
        assert kind == "response", id
    _IDS.add(id)
    case = collections.OrderedDict()
    case["id"] = id
    case["kind"] = kind
    if options is not None:
        assert options and len(set(options)) == len(options), id
        case["options"] = list(options)
    case["input"] = input
    if request_method is not None:
        case["request_method"] = list(request_method)
    case["expect"] = expect
    case["why"] = why
    FILES.setdefault(file, []).append(case)


def M(**fields):
    """A message object holding only the fields a case checks."""
    return dict(fields)


def u8(s):
    """UTF-8 text as the Latin-1 string of its bytes."""
    return s.encode("utf-8").decode("latin-1")


def b2s(b):
    return b.decode("latin-1")


def gzip_stored(data):
    """A valid gzip member that stores `data` uncompressed (deflate BTYPE=00).

    Independent of the zlib build, so the output (and its length: len+23 for
    data up to 65535 bytes) is fully deterministic.
    """
    if isinstance(data, str):
        data = data.encode("latin-1")
    out = bytearray(b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03")
    blocks = [data[i:i + 65535] for i in range(0, len(data), 65535)] or [b""]
    for i, blk in enumerate(blocks):
        final = 1 if i == len(blocks) - 1 else 0
        out += bytes([final]) + struct.pack("<HH", len(blk), len(blk) ^ 0xFFFF) + blk
    out += struct.pack("<II", zlib.crc32(data) & 0xFFFFFFFF, len(data) & 0xFFFFFFFF)
    return b2s(bytes(out))


def trim(v):
    return v.strip(" \t")


def conn_tokens(headers):
    toks = []
    for n, v in headers:
        if n.lower() == "connection":
            toks += [t.strip(" \t").lower() for t in v.split(",")]
    return [t for t in toks if t]


def keep_alive_rule(version, headers):
    toks = conn_tokens(headers)
    if "close" in toks:
        return False
    if version == "HTTP/1.1":
        return True
    return "keep-alive" in toks


def chunked_body(chunks, trailers=()):
    """chunks: list of data strings or (data, ext) tuples; trailers: (name, value) pairs."""
    out = ""
    for c in chunks:
        data, ext = (c, "") if isinstance(c, str) else c
        assert data, "use the last chunk for size 0"
        out += "%x%s\r\n%s\r\n" % (len(data), ext, data)
    out += "0\r\n"
    for n, v in trailers:
        out += "%s: %s\r\n" % (n, v)
    return out + "\r\n"


def _fill_cl(headers, body):
    hs = []
    for n, v in headers:
        if v is None:
            assert n.lower() == "content-length"
            v = str(len(body))
        hs.append((n, v))
    return hs


def _head(start_line, headers):
    return start_line + CRLF + "".join("%s: %s\r\n" % (n, v) for n, v in headers) + CRLF


def _cl_of(headers):
    cls = [v for n, v in headers if n.lower() == "content-length"]
    assert len(cls) <= 1
    return int(trim(cls[0])) if cls else None


def request(method, target, version, headers, body=None, chunks=None, trailers=()):
    """Build a well-formed request and its full expectation.

    A header value of None for Content-Length is replaced by len(body).
    Returns (raw, message object).
    """
    body = body or ""
    headers = _fill_cl(headers, body)
    raw = _head("%s %s %s" % (method, target, version), headers)
    if chunks is not None:
        raw += chunked_body(chunks, trailers)
        body = "".join(c if isinstance(c, str) else c[0] for c in chunks)
    else:
        raw += body
        cl = _cl_of(headers)
        assert (cl or 0) == len(body), (cl, len(body))
    exp = M(method=method, target=target, version=version,
            headers=[[n, trim(v)] for n, v in headers], body=body,
            content_length=_cl_of(headers), chunked=chunks is not None,
            keep_alive=keep_alive_rule(version, headers))
    exp["trailers"] = [[n, trim(v)] for n, v in trailers] if chunks is not None else []
    return raw, exp


def response(version, status, reason, headers, body=None, chunks=None, trailers=(),
             until_close=False, no_body=False, tunnel=False, raw_status_line=None):
    """Build a well-formed response and its full expectation.

    until_close: no framing header, body runs to the end of the stream.
    no_body: 1xx/204/304 or an answer to HEAD; `body` is then NOT sent.
    tunnel: 101 or 2xx to CONNECT; keep_alive is not checked (undecided).
    """
    body = body or ""
    headers = list(headers) if no_body else _fill_cl(headers, body)
    line = raw_status_line or ("%s %d %s" % (version, status, reason))
    raw = _head(line, headers)
    exp = M(version=version, status=status, reason=reason,
            headers=[[n, trim(v)] for n, v in headers])
    if no_body:
        assert chunks is None and not body
        exp.update(body="", content_length=_cl_of(headers), chunked=False, trailers=[])
    elif chunks is not None:
        raw += chunked_body(chunks, trailers)
        exp.update(body="".join(c if isinstance(c, str) else c[0] for c in chunks),
                   content_length=None, chunked=True,
                   trailers=[[n, trim(v)] for n, v in trailers])
    else:
        raw += body
        cl = _cl_of(headers)
        if until_close:
            assert cl is None
        else:
            assert cl == len(body), (cl, len(body))
        exp.update(body=body, content_length=cl, chunked=False, trailers=[])
    if tunnel:
        pass  # keep_alive after a 101 / a 2xx to CONNECT is not decided: not checked
    elif until_close:
        exp["keep_alive"] = False
    else:
        exp["keep_alive"] = keep_alive_rule(version, headers)
    return raw, exp


# ---------------------------------------------------------------- shorthands of the rule modules
# (lines.py ... response.py: one module per vectors file)

GET = "GET / HTTP/1.1\r\nHost: a\r\n\r\n"
RESP0 = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"
POST = "POST / HTTP/1.1\r\nHost: a\r\n"
CH = POST + "Transfer-Encoding: chunked\r\n\r\n"
RCH = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
HELLO = "5\r\nhello\r\n0\r\n\r\n"
MAX = 2 ** 63 - 1
R = "reject"
INC = "incomplete"


def Q(file, id, input, expect, why):
    """One request case."""
    add(file, id, "request", input, expect, why)


def S(file, id, input, expect, why, request_method=None):
    """One response case."""
    add(file, id, "response", input, expect, why, request_method)
