"""Rule cases of tests/vectors/limits.jsonl: each limit at and one past its boundary. One accepted
and one rejected case (at least) for every rule; "D<n>" in a `why` names a decision of
docs/policy-decisions.md."""

from common import M, CH, RCH, R, Q, S


def _pad_field_request(total, prefix="GET / HTTP/1.1\r\nHost: a\r\nX-Pad: "):
    n = total - len(prefix) - 4
    s = prefix + "p" * n + "\r\n\r\n"
    assert len(s) == total
    return s, "p" * n


def gen_limits():
    F = "limits"
    W = "POLICY Fields limits, RFC 9110 5.4: 64 field lines, inclusive, Host counts"
    fl = ["Host: a"] + ["X-F%02d: v" % i for i in range(1, 64)]
    hs = [["Host", "a"]] + [["X-F%02d" % i, "v"] for i in range(1, 64)]
    Q(F, "limits/field-lines/64-request", "GET / HTTP/1.1\r\n" + "".join(l + "\r\n" for l in fl) + "\r\n",
      [M(headers=hs)], W)
    Q(F, "limits/field-lines/65-request",
      "GET / HTTP/1.1\r\n" + "".join(l + "\r\n" for l in fl) + "X-F64: v\r\n\r\n", R, W)
    Q(F, "limits/field-lines/64-request-1.0-no-host",
      "GET / HTTP/1.0\r\n" + "".join("X-F%02d: v\r\n" % i for i in range(64)) + "\r\n",
      [M(version="HTTP/1.0", headers=[["X-F%02d" % i, "v"] for i in range(64)])], W)
    Q(F, "limits/field-lines/65-request-1.0-no-host",
      "GET / HTTP/1.0\r\n" + "".join("X-F%02d: v\r\n" % i for i in range(65)) + "\r\n", R, W)
    rl = ["Content-Length: 2"] + ["X-F%02d: v" % i for i in range(1, 64)]
    S(F, "limits/field-lines/64-response", "HTTP/1.1 200 OK\r\n" + "".join(l + "\r\n" for l in rl) + "\r\nok",
      [M(status=200, headers=[["Content-Length", "2"]] + [["X-F%02d" % i, "v"] for i in range(1, 64)], body="ok")], W)
    S(F, "limits/field-lines/65-response",
      "HTTP/1.1 200 OK\r\n" + "".join(l + "\r\n" for l in rl) + "X-F64: v\r\n\r\nok", R, W)
    Q(F, "limits/field-lines/64-with-empty-values",
      "GET / HTTP/1.1\r\nHost: a\r\n" + "X:\r\n" * 63 + "\r\n", [M(headers=[["Host", "a"]] + [["X", ""]] * 63)], W)
    Q(F, "limits/field-lines/65-with-empty-values",
      "GET / HTTP/1.1\r\nHost: a\r\n" + "X:\r\n" * 64 + "\r\n", R, W)

    W = ("POLICY Fields limits, RFC 9110 5.4, RFC 9112 3: 8 KiB head, inclusive, counted from the first byte of the start-line "
         "through the CRLF that ends the head")
    s, pad = _pad_field_request(8192)
    Q(F, "limits/head/8192-request", s, [M(headers=[["Host", "a"], ["X-Pad", pad]])], W)
    s, pad = _pad_field_request(8193)
    Q(F, "limits/head/8193-request", s, R, W)
    s, pad = _pad_field_request(8192)
    Q(F, "limits/head/8192-request-after-2-empty-lines", "\r\n\r\n" + s, [M(headers=[["Host", "a"], ["X-Pad", pad]])],
      W + "; skipped empty lines are not part of the head")
    s, pad = _pad_field_request(8192, "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\nX-Pad: ")
    Q(F, "limits/head/8192-request-body-not-counted", s + "0123456789",
      [M(body="0123456789", content_length=10)], W + "; the body is not part of the head")
    t = "/" + "t" * (8192 - len("GET / HTTP/1.1\r\nHost: a\r\n\r\n"))
    s = "GET %s HTTP/1.1\r\nHost: a\r\n\r\n" % t
    assert len(s) == 8192
    Q(F, "limits/head/8192-long-target", s, [M(target=t)], W)
    t2 = t + "t"
    Q(F, "limits/head/8193-long-target", "GET %s HTTP/1.1\r\nHost: a\r\n\r\n" % t2, R, W)
    pre = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nX-Pad: "
    n = 8192 - len(pre) - 4
    S(F, "limits/head/8192-response", pre + "p" * n + "\r\n\r\n",
      [M(status=200, headers=[["Content-Length", "0"], ["X-Pad", "p" * n]])], W)
    S(F, "limits/head/8193-response", pre + "p" * (n + 1) + "\r\n\r\n", R, W)
    s, pad = _pad_field_request(8192)
    Q(F, "limits/head/8192-then-8193-pipelined", s + _pad_field_request(8193)[0],
      [M(headers=[["Host", "a"], ["X-Pad", pad]]), R], W + "; the limit applies to each message's head")

    W = ("POLICY Fields limits, RFC 9112 7.1.1: 64 KiB for one chunk-ext, inclusive; D4: counted from the byte after the last "
         "chunk-size digit up to, not including, the CR")
    CH = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
    ext = ";a=" + "b" * (65536 - 3)
    Q(F, "limits/chunk-ext/65536-data-chunk", CH + "5" + ext + "\r\nhello\r\n0\r\n\r\n",
      [M(body="hello", chunked=True)], W)
    Q(F, "limits/chunk-ext/65537-data-chunk", CH + "5" + ext + "b\r\nhello\r\n0\r\n\r\n", R, W)
    Q(F, "limits/chunk-ext/65536-last-chunk", CH + "5\r\nhello\r\n0" + ext + "\r\n\r\n",
      [M(body="hello", chunked=True)], W)
    Q(F, "limits/chunk-ext/65537-last-chunk", CH + "5\r\nhello\r\n0" + ext + "b\r\n\r\n", R, W)
    Q(F, "limits/chunk-ext/65536-many-exts", CH + "5" + ";a" * 32768 + "\r\nhello\r\n0\r\n\r\n",
      [M(body="hello")], W)
    Q(F, "limits/chunk-ext/65537-many-exts-bws", CH + "5 " + ";a" * 32768 + "\r\nhello\r\n0\r\n\r\n", R,
      W + "; BWS counts")
    Q(F, "limits/chunk-ext/65536-long-size-digits",
      CH + "0000000000000005" + ext + "\r\nhello\r\n0\r\n\r\n", [M(body="hello")],
      W + "; the size digits are not counted")
    Q(F, "limits/chunk-ext/65536-each-of-two-chunks",
      CH + "2" + ext + "\r\nhe\r\n3" + ext + "\r\nllo\r\n0\r\n\r\n", [M(body="hello")],
      W + "; the limit is per chunk-ext")
    W2 = ("httpspan limit, RFC 9112 7.1.1: 256 KiB of chunk-ext in one body, all lines together, inclusive; "
          "counted as for one chunk-ext")
    Q(F, "limits/chunk-ext/262144-body-four-chunks",
      CH + "".join("1" + ext + "\r\n" + c + "\r\n" for c in "hell") + "0\r\n\r\n",
      [M(body="hell")], W2)
    Q(F, "limits/chunk-ext/262146-body-four-chunks-and-last",
      CH + "".join("1" + ext + "\r\n" + c + "\r\n" for c in "hell") + "0;a\r\n\r\n", R, W2)
    RCH = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
    S(F, "limits/chunk-ext/65536-response", RCH + "5" + ext + "\r\nhello\r\n0\r\n\r\n", [M(body="hello")], W)
    S(F, "limits/chunk-ext/65537-response", RCH + "5" + ext + "b\r\nhello\r\n0\r\n\r\n", R, W)

    W = ("POLICY Fields limits, RFC 9112 7.1.2: 64 KiB for the trailer section, inclusive; D11: counted from after the last-chunk "
         "line through the CRLF that ends the trailer section")

    def trailer_section(total):
        lines, names, size = [], [], 2
        i = 0
        while size < total:
            pre = "X-T%d: " % i
            room = total - size - len(pre) - 2
            vlen = min(7000, room)
            if room - vlen < 20 and room <= 7900:  # avoid a tiny tail line
                vlen = room
            assert vlen >= 1
            lines.append(pre + "v" * vlen + "\r\n")
            names.append(["X-T%d" % i, "v" * vlen])
            size += len(lines[-1])
            i += 1
        sec = "".join(lines) + "\r\n"
        assert len(sec) == total, (len(sec), total)
        return sec, names

    sec, tr = trailer_section(65536)
    Q(F, "limits/trailers/65536", CH + "5\r\nhello\r\n0\r\n" + sec, [M(body="hello", trailers=tr)], W)
    sec2, _ = trailer_section(65537)
    Q(F, "limits/trailers/65537", CH + "5\r\nhello\r\n0\r\n" + sec2, R, W)
    Q(F, "limits/trailers/65536-last-chunk-ext-not-counted",
      CH + "5\r\nhello\r\n0;e=x\r\n" + sec, [M(body="hello", trailers=tr)], W)
    S(F, "limits/trailers/65536-response", RCH + "5\r\nhello\r\n0\r\n" + sec, [M(body="hello", trailers=tr)], W)
    S(F, "limits/trailers/65537-response", RCH + "5\r\nhello\r\n0\r\n" + sec2, R, W)
