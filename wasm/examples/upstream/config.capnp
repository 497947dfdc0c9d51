# Serves worker.js on 127.0.0.1:8788 with workerd (npm package `workerd`), after make wasm-build,
# forwarding to the HTTP/1.1 upstream at $UPSTREAM (host:port):
#   UPSTREAM=127.0.0.1:8080 wasm/node_modules/.bin/workerd serve wasm/examples/upstream/config.capnp
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "main", worker = .upstream),
    # The sockets of connect() go out through this service; loopback only, for the example.
    (name = "loopback", network = (allow = ["local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:8788", http = (), service = "main")],
);

const upstream :Workerd.Worker = (
  modules = [
    (name = "worker.js", esModule = embed "worker.js"),
    (name = "@httpspan/wasm", esModule = embed "../../pkg/workerd.js"),
    (name = "@httpspan/api.js", esModule = embed "../../pkg/api.js"),
    (name = "@httpspan/layout.js", esModule = embed "../../pkg/layout.js"),
    (name = "@httpspan/module.js", esModule = embed "../../pkg/module.js"),
    (name = "@httpspan/errors.js", esModule = embed "../../pkg/errors.js"),
    (name = "@httpspan/text.js", esModule = embed "../../pkg/text.js"),
    (name = "@httpspan/limits.js", esModule = embed "../../pkg/limits.js"),
    (name = "@httpspan/words.js", esModule = embed "../../pkg/words.js"),
    (name = "@httpspan/views.js", esModule = embed "../../pkg/views.js"),
    (name = "@httpspan/heads.js", esModule = embed "../../pkg/heads.js"),
    (name = "@httpspan/parsers.js", esModule = embed "../../pkg/parsers.js"),
    (name = "@httpspan/shared.js", esModule = embed "../../pkg/shared.js"),
    (name = "@httpspan/decoder.js", esModule = embed "../../pkg/decoder.js"),
    (name = "@httpspan/fetch.js", esModule = embed "../../pkg/fetch.js"),
    (name = "@httpspan/stream.js", esModule = embed "../../pkg/stream.js"),
    (name = "@httpspan/httpspan_wasm.js", esModule = embed "../../pkg/httpspan_wasm.js"),
    (name = "@httpspan/httpspan_wasm_bg.wasm", wasm = embed "../../pkg/httpspan_wasm_bg.wasm"),
  ],
  bindings = [(name = "UPSTREAM", fromEnvironment = "UPSTREAM")],
  globalOutbound = "loopback",
  compatibilityDate = "2026-11-01",
);
