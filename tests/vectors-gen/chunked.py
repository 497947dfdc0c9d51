"""Rule cases of tests/vectors/chunked.jsonl: the chunked coding: chunk-size, chunk-ext, the CRLF
after chunk data, trailers. One accepted and one rejected case (at least) for every rule;
"D<n>" in a `why` names a decision of docs/policy-decisions.md."""

from common import M, GET, CH, RCH, R, INC, Q, S


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
