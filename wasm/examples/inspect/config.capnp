# Serves worker.js on 127.0.0.1:8787 with workerd (npm package `workerd`), after make wasm-build:
#   wasm/node_modules/.bin/workerd serve wasm/examples/inspect/config.capnp
# worker.js imports the package by name: workerd resolves only the modules its config names, so
# the package's entry for Workers is named "@httpspan/wasm" and its other files sit beside it.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [(name = "main", worker = .inspect)],
  sockets = [(name = "http", address = "127.0.0.1:8787", http = (), service = "main")],
);

const inspect :Workerd.Worker = (
  modules = [
    (name = "worker.js", esModule = embed "worker.js"),
    (name = "@httpspan/wasm", esModule = embed "../../pkg/workerd.js"),
    (name = "@httpspan/api.js", esModule = embed "../../pkg/api.js"),
    (name = "@httpspan/core.js", esModule = embed "../../pkg/core.js"),
    (name = "@httpspan/fetch.js", esModule = embed "../../pkg/fetch.js"),
    (name = "@httpspan/stream.js", esModule = embed "../../pkg/stream.js"),
    (name = "@httpspan/httpspan_wasm.js", esModule = embed "../../pkg/httpspan_wasm.js"),
    (name = "@httpspan/httpspan_wasm_bg.wasm", wasm = embed "../../pkg/httpspan_wasm_bg.wasm"),
  ],
  compatibilityDate = "2026-11-01",
);
