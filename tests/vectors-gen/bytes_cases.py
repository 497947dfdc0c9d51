"""Exhaustive byte-class cases: every byte 0x00..0xFF in each position.

Each case puts one byte between two fixed bytes chosen so that the byte is the
only thing under test: e.g. "/x%z" makes "%" a lone percent sign (a valid
pct-encoding is its own case in request-line/origin-form/...).
"""

from common import M, add

DIGIT = "0123456789"
ALPHA = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
TCHAR = set("!#$%&'*+-.^_`|~" + DIGIT + ALPHA)           # RFC 9110 5.6.2
UNRESERVED = set(ALPHA + DIGIT + "-._~")                  # RFC 3986 2.3
SUB_DELIMS = set("!$&'()*+,;=")                           # RFC 3986 2.2
PCHAR_NO_PCT = UNRESERVED | SUB_DELIMS | set(":@")        # RFC 3986 3.3 (pct-encoded tested apart)
PATH_OK = PCHAR_NO_PCT | set("/?")                        # "?" starts the query, "/" is a separator
QUERY_OK = PCHAR_NO_PCT | set("/?")                       # RFC 3986 3.4
FIELD_VALUE_MID = set(chr(c) for c in list(range(0x21, 0x7F)) + list(range(0x80, 0x100))) | set(" \t")
REASON_OK = FIELD_VALUE_MID                               # RFC 9112 4: HTAB / SP / VCHAR / obs-text


def why_reject(b):
    if b == "\r":
        return "; CR here is a bare CR (POLICY Lines)"
    if b == "\n":
        return "; LF here is a bare LF (POLICY Lines)"
    if b == "\x00":
        return "; NUL in the head (POLICY Lines)"
    return ""


def gen_bytes():
    F = "bytes"
    for c in range(256):
        b = chr(c)
        h = "0x%02x" % c

        # method: "GE?T"
        inp = "GE%sT / HTTP/1.1\r\nHost: a\r\n\r\n" % b
        w = "RFC 9110 9.1/5.6.2: method is a token (tchar)"
        if b in TCHAR:
            add(F, "bytes/method/" + h, "request", inp, [M(method="GE%sT" % b, target="/")], w)
        else:
            add(F, "bytes/method/" + h, "request", inp, "reject",
                w + ("; SP splits the request-line into 4 parts (RFC 9112 3)" if b == " " else why_reject(b)))

        # origin-form path "/x?z" and query "/?x?z"
        for group, target, ok, w in (
                ("target-path", "/x%sz", PATH_OK,
                 "RFC 9112 3.2.1, RFC 3986 3.3: absolute-path bytes are pchar or \"/\"; \"?\" starts the query"),
                ("target-query", "/?x%sz", QUERY_OK,
                 "RFC 9112 3.2.1, RFC 3986 3.4: query bytes are pchar, \"/\" or \"?\"")):
            inp = "GET %s HTTP/1.1\r\nHost: a\r\n\r\n" % (target % b)
            if b in ok:
                add(F, "bytes/%s/%s" % (group, h), "request", inp, [M(target=target % b)], w)
            else:
                extra = {"#": "; \"#\" starts a fragment, an error (POLICY Request-line)",
                         "%": "; \"%z\" is not a pct-encoding (RFC 3986 2.1)",
                         " ": "; SP splits the request-line into 4 parts (RFC 9112 3)"}.get(b, why_reject(b))
                add(F, "bytes/%s/%s" % (group, h), "request", inp, "reject", w + extra)

        # field name: "X?Y: v"
        inp = "GET / HTTP/1.1\r\nHost: a\r\nX%sY: v\r\n\r\n" % b
        w = "RFC 9110 5.1/5.6.2: field-name is a token"
        if b in TCHAR:
            add(F, "bytes/field-name/" + h, "request", inp, [M(headers=[["Host", "a"], ["X%sY" % b, "v"]])], w)
        elif b == ":":
            add(F, "bytes/field-name/" + h, "request", inp, [M(headers=[["Host", "a"], ["X", "Y: v"]])],
                w + "; the first colon ends the name (RFC 9112 5)")
        else:
            extra = "; whitespace before the colon (POLICY Fields)" if b in " \t" else why_reject(b)
            add(F, "bytes/field-name/" + h, "request", inp, "reject", w + extra)

        # field value, middle: "a?b"
        inp = "GET / HTTP/1.1\r\nHost: a\r\nX-Test: a%sb\r\n\r\n" % b
        w = "RFC 9110 5.5: field-value bytes are VCHAR, obs-text, SP, HTAB"
        if b in FIELD_VALUE_MID:
            add(F, "bytes/field-value/" + h, "request", inp, [M(headers=[["Host", "a"], ["X-Test", "a%sb" % b]])], w)
        else:
            add(F, "bytes/field-value/" + h, "request", inp, "reject", w + why_reject(b))

        # reason phrase: "A?B"
        inp = "HTTP/1.1 200 A%sB\r\nContent-Length: 0\r\n\r\n" % b
        w = "RFC 9112 4: reason-phrase bytes are HTAB, SP, VCHAR, obs-text"
        if b in REASON_OK:
            add(F, "bytes/reason/" + h, "response", inp, [M(status=200, reason="A%sB" % b)], w)
        else:
            add(F, "bytes/reason/" + h, "response", inp, "reject", w + why_reject(b))

        # chunk-ext name: "5;a?b"
        pre = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
        inp = pre + "5;a%sb\r\nhello\r\n0\r\n\r\n" % b
        w = "RFC 9112 7.1.1: chunk-ext-name is a token"
        if b in TCHAR:
            add(F, "bytes/chunk-ext-name/" + h, "request", inp, [M(body="hello", chunked=True)], w)
        elif b == ";":
            add(F, "bytes/chunk-ext-name/" + h, "request", inp, [M(body="hello", chunked=True)],
                w + "; \";a;b\" is two extensions")
        elif b == "=":
            add(F, "bytes/chunk-ext-name/" + h, "request", inp, [M(body="hello", chunked=True)],
                w + "; \";a=b\" is a name and a value")
        else:
            extra = ("; D4: whitespace after the name must be followed by \"=\" or \";\"" if b in " \t"
                     else why_reject(b))
            add(F, "bytes/chunk-ext-name/" + h, "request", inp, "reject", w + extra)

        # chunk-ext token value: "5;a=x?y"
        inp = pre + "5;a=x%sy\r\nhello\r\n0\r\n\r\n" % b
        w = "RFC 9112 7.1.1: chunk-ext-val is a token or a quoted-string"
        if b in TCHAR:
            add(F, "bytes/chunk-ext-value/" + h, "request", inp, [M(body="hello", chunked=True)], w)
        elif b == ";":
            add(F, "bytes/chunk-ext-value/" + h, "request", inp, [M(body="hello", chunked=True)],
                w + "; \";a=x;y\" is two extensions")
        else:
            extra = ("; D4: whitespace after the value must be followed by \";\"" if b in " \t"
                     else why_reject(b))
            add(F, "bytes/chunk-ext-value/" + h, "request", inp, "reject", w + extra)
