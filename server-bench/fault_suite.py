#!/usr/bin/env python3
"""The fault suite: hostile and broken clients against the tokio example server
(core/examples/tokio_server.rs), an axum app on `serve_connection_with_shutdown`
(core/examples/axum_server.rs) and the reverse proxy (core/examples/proxy.rs, in front of a
tokio example server), on 127.0.0.1 with ephemeral ports.

Each attack has a pass condition and prints what it saw: connections the client still had
open, the server's peak descriptors (/proc/PID/fd) and resident memory (VmRSS), and the CPU it
used (/proc/PID/stat, percent of one core over the attack). `--brief` shortens the servers'
deadlines to 2 s through their HTTPSPAN_* environment variables and the attacks to match (about
a minute); without it the servers run with their defaults (30 s heads) and the attacks at the
sizes of issue 36 (about 10 minutes). Exit status 1 if an attack fails. Every loop is bounded;
every process started is stopped at the end.
"""

import argparse
import asyncio
import os
import resource
import signal
import socket
import struct
import subprocess
import sys
import time

HOST = "127.0.0.1"


# ---------------------------------------------------------------- measurements


def fd_count(pid):
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return -1


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return -1


def cpu_ticks(pid):
    """User + system CPU time of the process, in clock ticks."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    except OSError:
        return 0


class Watch:
    """Samples a server process every 50 ms while an attack runs: peak descriptors and RSS,
    and CPU over the whole attack."""

    def __init__(self, pid):
        self.pid = pid

    async def __aenter__(self):
        self.start = time.monotonic()
        self.ticks = cpu_ticks(self.pid)
        self.fd_base = fd_count(self.pid)
        self.fd_peak = self.fd_base
        self.rss_peak = rss_kib(self.pid)
        self.task = asyncio.ensure_future(self._sample())
        return self

    async def _sample(self):
        while True:
            self.fd_peak = max(self.fd_peak, fd_count(self.pid))
            self.rss_peak = max(self.rss_peak, rss_kib(self.pid))
            await asyncio.sleep(0.05)

    def cpu_percent(self):
        # Clock ticks are 10 ms: over less than a second a percentage would mean little.
        elapsed = max(time.monotonic() - self.start, 1.0)
        used = (cpu_ticks(self.pid) - self.ticks) / os.sysconf("SC_CLK_TCK")
        return 100.0 * used / max(elapsed, 1e-3)

    async def __aexit__(self, *exc):
        self.task.cancel()
        self.cpu = self.cpu_percent()
        self.fd_end = fd_count(self.pid)

    def figures(self):
        return (f"fds {self.fd_base}->{self.fd_peak}->{self.fd_end}, "
                f"RSS peak {self.rss_peak / 1024:.1f} MiB, CPU {self.cpu:.0f} %")


# ---------------------------------------------------------------- servers


class Server:
    """A server process; `addr` once it printed the address it listens on."""

    def __init__(self, name, argv, env, nofile=None):
        self.name = name
        full_env = dict(os.environ, **env)
        limit = None
        if nofile:
            limit = lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))
        self.proc = subprocess.Popen(argv, env=full_env, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, preexec_fn=limit, text=True)
        line = self.proc.stdout.readline()
        url = next(word for word in line.split() if word.startswith("http://"))
        host, port = url[len("http://"):].rsplit(":", 1)
        self.addr = (host, int(port))

    @property
    def pid(self):
        return self.proc.pid

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()


def start_servers(args, env, nofile=None, upstream=None):
    """The three servers under test; the proxy's upstream is a tokio example server (or
    `upstream`, an address)."""
    tokio = Server("tokio example", [args.tokio, f"{HOST}:0"], env, nofile)
    axum = Server("serve_connection (axum)", [args.axum, f"{HOST}:0"], env, nofile)
    backend = None
    if upstream is None:
        backend = Server("proxy's upstream", [args.tokio, f"{HOST}:0"], env)
        upstream = backend.addr
    proxy = Server("proxy example", [args.proxy, f"{HOST}:0", f"{upstream[0]}:{upstream[1]}"],
                   env, nofile)
    return [tokio, axum, proxy], backend


# ---------------------------------------------------------------- client helpers


async def open_conn(addr):
    return await asyncio.open_connection(*addr)


async def closed_by_server(reader, timeout):
    """Reads and drops until the server closes (EOF or reset): True, or False after
    `timeout` seconds."""
    end = time.monotonic() + timeout
    while True:
        left = end - time.monotonic()
        if left <= 0:
            return False
        try:
            data = await asyncio.wait_for(reader.read(65536), left)
        except asyncio.TimeoutError:
            return False
        except (ConnectionError, OSError):
            return True
        if not data:
            return True


def close_all(writers):
    for w in writers:
        try:
            w.transport.abort()
        except Exception:
            pass


async def first_status(reader, timeout=5.0):
    """The status code of the first answer, or None if the connection closes or stalls."""
    try:
        line = await asyncio.wait_for(reader.readline(), timeout)
    except (asyncio.TimeoutError, ConnectionError, OSError):
        return None
    parts = line.split()
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None


async def still_serves(addr):
    """Whether a fresh connection gets `GET /` answered 200 within 5 s."""
    try:
        r, w = await asyncio.wait_for(open_conn(addr), 5)
        w.write(b"GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        status = await first_status(r)
        w.transport.abort()
        return status == 200
    except (asyncio.TimeoutError, OSError):
        return False


# ---------------------------------------------------------------- the attacks
#
# Each takes (server, cfg) and returns (passed, what it saw). cfg holds the sizes and the
# deadlines the server runs with.


async def drip_until_closed(addr, prefix, drip, every, give_up):
    """Sends prefix, then drip a byte every `every` s; returns the seconds until the server
    closed, or None if it was still open after `give_up` s."""
    r, w = await open_conn(addr)
    w.write(prefix)
    start = time.monotonic()
    i = 0
    while time.monotonic() - start < give_up:
        if drip:
            w.write(drip[i % len(drip):i % len(drip) + 1])
            i += 1
        if await closed_by_server(r, every):
            w.transport.abort()
            return time.monotonic() - start
    w.transport.abort()
    return None


async def closed_within(server, cfg, coros, deadline):
    times = await asyncio.gather(*coros)
    open_left = sum(t is None for t in times)
    latest = max((t for t in times if t is not None), default=0)
    ok = open_left == 0 and latest <= deadline + cfg["margin"]
    return ok, f"{len(times) - open_left}/{len(times)} closed, last at {latest:.1f} s, {open_left} open"


async def slowloris(server, cfg):
    head = b"GET / HTTP/1.1\r\nHost: a\r\n" + b"X-Slow: " + b"a" * 10000
    coros = [drip_until_closed(server.addr, b"", head, cfg["drip"], cfg["head"] * 2 + cfg["margin"])
             for _ in range(cfg["conns"])]
    return await closed_within(server, cfg, coros, cfg["head"])


async def idle(server, cfg):
    half = cfg["conns"] // 2
    give_up = cfg["head"] * 2 + cfg["margin"]
    coros = [drip_until_closed(server.addr, b"", b"", 0.5, give_up) for _ in range(half)]
    coros += [drip_until_closed(server.addr, b"GET / HTTP/1.1\r\nHost: a\r\n\r\n", b"", 0.5, give_up)
              for _ in range(half)]
    return await closed_within(server, cfg, coros, cfg["head"])


async def slow_body(server, cfg):
    head = b"POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 1000000\r\n\r\n"
    coros = [drip_until_closed(server.addr, head, b"x" * 100000, cfg["drip"], cfg["body"] * 2 + cfg["margin"])
             for _ in range(cfg["conns"] // 6)]
    return await closed_within(server, cfg, coros, cfg["body"])


async def never_reads(server, cfg):
    """Pipelines requests and never reads: the server must close once its writes stall, and
    hold no growing buffer meanwhile."""
    return await asyncio.to_thread(never_reads_blocking, server, cfg)


def never_reads_blocking(server, cfg):
    n = max(cfg["conns"] // 15, 2)
    wire = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n" * 100000
    socks = []
    for _ in range(n):
        s = socket.create_connection(server.addr)
        s.setblocking(False)
        socks.append(s)
    # Send what the buffers take for a second.
    end = time.monotonic() + 1.0
    sent = [0] * n
    while time.monotonic() < end:
        for i, s in enumerate(socks):
            try:
                sent[i] += s.send(wire[sent[i] % len(wire):])
            except OSError:
                pass
        time.sleep(0.01)
    # The server's side is closed once the socket leaves ESTABLISHED (a FIN is queued behind
    # the unread answers, or a reset came); its kernel buffers fill before its writes stall,
    # so the time counts from the end of the sending.
    start = time.monotonic()
    closed_at = [None] * n
    while time.monotonic() - start < cfg["never_reads_give_up"] and None in closed_at:
        for i, s in enumerate(socks):
            if closed_at[i] is None and tcp_state(s) != TCP_ESTABLISHED:
                closed_at[i] = time.monotonic() - start
        time.sleep(0.1)
    for s in socks:
        s.close()
    closed = [t for t in closed_at if t is not None]
    ok = len(closed) == n
    last = f", last at {max(closed):.1f} s" if closed else ""
    return ok, f"{len(closed)}/{n} closed{last}, {sum(sent) >> 20} MiB of requests sent"


TCP_ESTABLISHED = 1


def tcp_state(sock):
    """The TCP state of a socket (Linux `tcp_info.tcpi_state`); 0 once it failed."""
    try:
        return sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 1)[0]
    except OSError:
        return 0


async def linger_after_error(server, cfg):
    """A malformed request, then the client keeps its socket open: the server must let its
    descriptors go within the lingering bound."""
    writers = []
    base = fd_count(server.pid)
    for _ in range(cfg["conns"] // 6):
        r, w = await open_conn(server.addr)
        w.write(b"GET / HTTP/1.1\r\nHost: a\r\nBad\x01Name: 1\r\n\r\n")
        writers.append((r, w))
    statuses = await asyncio.gather(*(first_status(r) for r, _ in writers))
    start = time.monotonic()
    released = None
    while time.monotonic() - start < cfg["hold"]:
        if fd_count(server.pid) <= base + 2:
            released = time.monotonic() - start
            break
        await asyncio.sleep(0.1)
    close_all(w for _, w in writers)
    ok = released is not None and released <= cfg["linger"] + cfg["margin"] and set(statuses) == {400}
    seen = f"answers {sorted(set(statuses), key=str)}; descriptors released "
    seen += f"at {released:.1f} s" if released is not None else f"not within {cfg['hold']} s"
    return ok, seen + f" (clients held theirs {cfg['hold']} s)"


async def drain_big_body(server, cfg):
    """A 404 route with a 1 GiB body announced: how much does the server read before it
    closes?"""
    return await asyncio.to_thread(drain_big_body_blocking, server, cfg)


def drain_big_body_blocking(server, cfg):
    s = socket.create_connection(server.addr)
    s.settimeout(cfg["drain_time"])
    s.sendall(b"POST /nowhere HTTP/1.1\r\nHost: a\r\nContent-Length: 1073741824\r\n\r\n")
    block = b"x" * 65536
    sent = 0
    start = time.monotonic()
    try:
        while sent < (1 << 30) and time.monotonic() - start < cfg["drain_time"]:
            sent += s.send(block)
    except OSError:
        pass
    s.close()
    ok = sent < 32 << 20
    return ok, f"{sent / (1 << 20):.1f} MiB taken in {time.monotonic() - start:.1f} s"


async def chunk_ext_flood(server, cfg):
    """200 one-byte chunks, each with a 60,000-byte extension (12 MB in all), sent while the
    answer is read: refused means a 4xx, or the connection ended before all of it was taken
    (a reset can destroy the 400 on its way)."""
    r, w = await open_conn(server.addr)
    w.write(b"POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n")
    answer = asyncio.ensure_future(first_status(r, 15))
    ext = b";e=" + b"v" * 60000
    sent = 0
    ended = False
    try:
        for _ in range(200):
            # A refusal ends the sending; the axum example's echo answers 200 as the body
            # starts streaming, and must then cut the connection.
            if answer.done() and (answer.result() or 0) >= 400:
                break
            w.write(b"1" + ext + b"\r\nx\r\n")
            await asyncio.wait_for(w.drain(), 5)
            sent += len(ext)
        else:
            w.write(b"0\r\n\r\n")
            await asyncio.wait_for(w.drain(), 5)
    except (asyncio.TimeoutError, OSError):
        ended = True
    status = await answer
    w.transport.abort()
    everything = sent == 200 * len(ext) and not ended
    ok = (status is not None and 400 <= status < 500) or not everything
    return ok, f"answer {status} after {sent / 1e6:.1f} MB of extensions sent" + (
        ", then the connection ended" if ended else "")


async def half_close(server, cfg):
    """Three pipelined requests, then the client shuts its side: all three answers must
    arrive."""
    r, w = await open_conn(server.addr)
    w.write(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n" * 3)
    await w.drain()
    w.write_eof()
    data = b""
    try:
        while True:
            piece = await asyncio.wait_for(r.read(65536), 5)
            if not piece:
                break
            data += piece
    except (asyncio.TimeoutError, OSError):
        pass
    w.transport.abort()
    answers = data.count(b"HTTP/1.1 200")
    return answers == 3, f"{answers}/3 answers after the half-close"


async def resets(server, cfg):
    """Connections reset mid-head and mid-body: nothing may leak."""
    base = fd_count(server.pid)
    n = cfg["conns"] // 2
    for i in range(n):
        s = socket.create_connection(server.addr)
        s.sendall(b"POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\nabc" if i % 2
                  else b"GET / HTTP/1.1\r\nHo")
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        s.close()
    await asyncio.sleep(cfg["margin"])
    end = fd_count(server.pid)
    serves = await still_serves(server.addr)
    return end <= base + 2 and serves, f"{n} resets; descriptors {base} -> {end}; serves after: {serves}"


async def descriptor_exhaustion(args, env, cfg):
    """Each server started with RLIMIT_NOFILE = cfg["nofile"], then twice that many
    connections held: the server must not spin, and must serve again once they go."""
    servers, backend = start_servers(args, env, nofile=cfg["nofile"])
    results = []
    try:
        for server in servers:
            held = []
            async with Watch(server.pid) as watch:
                for _ in range(cfg["nofile"] * 2):
                    try:
                        s = socket.socket()
                        s.setblocking(False)
                        s.connect_ex(server.addr)
                        held.append(s)
                    except OSError:
                        break
                # The server's CPU while it is out of descriptors, from when the backlog
                # has filled.
                await asyncio.sleep(0.3)
                ticks, start = cpu_ticks(server.pid), time.monotonic()
                await asyncio.sleep(cfg["exhaust_hold"])
                held_cpu = 100.0 * (cpu_ticks(server.pid) - ticks) / os.sysconf("SC_CLK_TCK")
                held_cpu /= time.monotonic() - start
            for s in held:
                s.close()
            await asyncio.sleep(cfg["margin"])
            serves = await still_serves(server.addr)
            # Issue 36's target is under 50 % of a core; on this shared machine an accept
            # loop that retries at once measured 43-57 %, one that pauses 0 %.
            ok = held_cpu < 20 and serves
            results.append((server.name, "descriptor exhaustion", ok,
                            f"{len(held)} connections held {cfg['exhaust_hold']} s against {cfg['nofile']} "
                            f"descriptors: CPU {held_cpu:.0f} % meanwhile; serves after: {serves}",
                            watch.figures()))
    finally:
        for s in servers + ([backend] if backend else []):
            s.stop()
    return results


class RecordingUpstream:
    """An upstream that records every request head it receives and answers 200."""

    def __init__(self):
        self.heads = []

    async def start(self):
        self.server = await asyncio.start_server(self.handle, HOST, 0)
        self.addr = self.server.sockets[0].getsockname()[:2]

    async def handle(self, reader, writer):
        try:
            while True:
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
                self.heads.append(head)
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
                await writer.drain()
        except (asyncio.TimeoutError, asyncio.IncompleteReadError, OSError, asyncio.LimitOverrunError):
            pass
        writer.close()


SMUGGLING = [
    (b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: a\r\n\r\n", "CL.TE"),
    (b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n8\r\nSMUGGLED\r\n0\r\n\r\n", "TE.CL"),
    (b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 40\r\n\r\nabc", "two Content-Length"),
    (b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n", "chunked twice"),
    (b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding : chunked\r\n\r\n0\r\n\r\n", "space before colon"),
    (b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding:\x0bchunked\r\n\r\n0\r\n\r\n", "VT before value"),
    (b"POST / HTTP/1.1\r\nHost: a\r\nX: 1\r\n Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n", "obs-fold"),
    (b"POST / HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n\n0\n\n", "bare LF"),
    (b"POST / HTTP/1.0\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", "TE in HTTP/1.0"),
    (b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0x0\r\n\r\n", "0x chunk size"),
    (b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n10000000000000001\r\nx\r\n0\r\n\r\n", "2^64 chunk size"),
    (b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: +3\r\n\r\nabc", "CL +3"),
    (b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", "two Host"),
    (b"GET / HTTP/1.1\r\n\r\n", "no Host"),
    (b"GET / HTTP/1.1\r\nHost: a\r\nX: a\x00b\r\n\r\n", "NUL in value"),
    (b"GET / HTTP/1.1\r\nHost: a\r\nConnection: host\r\n\r\n", "Connection: host"),
    (b"GET / HTTP/1.1\r\nHost: a\r\nUpgrade: h2c\r\nConnection: upgrade\r\n\r\n", "Upgrade"),
    (b"CONNECT internal:22 HTTP/1.1\r\nHost: internal:22\r\n\r\n", "CONNECT"),
]


async def smuggling(args, env, cfg):
    upstream = RecordingUpstream()
    await upstream.start()
    proxy = Server("proxy example", [args.proxy, f"{HOST}:0", f"{upstream.addr[0]}:{upstream.addr[1]}"], env)
    results = []
    try:
        refused = 0
        leaked = []
        for wire, name in SMUGGLING:
            before = len(upstream.heads)
            r, w = await open_conn(proxy.addr)
            w.write(wire)
            status = await first_status(r)
            await asyncio.sleep(0.05)
            w.transport.abort()
            if status is not None and status >= 400 and len(upstream.heads) == before:
                refused += 1
            else:
                leaked.append(f"{name}: {status}, {len(upstream.heads) - before} upstream")
        ok = not leaked
        results.append(("proxy example", "smuggling through the proxy", ok,
                        f"{refused}/{len(SMUGGLING)} refused with nothing upstream" + (f"; {leaked}" if leaked else ""), ""))
        before = len(upstream.heads)
        r, w = await open_conn(proxy.addr)
        w.write(b"GET http://internal.example/admin HTTP/1.1\r\nHost: public.example\r\nConnection: close\r\n\r\n")
        status = await first_status(r)
        w.transport.abort()
        seen = upstream.heads[before:]
        ok = status == 200 and len(seen) == 1 and b"\r\nHost: internal.example\r\n" in seen[0] and b"public.example" not in seen[0]
        first_lines = seen[0].split(b"\r\n")[:2] if seen else "nothing"
        results.append(("proxy example", "absolute-form target vs Host", ok,
                        f"answer {status}; upstream saw {first_lines}", ""))
    finally:
        proxy.stop()
        upstream.server.close()
    return results


ATTACKS = [
    ("slowloris", slowloris),
    ("idle", idle),
    ("slow request body", slow_body),
    ("a client that never reads", never_reads),
    ("lingering after an error", linger_after_error),
    ("draining a big unread body", drain_big_body),
    ("chunk-extension flood", chunk_ext_flood),
    ("half-close", half_close),
    ("resets", resets),
]


async def run_server(server, cfg):
    rows = []
    for name, attack in ATTACKS:
        c = dict(cfg, **cfg["per_server"].get(server.name, {}))
        async with Watch(server.pid) as watch:
            ok, seen = await attack(server, c)
        rows.append((server.name, name, ok, seen, watch.figures()))
    return rows


def config(brief):
    if brief:
        # Every deadline of every server 2 s (lingering 1 s without a byte).
        env = {"HTTPSPAN_HEAD_TIMEOUT": "2", "HTTPSPAN_BODY_TIMEOUT": "2", "HTTPSPAN_WRITE_TIMEOUT": "2",
               "HTTPSPAN_LINGER_TIME": "2", "HTTPSPAN_LINGER_TIMEOUT": "1", "HTTPSPAN_UPSTREAM_TIMEOUT": "2"}
        cfg = {"head": 2, "body": 2, "write": 2, "linger": 1, "margin": 2.0, "drip": 0.25,
               "conns": 60, "hold": 5, "never_reads_give_up": 45, "drain_time": 3, "nofile": 128, "exhaust_hold": 1.2,
               "per_server": {}}
    else:
        env = {}
        # The defaults: tokio example and proxy settings/mod.rs, serve Options.
        cfg = {"head": 30, "body": 30, "write": 30, "linger": 5, "margin": 3.0, "drip": 2.0,
               "conns": 300, "hold": 15, "never_reads_give_up": 120, "drain_time": 10, "nofile": 1024, "exhaust_hold": 10,
               "per_server": {"serve_connection (axum)": {"body": 60, "write": 60}}}
    return env, cfg


async def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tokio", required=True, help="the tokio_server example binary")
    parser.add_argument("--axum", required=True, help="the axum_server example binary")
    parser.add_argument("--proxy", required=True, help="the proxy example binary")
    parser.add_argument("--brief", action="store_true", help="deadlines of 2 s, fewer connections")
    args = parser.parse_args()
    env, cfg = config(args.brief)
    # Room for the client's own sockets.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))
    started = time.monotonic()
    servers, backend = start_servers(args, env)
    try:
        per_server = await asyncio.gather(*(run_server(s, cfg) for s in servers))
    finally:
        for s in servers + [backend]:
            s.stop()
    rows = [row for rows in per_server for row in rows]
    rows += await descriptor_exhaustion(args, env, cfg)
    rows += await smuggling(args, env, cfg)
    failed = 0
    print("| server | attack | verdict | what it saw | server figures |")
    print("|---|---|---|---|---|")
    for server, attack, ok, seen, figures in rows:
        failed += not ok
        verdict = "pass" if ok else "FAIL"
        print(f"| {server} | {attack} | {verdict} | {seen} | {figures} |")
    mode = "brief (deadlines 2 s)" if args.brief else "full (default deadlines)"
    print(f"\n{len(rows) - failed}/{len(rows)} passed, {failed} failed; "
          f"{mode}, in {time.monotonic() - started:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
