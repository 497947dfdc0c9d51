#!/usr/bin/env python3
"""make bench-server: httpspan's tokio example server against a hyper 1.x server, and
httpspan's example reverse proxy against one written with hyper's client and server.

Starts both servers (release builds, given by path) on 127.0.0.1, drives each with wrk in
interleaved runs (keep-alive plaintext, pipelined depth 16, a connection per request, POST with
a 1 KiB body), then sends both the same malformed and smuggling requests over a raw socket.
With --proxy-httpspan and --proxy-hyper, both proxies are then started in front of one hyper
server as their upstream and driven the same way (without the connection-per-request run).
Prints markdown tables, with the machine, the load and the command. Every process is stopped
by its process id at the end, and every step has a time bound.

Timings are not tests: nothing here asserts a speed.
"""

import argparse
import os
import platform
import re
import select
import shlex
import socket
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# (name, wrk script or None, path)
SCENARIOS = [
    ("keep-alive plaintext", None, "/"),
    ("pipelined, depth 16", "pipeline.lua", "/"),
    ("connection per request", "close.lua", "/"),
    ("POST 1 KiB, echoed", "post.lua", "/echo"),
]

# (request, raw bytes). Each is sent alone on a new connection.
COMPLIANCE = [
    ("Content-Length with Transfer-Encoding (CL.TE)",
     b"POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
    ("Transfer-Encoding with Content-Length (TE.CL)",
     b"POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n"),
    ("two Content-Length, different",
     b"POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd"),
    ("two Content-Length, equal",
     b"POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc"),
    ("Content-Length: +3",
     b"POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: +3\r\n\r\nabc"),
    ("obs-fold (a header line starting with SP)",
     b"GET / HTTP/1.1\r\nHost: a\r\nX-A: 1\r\n b\r\n\r\n"),
    ("bare LF line ends",
     b"GET / HTTP/1.1\nHost: a\n\n"),
    ("bare LF in one header line",
     b"GET / HTTP/1.1\r\nHost: a\nX-A: 1\r\n\r\n"),
    ("control byte (0x01) in a field name",
     b"GET / HTTP/1.1\r\nHost: a\r\nX\x01A: 1\r\n\r\n"),
    ("space before the colon",
     b"GET / HTTP/1.1\r\nHost: a\r\nX-A : 1\r\n\r\n"),
    ("NUL in a field value",
     b"GET / HTTP/1.1\r\nHost: a\r\nX-A: 1\x002\r\n\r\n"),
    ("DEL (0x7f) in a field value",
     b"GET / HTTP/1.1\r\nHost: a\r\nX-A: 1\x7f2\r\n\r\n"),
    ("chunk size of 17 hex digits",
     b"POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
     b"00000000000000001\r\na\r\n0\r\n\r\n"),
    ("chunk size with a 0x prefix",
     b"POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0x1\r\na\r\n0\r\n\r\n"),
    ("Transfer-Encoding: chunked, chunked",
     b"POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, chunked\r\n\r\n1\r\na\r\n0\r\n\r\n"),
    ("Transfer-Encoding in HTTP/1.0",
     b"POST /echo HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n0\r\n\r\n"),
    ("missing Host (HTTP/1.1)",
     b"GET / HTTP/1.1\r\n\r\n"),
    ("two Host fields",
     b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"),
    ("two spaces in the request-line",
     b"GET  / HTTP/1.1\r\nHost: a\r\n\r\n"),
    ("fragment in the target",
     b"GET /#frag HTTP/1.1\r\nHost: a\r\n\r\n"),
    ("HTTP/2.0 request-line",
     b"GET / HTTP/2.0\r\nHost: a\r\n\r\n"),
]


def run(cmd, timeout):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False).stdout


class Server:
    """A server process started with ADDR (and `extra` arguments); it prints its address
    first."""

    def __init__(self, name, binary, extra=()):
        self.name = name
        env = dict(os.environ)
        self.proc = subprocess.Popen([binary, "127.0.0.1:0", *extra], stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=env)
        ready, _, _ = select.select([self.proc.stdout], [], [], 20)
        line = self.proc.stdout.readline().decode() if ready else ""
        match = re.search(r"http://([\d.]+):(\d+)", line)
        if not match:
            self.stop()
            sys.exit(f"{name} did not start (printed {line!r})")
        self.host, self.port = match.group(1), int(match.group(2))
        self.url = f"http://{self.host}:{self.port}"

    def stop(self):
        """Stops this server by its pid: SIGTERM, then SIGKILL after 5 s."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)


def wrk_command(args, script, url):
    cmd = ["wrk", f"-t{args.threads}", f"-c{args.connections}", f"-d{args.duration}s",
           "--latency", "--timeout", "5s"]
    if script:
        cmd += ["-s", os.path.join(HERE, "wrk", script)]
    return cmd + [url]


def to_ms(value):
    number, unit = float(value[:-2] if value.endswith(("us", "ms")) else value[:-1]), value
    if unit.endswith("us"):
        return number / 1000
    if unit.endswith("ms"):
        return number
    if unit.endswith("s"):
        return number * 1000
    return number


def parse_wrk(out):
    """Requests/s, p50 and p99 latency (ms), errors and the number of requests from wrk's
    --latency output."""
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    p50 = to_ms(re.search(r"\s50%\s+([\d.]+\w+)", out).group(1))
    p99 = to_ms(re.search(r"\s99%\s+([\d.]+\w+)", out).group(1))
    errors = 0
    socket_errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    if socket_errors:
        errors += sum(int(n) for n in socket_errors.groups())
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if non_2xx:
        errors += int(non_2xx.group(1))
    return rps, p50, p99, errors, requests


def cpu_seconds(pid):
    """User plus system CPU time a process has used so far (/proc/PID/stat, in clock ticks)."""
    with open(f"/proc/{pid}/stat") as stat:
        # The fields after the command name, which is in parentheses and may hold spaces.
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load():
    return open("/proc/loadavg").read().split()[:3]


def machine():
    model = "unknown CPU"
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            model = line.split(":", 1)[1].strip()
            break
    return f"{model}, {os.cpu_count()} CPUs, Linux {platform.release()}"


def compliance_probe(server, request, timeout=2.0):
    """Sends `request` alone and reports the status of the first answer and whether the
    server closed (or reset) the connection within `timeout`."""
    with socket.create_connection((server.host, server.port), timeout=timeout) as sock:
        sock.sendall(request)
        data = b""
        closed = None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                piece = sock.recv(65536)
            except socket.timeout:
                break
            except ConnectionResetError:
                closed = "reset"
                break
            if not piece:
                closed = "closed"
                break
            data += piece
    statuses = re.findall(rb"HTTP/1\.[01] (\d{3})", data)
    status = statuses[0].decode() if statuses else "no answer"
    if status.startswith("2"):
        verdict = f"**accepted** ({status})"
    else:
        verdict = status
    return f"{verdict}, {closed or 'kept open'}"


def throughput(args, servers, scenarios):
    """Interleaved wrk runs of `scenarios` against `servers`; prints their table, the second
    server being the base of the ratios."""
    load_before = load()
    results = {}  # (scenario, server) -> list of (rps, p50, p99, cpu_us, errors)
    for round_index in range(args.rounds):
        for index, (name, script, path) in enumerate(scenarios):
            # Alternate which server goes first, so neither always runs on a warmer machine.
            order = servers if (round_index + index) % 2 == 0 else servers[::-1]
            for server in order:
                cmd = wrk_command(args, script, server.url + path)
                cpu_before = cpu_seconds(server.proc.pid)
                out = run(cmd, timeout=args.duration + 60)
                cpu = cpu_seconds(server.proc.pid) - cpu_before
                try:
                    rps, p50, p99, errors, requests = parse_wrk(out)
                except AttributeError:
                    sys.exit(f"could not read wrk's output for {shlex.join(cmd)}:\n{out}")
                cpu_us = cpu * 1e6 / requests if requests else float("nan")
                figures = (rps, p50, p99, cpu_us, errors)
                results.setdefault((name, server.name), []).append(figures)
                print(f"  {name}, {server.name}: {figures[0]:,.0f} req/s", file=sys.stderr)
    load_after = load()

    print("| run | server | requests/s | p50 latency | p99 latency | server CPU per request "
          "| errors | ratio | CPU ratio |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, _, _ in scenarios:
        averaged = {}
        for server in servers:
            runs = results[(name, server.name)]
            averaged[server.name] = [sum(r[i] for r in runs) / len(runs) for i in range(4)] + \
                [sum(r[4] for r in runs)]
        base = averaged[servers[1].name][0]
        base_cpu = averaged[servers[1].name][3]
        for server in servers:
            rps, p50, p99, cpu_us, errors = averaged[server.name]
            ratio = f"{rps / base:.2f}x" if base else "-"
            cpu_ratio = f"{base_cpu / cpu_us:.2f}x" if cpu_us else "-"
            print(f"| {name} | {server.name} | {rps:,.0f} | {p50:.2f} ms | {p99:.2f} ms "
                  f"| {cpu_us:.2f} µs | {errors} | {ratio} | {cpu_ratio} |")
    print()
    print(f"Machine: {machine()}. Load average (1, 5, 15 min) {' '.join(load_before)} before, "
          f"{' '.join(load_after)} after.")
    print(f"Command: `{args.command}`: {args.rounds} interleaved rounds of "
          f"`{shlex.join(wrk_command(args, None, 'URL'))}` (with `-s server-bench/wrk/*.lua` "
          f"for the pipelined, connection-per-request and POST runs); requests/s and latencies "
          f"are the rounds' means, errors their sum (socket errors and non-2xx answers); "
          f"server CPU per request is the server process's user + system CPU time during the "
          f"run over the requests wrk completed; ratio = requests/s over {servers[1].name}'s; "
          f"CPU ratio = {servers[1].name}'s CPU per request over this one's (above 1: this one "
          f"needs less CPU for a request). Client and servers share the machine's CPUs; "
          f"each server runs one current-thread tokio runtime per CPU.")
    print()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--httpspan", required=True, help="the tokio_server example binary")
    parser.add_argument("--hyper", required=True, help="the hyper_server binary")
    parser.add_argument("--proxy-httpspan", help="the proxy example binary")
    parser.add_argument("--proxy-hyper", help="the hyper_proxy binary")
    parser.add_argument("--duration", type=int, default=10, help="seconds per wrk run")
    parser.add_argument("--threads", type=int, default=2, help="wrk threads")
    parser.add_argument("--connections", type=int, default=64, help="wrk connections")
    parser.add_argument("--rounds", type=int, default=2,
                        help="interleaved rounds; each run's figures are averaged over them")
    parser.add_argument("--command", default="make bench-server", help="shown under the table")
    args = parser.parse_args()

    servers = []
    try:
        servers = [Server("httpspan (tokio codec)", args.httpspan), Server("hyper 1.x", args.hyper)]
        throughput(args, servers, SCENARIOS)

        print(f"| request | {servers[0].name} | {servers[1].name} |")
        print("|---|---|---|")
        for name, request in COMPLIANCE:
            cells = [compliance_probe(server, request) for server in servers]
            print(f"| {name} | {cells[0]} | {cells[1]} |")
        print()
        print("Each request is sent alone on a new connection; a cell is the status of the first "
              "answer and whether the server closed the connection within 2 s (reset: with a TCP "
              "reset, which can destroy an answer the client has not read yet). **accepted**: "
              "the server processed the request.")
        print()

        if args.proxy_httpspan and args.proxy_hyper:
            for server in servers:
                server.stop()
            upstream = Server("upstream (hyper 1.x)", args.hyper)
            servers = [upstream]
            address = f"{upstream.host}:{upstream.port}"
            servers = [Server("httpspan proxy (ServerCodec + ClientCodec)", args.proxy_httpspan,
                              [address]),
                       Server("hyper 1.x proxy (server + client)", args.proxy_hyper, [address]),
                       upstream]
            print("Reverse proxies, each in front of the same upstream, a hyper 1.x server:")
            print()
            throughput(args, servers[:2], [s for s in SCENARIOS if s[1] != "close.lua"])
    finally:
        for server in servers:
            server.stop()


if __name__ == "__main__":
    main()
