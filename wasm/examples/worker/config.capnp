# Serves worker.js on 127.0.0.1:8787 with workerd (npm package `workerd`), after make wasm-build:
#   wasm/node_modules/.bin/workerd serve wasm/examples/worker/config.capnp
# The package's files are embedded from wasm/pkg/ under the module names worker.js imports.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [(name = "main", worker = .parser)],
  sockets = [(name = "http", address = "127.0.0.1:8787", http = (), service = "main")],
);

const parser :Workerd.Worker = (
  modules = [
    (name = "worker.js", esModule = embed "worker.js"),
    (name = "httpspan/workerd.js", esModule = embed "../../pkg/workerd.js"),
    (name = "httpspan/api.js", esModule = embed "../../pkg/api.js"),
    (name = "httpspan/core.js", esModule = embed "../../pkg/core.js"),
    (name = "httpspan/fetch.js", esModule = embed "../../pkg/fetch.js"),
    (name = "httpspan/stream.js", esModule = embed "../../pkg/stream.js"),
    (name = "httpspan/httpspan_wasm.js", esModule = embed "../../pkg/httpspan_wasm.js"),
    (name = "httpspan/httpspan_wasm_bg.wasm", wasm = embed "../../pkg/httpspan_wasm_bg.wasm"),
  ],
  compatibilityDate = "2026-11-01",
);
