"""A small, slow, whole-input model of POLICY.md + docs/policy-decisions.md.

It exists only to cross-check the hand-written expectations of the vectors
(check.py runs it over every case). It is not the parser and not a
specification: where it and a vector disagree, one of them is wrong and the
rules decide which. Inputs are bytes; outcomes are message dicts (with every
FORMAT.md field), "reject" or "incomplete".
"""

import ipaddress
import re

SP, HTAB, CR, LF = 0x20, 0x09, 0x0D, 0x0A
DIGIT = set(b"0123456789")
ALPHA = set(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
HEXDIG = DIGIT | set(b"abcdefABCDEF")
TCHAR = DIGIT | ALPHA | set(b"!#$%&'*+-.^_`|~")
UNRESERVED = ALPHA | DIGIT | set(b"-._~")
SUB_DELIMS = set(b"!$&'()*+,;=")
PCHAR = UNRESERVED | SUB_DELIMS | set(b":@")  # plus pct-encoded
VCHAR = set(range(0x21, 0x7F))
OBS_TEXT = set(range(0x80, 0x100))
FIELD_VCHAR = VCHAR | OBS_TEXT
QDTEXT = {HTAB, SP, 0x21} | set(range(0x23, 0x5C)) | set(range(0x5D, 0x7F)) | OBS_TEXT

MAX_FIELD_LINES = 64
MAX_HEAD = 8192
MAX_CHUNK_EXT = 65536
MAX_BODY_CHUNK_EXT = 262144
MAX_TRAILERS = 65536
MAX_CL = 2 ** 63 - 1


# The lenient options of the case being run (docs/leniency.md); empty means strict.
OPTIONS = frozenset()
OPTION_NAMES = ("bare_lf", "obs_fold", "space_before_colon", "request_line_spaces", "missing_host",
                "duplicate_content_length", "unknown_version", "target_unsafe_bytes")
# The visible bytes RFC 3986 allows nowhere in a URI, which target_unsafe_bytes accepts in a
# request-target's path and query.
UNSAFE_TARGET = set(b'"<>\\^`{|}')


def on(name):
    assert name in OPTION_NAMES, name
    return name in OPTIONS


class Reject(Exception):
    pass


class Incomplete(Exception):
    pass


def need(cond, why="syntax"):
    if not cond:
        raise Reject(why)


# ------------------------------------------------------------ lines
def line_end(data, pos):
    """Return (end of the line's content, pos after its line end). Bare CR rejects, and so does
    a bare LF unless bare_lf; EOF incomplete."""
    i = pos
    n = len(data)
    while i < n:
        c = data[i]
        if c == LF:
            need(on("bare_lf"), "bare LF")
            return i, i + 1
        if c == CR:
            if i + 1 >= n:
                raise Incomplete()
            if data[i + 1] != LF:
                raise Reject("bare CR")
            return i, i + 2
        i += 1
    raise Incomplete()


def read_line(data, pos):
    """Return (line, pos after its line end)."""
    end, nxt = line_end(data, pos)
    return data[pos:end], nxt


def read_field_line(data, pos, start, max_bytes):
    """A field line, with its obs-folds (raw) when obs_fold is on: an obs-fold continues the
    line, so a line ends only where the byte after its line end is there and is no SP/HTAB,
    and that byte must lie inside the section's byte limit."""
    end, nxt = line_end(data, pos)
    if on("obs_fold") and end > pos:
        while True:
            need(nxt - start < max_bytes, "section too large")
            if nxt >= len(data):
                raise Incomplete()
            if data[nxt] not in (SP, HTAB):
                break
            end, nxt = line_end(data, nxt)
    return data[pos:end], nxt


def unfolded(value):
    """Each run of SP/HTAB/CR/LF holding a CR or LF (an obs-fold) becomes one SP."""
    return re.sub(rb"[ \t\r\n]*[\r\n][ \t\r\n]*", b" ", value)


def is_empty_line(data, pos):
    return data.startswith(b"\r\n", pos) or (on("bare_lf") and data.startswith(b"\n", pos))


def empty_line_len(data, pos):
    return 2 if data.startswith(b"\r\n", pos) else 1


def norm_version(v):
    """HTTP/1.2 .. HTTP/1.9 read as HTTP/1.1 with unknown_version."""
    if on("unknown_version") and len(v) == 8 and v[:7] == b"HTTP/1." and v[7] in DIGIT and v[7] > ord("1"):
        return b"HTTP/1.1"
    return v


def value_ws():
    return b" \t\r\n" if on("obs_fold") else b" \t"


def split_name(line_head):
    """The field name before the colon: with space_before_colon, SP/HTAB before the colon are
    not part of it."""
    return line_head.rstrip(b" \t") if on("space_before_colon") else line_head


def is_token(s):
    return len(s) > 0 and all(c in TCHAR for c in s)


def check_pct_bytes(s, allowed, path=False):
    """`path`: a path or query, where target_unsafe_bytes takes its bytes and a lone "%"."""
    unsafe = path and on("target_unsafe_bytes")
    i = 0
    while i < len(s):
        c = s[i]
        if c == 0x25:
            pct = i + 2 < len(s) and s[i + 1] in HEXDIG and s[i + 2] in HEXDIG
            if not pct and unsafe:
                i += 1
                continue
            need(i + 2 < len(s), "pct")
            need(s[i + 1] in HEXDIG and s[i + 2] in HEXDIG, "pct")
            i += 3
            continue
        need(c in allowed or (unsafe and c in UNSAFE_TARGET), "target byte")
        i += 1


def valid_port(p, max_digits=5):
    return all(c in DIGIT for c in p) and len(p) <= max_digits


def valid_reg_name(h):
    try:
        check_pct_bytes(h, UNRESERVED | SUB_DELIMS)
        return True
    except Reject:
        return False


def valid_ip_literal(lit):
    s = lit.decode("latin-1")
    if s[:1] in ("v", "V"):
        # IPvFuture (D20): "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
        ver, dot, rest = s[1:].partition(".")
        hexdigits = "0123456789abcdefABCDEF"
        return bool(ver) and all(c in hexdigits for c in ver) and bool(dot) and bool(rest) and all(
            ord(c) in UNRESERVED | SUB_DELIMS or c == ":" for c in rest)
    if "%" in s:
        return False
    try:
        ipaddress.IPv6Address(s)
        return True
    except ValueError:
        return False


def valid_host_port(v, require_port=False, allow_empty_host=True):
    """uri-host [ ":" port ], port *DIGIT with at most 5 digits, no userinfo."""
    if v.startswith(b"["):
        end = v.find(b"]")
        if end < 0 or not valid_ip_literal(v[1:end]):
            return False
        rest = v[end + 1:]
        host = v[:end + 1]
    else:
        i = v.find(b":")
        host, rest = (v, b"") if i < 0 else (v[:i], v[i:])
        if not valid_reg_name(host):
            return False
    if not host and (not allow_empty_host or rest):
        return False  # D20: a port with no host
    if require_port and not rest:
        return False
    if rest:
        if rest[:1] != b":" or not valid_port(rest[1:]):
            return False
    return True


# ------------------------------------------------------------ request-target
def check_origin(t):
    path, q, query = t.partition(b"?")
    need(path.startswith(b"/"), "origin-form")
    check_pct_bytes(path, PCHAR | {0x2F}, path=True)
    if q:
        check_pct_bytes(query, PCHAR | {0x2F, 0x3F}, path=True)


def authority_shape(t):
    """D2: host:port, no "/", only digits after the first ":"."""
    if b"/" in t or b":" not in t:
        return False
    after = t.split(b":", 1)[1]
    return len(after) > 0 and all(c in DIGIT for c in after)


def check_absolute(t):
    scheme, colon, rest = t.partition(b":")
    need(colon and scheme and scheme[0] in ALPHA and all(c in ALPHA | DIGIT | set(b"+-.") for c in scheme), "scheme")
    hier, q, query = rest.partition(b"?")
    if q:
        check_pct_bytes(query, PCHAR | {0x2F, 0x3F}, path=True)
    http = scheme.lower() in (b"http", b"https")
    if hier.startswith(b"//"):
        auth_end = hier.find(b"/", 2)
        auth = hier[2:] if auth_end < 0 else hier[2:auth_end]
        path = b"" if auth_end < 0 else hier[auth_end:]
        # D2/D22: userinfo is an error in http(s) targets; other schemes may carry one.
        userinfo, at, host_port = auth.rpartition(b"@")
        if at:
            need(not http, "userinfo")
            check_pct_bytes(userinfo, UNRESERVED | SUB_DELIMS | {0x3A})
            auth = host_port
        need(valid_host_port(auth, allow_empty_host=not http), "authority")
        if http:
            host = auth.split(b":")[0] if not auth.startswith(b"[") else auth
            need(len(host) > 0, "empty host")
        check_pct_bytes(path, PCHAR | {0x2F}, path=True)
    else:
        need(not http, "http needs //")
        check_pct_bytes(hier, PCHAR | {0x2F}, path=True)


def check_target(method, t):
    need(b"#" not in t, "fragment")
    if method == b"CONNECT":
        need(b"@" not in t and b"/" not in t and b"?" not in t, "authority-form")
        need(valid_host_port(t, require_port=True, allow_empty_host=False), "authority-form")
        return
    if t == b"*":
        need(method == b"OPTIONS", "asterisk-form")
        return
    if t.startswith(b"/"):
        check_origin(t)
        return
    need(not authority_shape(t), "authority-form without CONNECT")
    check_absolute(t)


# ------------------------------------------------------------ fields
def value_byte_ok(c):
    return c in FIELD_VCHAR or c in (SP, HTAB) or (on("obs_fold") and c in (CR, LF))


def parse_field_line(line):
    """-> (name, value), the value unfolded: what every rule reads."""
    need(line[:1] not in (b" ", b"\t"), "leading whitespace / obs-fold")
    name, colon, value = line.partition(b":")
    need(colon, "no colon")
    name = split_name(name)
    need(is_token(name), "field-name")
    value = value.strip(value_ws())
    need(all(value_byte_ok(c) for c in value), "field-value byte")
    return name, unfolded(value)


class FieldsCutShort(Incomplete):
    """The stream ended inside a block of field lines: the lines read so far and where the
    cut-off line starts."""

    def __init__(self, fields, at):
        super().__init__()
        self.fields = fields
        self.at = at


def read_fields(data, pos, start, max_bytes):
    """Field lines up to the empty line, the section counted from `start`: (fields, pos after
    the empty line)."""
    fields = []
    try:
        while True:
            line, pos = read_field_line(data, pos, start, max_bytes)
            need(pos - start <= max_bytes, "section too large")
            if line == b"":
                return fields, pos
            fields.append(parse_field_line(line))
            need(len(fields) <= MAX_FIELD_LINES, "too many field lines")
    except Incomplete:
        need(len(data) - start <= max_bytes, "section too large")
        raise FieldsCutShort(fields, pos)


def cut_short_field_line(partial, fields):
    """The cut-off last line of a block of field lines (D24): a whole line but for its LF is
    held to every line rule, a shorter one to what its bytes so far can break. With obs_fold a
    fold could still continue the line: its line end is set aside and it counts as cut short."""
    if partial in (b"", b"\r"):
        return
    if on("obs_fold"):
        for end in (b"\r\n", b"\n", b"\r"):
            if partial.endswith(end):
                partial = partial[:-len(end)]
                break
        field_line_prefix(partial)
    elif partial.endswith(b"\r"):
        parse_field_line(partial[:-1])
    else:
        field_line_prefix(partial)
    need(len(fields) + 1 <= MAX_FIELD_LINES, "too many field lines")


def read_head(data, pos, truncated=None):
    """Return (start_line, fields, pos after the head). If the stream ends inside the head,
    `truncated(start_line or None, fields, partial_line)` may reject what arrived (D24)."""
    start = pos
    try:
        start_line, pos = read_line(data, pos)
    except Incomplete:
        need(len(data) - start <= MAX_HEAD, "head too large")
        if truncated is not None:
            truncated(None, [], data[pos:])
        raise
    try:
        fields, pos = read_fields(data, pos, start, MAX_HEAD)
    except FieldsCutShort as cut:
        if truncated is not None:
            truncated(start_line, cut.fields, data[cut.at:])
        raise
    return start_line, fields, pos


# ------------------------------------------------------------ heads cut short (D24)
def version_prefix_ok(v):
    """Whether `v` can begin an HTTP-version that is then complete: a prefix of "HTTP/d.d";
    eight bytes must be HTTP/1.0 or HTTP/1.1."""
    shape = b"HTTP/0.0"
    if len(v) > 8:
        return False
    for a, b in zip(v, shape):
        if (b == ord("0") and a not in DIGIT) or (b != ord("0") and a != b):
            return False
    return len(v) < 8 or norm_version(v) in (b"HTTP/1.1", b"HTTP/1.0")


def after_sp(rest):
    """What follows a separating SP: with request_line_spaces, further SPs are skipped."""
    return rest.lstrip(b" ") if on("request_line_spaces") else rest


def request_line_prefix(line):
    """Reject a cut-short request-line that no continuation can make valid."""
    method, sp, rest = line.partition(b" ")
    need(all(c in TCHAR for c in method), "method")
    if not sp:
        return
    need(method, "method")
    target, sp, version = after_sp(rest).partition(b" ")
    version = after_sp(version)
    i = 0
    while i < len(target):
        c = target[i]
        if c == ord("%") and not on("target_unsafe_bytes"):
            need(all(h in HEXDIG for h in target[i + 1:i + 3]), "pct-encoding")
            i += 3
            continue
        unsafe = on("target_unsafe_bytes") and (c in UNSAFE_TARGET or c == ord("%"))
        need(c in PCHAR or c in b"/?[]" or unsafe, "target byte")
        i += 1
    if not sp:
        return
    need(target, "empty target")
    check_target(method, target)
    need(version_prefix_ok(version), "version")


def status_line_prefix(line):
    version, sp, rest = line.partition(b" ")
    need(version_prefix_ok(version), "version")
    if not sp:
        return
    need(len(version) == 8, "version")
    rest = after_sp(rest)
    code, reason = rest[:3], rest[3:]
    need(all(c in DIGIT for c in code), "status code")
    if len(code) == 3:
        need(100 <= int(code) <= 599, "status range")
    if reason:
        need(reason[:1] == b" ", "SP after code")
        need(all(c in FIELD_VCHAR or c in (SP, HTAB) for c in reason[1:]), "reason byte")


def field_line_prefix(line):
    need(line[:1] not in (b" ", b"\t"), "leading whitespace / obs-fold")
    name, colon, value = line.partition(b":")
    name = split_name(name)
    need(all(c in TCHAR for c in name), "field-name")
    if colon:
        need(name, "field-name")
        need(all(value_byte_ok(c) for c in value), "field-value byte")


def field_rules_so_far(fields, version, kind):
    """The rules each field line is held to as it arrives (not those of the whole head)."""
    version = norm_version(version)
    if version in (b"HTTP/1.0", b"HTTP/1.1"):
        framing(fields, version, "response")  # every Content-Length / Transfer-Encoding rule but the last coding's
        keep_alive(fields, version)
    if kind == "request":
        hosts = values(fields, b"host")
        need(len(hosts) <= 1, "duplicate Host")
        need(all(not h or valid_host_port(h) for h in hosts), "invalid Host")


def truncated_head(kind, reparse):
    """A `truncated` callback for read_head. `reparse(b"\n")` parses the data with an LF
    appended, for a head cut just after the CR of its empty line."""

    def check(start_line, fields, partial):
        complete = partial.endswith(b"\r")
        if complete:
            partial = partial[:-1]
        if start_line is None:
            if complete:
                # The line is whole but for its LF: its usual checks run on the full parse.
                try:
                    reparse(b"\n")
                except Incomplete:
                    pass
            elif kind == "request":
                request_line_prefix(partial)
            else:
                status_line_prefix(partial)
            return
        version = start_line.split(b" ")[-1] if kind == "request" else start_line[:8]
        if complete and partial == b"":
            try:
                reparse(b"\n")
            except Incomplete:
                pass
            return
        cut_short_field_line(partial + (b"\r" if complete else b""), fields)
        if complete and not on("obs_fold"):
            fields = fields + [parse_field_line(partial)]
        # The start line was complete: it is held to its rules whatever follows.
        try:
            reparse_start(kind, start_line)
        except Incomplete:
            pass
        field_rules_so_far(fields, version, kind)

    return check


def reparse_start(kind, line):
    """The start-line rules alone, for a head whose start line is complete."""
    if kind == "request":
        check_request_line(line)
    else:
        check_status_line(line)


def check_request_line(line):
    """-> (method, target, version)"""
    parts = re.split(b" +", line) if on("request_line_spaces") else line.split(b" ")
    need(len(parts) == 3 and all(parts), "request-line")
    method, target, version = parts
    need(is_token(method), "method")
    version = norm_version(version)
    need(version in (b"HTTP/1.1", b"HTTP/1.0"), "version")
    check_target(method, target)
    return method, target, version


def check_status_line(line):
    """-> (version, status, reason)"""
    need(len(line) >= 12, "status-line")
    version = norm_version(line[:8])
    need(version in (b"HTTP/1.1", b"HTTP/1.0"), "version")
    need(line[8] == SP, "status-line SP")
    line = line[:9] + after_sp(line[9:])
    code = line[9:12]
    need(len(code) == 3 and all(c in DIGIT for c in code), "status code")
    status = int(code)
    need(100 <= status <= 599, "status range")
    if len(line) == 12:
        reason = b""
    else:
        need(line[12] == SP, "SP after code")
        reason = line[13:]
        need(all(c in FIELD_VCHAR or c in (SP, HTAB) for c in reason), "reason byte")
    return version, status, reason


def values(fields, name):
    return [v for n, v in fields if n.lower() == name]


def split_list(v):
    """Comma list, commas inside quoted strings kept."""
    out, cur, inq, esc = [], bytearray(), False, False
    for c in v:
        if inq:
            cur.append(c)
            if esc:
                esc = False
            elif c == 0x5C:
                esc = True
            elif c == 0x22:
                inq = False
        elif c == 0x22:
            inq = True
            cur.append(c)
        elif c == 0x2C:
            out.append(bytes(cur))
            cur = bytearray()
        else:
            cur.append(c)
    out.append(bytes(cur))
    return [e.strip(b" \t") for e in out if e.strip(b" \t")]


def parse_coding(elem):
    """token *( OWS ";" OWS token BWS "=" BWS token ) -> lowercase name (D5)."""
    parts = elem.split(b";")
    name = parts[0].strip(b" \t")
    need(is_token(name), "transfer-coding")
    need(name.lower() != b"chunked" or len(parts) == 1, "chunked with parameters (D15)")
    for p in parts[1:]:
        k, eq, val = p.partition(b"=")
        need(eq and is_token(k.strip(b" \t")) and is_token(val.strip(b" \t")), "transfer-parameter")
    return name.lower()


def framing(fields, version, kind):
    """Return ("none"|"cl"|"chunked"|"close", cl value or None)."""
    te = values(fields, b"transfer-encoding")
    cl = values(fields, b"content-length")
    need(not (te and cl), "TE and CL")
    need(not (te and version == b"HTTP/1.0"), "TE in HTTP/1.0")
    n = None
    if on("duplicate_content_length"):
        numbers = []
        for v in cl:
            for e in v.split(b","):
                e = e.strip(b" \t")
                need(len(e) > 0 and all(c in DIGIT for c in e), "CL syntax")
                need(int(e) <= MAX_CL, "CL too large")
                numbers.append(int(e))
        need(len(set(numbers)) <= 1, "differing CL")
        n = numbers[0] if numbers else None
    else:
        need(len(cl) <= 1, "duplicate CL")
        if cl:
            need(len(cl[0]) > 0 and all(c in DIGIT for c in cl[0]), "CL syntax")
            n = int(cl[0])
            need(n <= MAX_CL, "CL too large")
    if te:
        codings = []
        for v in te:
            codings += [parse_coding(e) for e in split_list(v)]
        need(codings.count(b"chunked") <= 1, "chunked twice")
        if codings and codings[-1] == b"chunked":
            return "chunked", None
        need(kind == "response", "last coding not chunked")
        return "close", None
    if cl:
        return "cl", n
    return ("none" if kind == "request" else "close"), None


def keep_alive(fields, version):
    toks = []
    for v in values(fields, b"connection"):
        elems = split_list(v)
        need(all(is_token(e) for e in elems), "Connection elements are tokens (D19)")
        toks += [e.lower() for e in elems]
    if b"close" in toks:
        return False
    if version == b"HTTP/1.1":
        return True
    return b"keep-alive" in toks


# ------------------------------------------------------------ chunked
def check_chunk_ext(ext):
    i, n = 0, len(ext)

    def ws(i):
        while i < n and ext[i] in (SP, HTAB):
            i += 1
        return i

    def token(i):
        j = i
        while j < n and ext[j] in TCHAR:
            j += 1
        need(j > i, "chunk-ext token")
        return j

    while i < n:
        i = ws(i)
        need(i < n and ext[i] == 0x3B, "chunk-ext ;")
        i = ws(i + 1)
        i = token(i)
        k = ws(i)
        if k < n and ext[k] == 0x3D:
            i = ws(k + 1)
            if i < n and ext[i] == 0x22:
                i += 1
                while True:
                    need(i < n, "unterminated quoted-string")
                    c = ext[i]
                    if c == 0x22:
                        i += 1
                        break
                    if c == 0x5C:
                        need(i + 1 < n and (ext[i + 1] in FIELD_VCHAR or ext[i + 1] in (SP, HTAB)), "quoted-pair")
                        i += 2
                        continue
                    need(c in QDTEXT, "qdtext")
                    i += 1
            else:
                i = token(i)


def check_chunk_line(line):
    """Return the chunk-size of a complete chunk line."""
    j = 0
    while j < len(line) and line[j] in HEXDIG:
        j += 1
    need(0 < j <= 16, "chunk-size")
    ext = line[j:]
    need(len(ext) <= MAX_CHUNK_EXT, "chunk-ext too large")
    check_chunk_ext(ext)
    return int(line[:j], 16)


# Endings that complete every prefix of a valid chunk line: in the size or a token (nothing),
# after ";" or "=" or inside BWS (a token), inside a quoted-string (its quote), after a
# backslash there (a byte and the quote), after a token and BWS (another extension).
CHUNK_LINE_ENDINGS = (b"", b"a", b'"', b'a"', b";a")


def chunk_line_cut_short(partial):
    """A chunk line the stream cut short is an error once no ending can make it valid; one
    cut between its CR and LF is complete but for the LF, so every error counts."""
    if partial.endswith(b"\r"):
        check_chunk_line(partial[:-1])
        return
    if not partial:
        return
    for ending in CHUNK_LINE_ENDINGS:
        try:
            check_chunk_line(partial + ending)
            return
        except Reject:
            pass
    raise Reject("chunk line cut short")


def read_chunked(data, pos):
    body = bytearray()
    ext_total = 0
    while True:
        try:
            line, pos = read_line(data, pos)
        except Incomplete:
            chunk_line_cut_short(data[pos:])
            raise
        size = check_chunk_line(line)
        digits = 0
        while digits < len(line) and line[digits] in HEXDIG:
            digits += 1
        ext_total += len(line) - digits
        need(ext_total <= MAX_BODY_CHUNK_EXT, "chunk-ext of the body too large")
        if size == 0:
            break
        if len(data) - pos < size:
            raise Incomplete()
        body += data[pos:pos + size]
        pos += size
        if on("bare_lf") and data[pos:pos + 1] == b"\n":
            pos += 1
            continue
        if len(data) - pos < 2:
            need(data[pos:] in (b"", b"\r"), "chunk data CRLF")
            raise Incomplete()
        need(data[pos:pos + 2] == b"\r\n", "chunk data CRLF")
        pos += 2
    try:
        trailers, pos = read_fields(data, pos, pos, MAX_TRAILERS)
    except FieldsCutShort as cut:
        cut_short_field_line(data[cut.at:], cut.fields)
        raise
    return bytes(body), trailers, pos


def s(b):
    return b.decode("latin-1")


def hdrs(fields):
    return [[s(n), s(v)] for n, v in fields]


# ------------------------------------------------------------ messages
def parse_request(data, pos):
    line, fields, pos = read_head(data, pos, truncated_head("request", lambda tail: parse_request(data + tail, pos)))
    method, target, version = check_request_line(line)
    hosts = values(fields, b"host")
    need(len(hosts) <= 1, "duplicate Host")
    need(hosts or version != b"HTTP/1.1" or on("missing_host"), "missing Host")
    if hosts and hosts[0]:
        need(valid_host_port(hosts[0]), "invalid Host")
    kind, n = framing(fields, version, "request")
    msg = dict(method=s(method), target=s(target), version=s(version), headers=hdrs(fields),
               content_length=n, chunked=kind == "chunked", trailers=[])
    if kind == "cl":
        if len(data) - pos < n:
            raise Incomplete()
        body = data[pos:pos + n]
        pos += n
    elif kind == "chunked":
        body, trailers, pos = read_chunked(data, pos)
        msg["trailers"] = hdrs(trailers)
    else:
        body = b""
    msg["body"] = s(body)
    ka = keep_alive(fields, version)
    msg["keep_alive"] = ka
    return msg, pos, ka


def parse_response(data, pos, method):
    again = lambda tail: parse_response(data + tail, pos, method)  # noqa: E731
    line, fields, pos = read_head(data, pos, truncated_head("response", again))
    version, status, reason = check_status_line(line)
    kind, n = framing(fields, version, "response")
    msg = dict(version=s(version), status=status, reason=s(reason), headers=hdrs(fields),
               content_length=n, chunked=False, trailers=[])
    stop = False
    until_close = False
    if 100 <= status < 200:
        body = b""
        stop = status == 101
    elif method == "CONNECT" and 200 <= status < 300:
        body = b""
        stop = True
    elif method == "HEAD" or status in (204, 304):
        body = b""
    elif kind == "chunked":
        body, trailers, pos = read_chunked(data, pos)
        msg["chunked"] = True
        msg["trailers"] = hdrs(trailers)
    elif kind == "cl":
        if len(data) - pos < n:
            raise Incomplete()
        body = data[pos:pos + n]
        pos += n
    else:
        body = data[pos:]
        pos = len(data)
        until_close = True
    msg["body"] = s(body)
    ka = keep_alive(fields, version) and not until_close
    msg["keep_alive"] = ka
    return msg, pos, (ka and not stop), 100 <= status < 200


def run(kind, data, request_method=None, options=()):
    global OPTIONS
    assert all(o in OPTION_NAMES for o in options), options
    OPTIONS = frozenset(options)
    try:
        return run_strict_or_lenient(kind, data, request_method)
    finally:
        OPTIONS = frozenset()


def run_strict_or_lenient(kind, data, request_method):
    out = []
    pos = 0
    rm = list(request_method or [])
    idx = 0
    while True:
        if kind == "request":
            skipped = 0
            while is_empty_line(data, pos) and skipped < 2:
                pos += empty_line_len(data, pos)
                skipped += 1
            if pos == len(data) or (data[pos:] == b"\r"):
                if data[pos:] == b"\r":
                    out.append("incomplete")
                break
            if is_empty_line(data, pos):
                out.append("reject")
                break
        else:
            if pos == len(data):
                break
            if is_empty_line(data, pos):
                out.append("reject")
                break
        try:
            if kind == "request":
                msg, pos, cont = parse_request(data, pos)
                out.append(msg)
            else:
                method = rm[idx] if idx < len(rm) else "GET"
                msg, pos, cont, interim = parse_response(data, pos, method)
                if not interim:
                    idx += 1
                out.append(msg)
        except Reject:
            out.append("reject")
            break
        except Incomplete:
            out.append("incomplete")
            break
        if not cont:
            break
    return out
