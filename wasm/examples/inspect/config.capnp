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
  compatibilityDate = "2026-11-01",
);
