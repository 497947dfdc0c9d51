// The contenders of the wasm benchmark and the interleaved timing loop, shared by the Node
// driver (bench.mjs) and the headless Chromium driver (chromium.mjs, which serves this file to
// a page). Nothing here is specific to one runtime: the driver passes in the package, the
// clock, the llhttp modules and a Latin-1 decoder.
//
// Every timed call parses one head from scratch and checks the result (complete, right number
// of fields). Contenders are interleaved: each round times one ~2 ms batch of each, and the
// fastest batch is reported (slower batches measure the other processes), median beside it.

/**
 * `env`: { api: the package (node.js or web.js exports), wasm: the wasm-bindgen module
 * (HeadParser, initSync), llhttp: { simd, plain } WebAssembly.Module values, llhttpType:
 * { REQUEST, RESPONSE }, latin1(u8, start, end): a string one char per byte, the runtime's
 * fastest way (below SHORT_STRING bytes, the package's shortText) }.
 */
export function contenders(env) {
  const { api, wasm, llhttp, llhttpType, latin1 } = env;
  const { RequestParser, ResponseParser, parseRequest, parseResponse, toRequest, toResponse } = api;
  // The package instantiated the module already; initSync returns its exports.
  const { memory } = wasm.initSync({ module: new Uint8Array(0) });

  // The request every bench response answers.
  const GET = { requestMethod: 'GET' };

  // Each kind of message has its own function literals below, so that their call sites see one
  // parser class and one view class, as the code of a server (requests) or a client (responses)
  // does; one literal for both would make every site polymorphic and slow the second kind timed.
  const byKind = (request, response) => (input, fields) => (input.response ? response : request)(input, fields);

  // Written once, as a socket would write it; each call parses it where it is. The view is taken
  // again (and written again) only when the memory grew since, as a server would.
  // spans[0] is the state (1: complete), spans[10] the field count.
  const fastZeroCopy = byKind(
    (input, fields) => {
      const parser = new RequestParser();
      const len = input.bytes.length;
      let region = parser.input(len);
      region.set(input.bytes);
      return () => {
        if (region.length === 0) (region = parser.input(len)).set(input.bytes);
        const view = parser.parseInput(len);
        if (view.spans[0] !== 1 || view.spans[10] !== fields) throw new Error('httpspan zero-copy: wrong result');
      };
    },
    (input, fields) => {
      const parser = new ResponseParser();
      const len = input.bytes.length;
      let region = parser.input(len);
      region.set(input.bytes);
      return () => {
        if (region.length === 0) (region = parser.input(len)).set(input.bytes);
        const view = parser.parseInput(len, GET);
        if (view.spans[0] !== 1 || view.spans[10] !== fields) throw new Error('httpspan zero-copy: wrong result');
      };
    },
  );

  const fastCopy = byKind(
    (input, fields) => {
      const parser = new RequestParser();
      return () => {
        const view = parser.parse(input.bytes);
        if (view.spans[0] !== 1 || view.spans[10] !== fields) throw new Error('httpspan fast: wrong result');
      };
    },
    (input, fields) => {
      const parser = new ResponseParser();
      return () => {
        const view = parser.parse(input.bytes, GET);
        if (view.spans[0] !== 1 || view.spans[10] !== fields) throw new Error('httpspan fast: wrong result');
      };
    },
  );

  // The object API with the start line and every field name and value read as strings.
  const fieldChars = (list, fields) => {
    let chars = 0;
    for (let i = 0; i < list.length; i++) chars += list[i].name.length + list[i].value.length;
    if (list.length !== fields || chars === 0) throw new Error('httpspan objects: wrong result');
    return chars;
  };
  const objects = byKind(
    (input, fields) => () => {
      const head = parseRequest(input.bytes);
      if (head.method.length + head.target.length + fieldChars(head.fields, fields) === 0) throw new Error('unreachable');
    },
    (input, fields) => () => {
      const head = parseResponse(input.bytes, GET);
      if (head.reason.length + fieldChars(head.fields, fields) === 0) throw new Error('unreachable');
    },
  );

  // The object API's head made into the platform's Request or Response (the conversion's cost
  // over 'objects' is the platform's constructors and Headers, and the URL).
  const fetchObjects = (input) => {
    const base = { base: 'https://bench.example' };
    return () => {
      const made = input.response ? toResponse(parseResponse(input.bytes, GET)) : toRequest(parseRequest(input.bytes), null, base);
      if (made.headers === undefined) throw new Error('httpspan to fetch: wrong result');
    };
  };

  // The module's parse export on input already in its memory: no copy, no view, one call.
  const parseOnly = (input) => {
    const parser = new wasm.HeadParser(input.response, []);
    const len = input.bytes.length;
    new Uint8Array(memory.buffer).set(input.bytes, parser.input(len));
    return () => {
      // parse returns the number of span words written: more than 3 only for a complete head.
      if (parser.parse(len) <= 3) throw new Error('httpspan parse only: wrong result');
    };
  };

  // One call of an export that does nothing but return a number: the boundary's fixed cost.
  const emptyCall = (input) => {
    const parser = new wasm.HeadParser(input.response, []);
    return () => {
      if (parser.spans() === 0) throw new Error('boundary: wrong result');
    };
  };

  // llhttp (undici's wasm) with callbacks that record each span, or (strings) that build the
  // same strings the object API row reads, one per callback, as a callback parser must.
  const llhttpWasm = (module, strings) => {
    let u8 = null;
    let spans = 0;
    let chars = 0;
    const record = strings
      ? (p, at, len) => {
        chars += latin1(u8, at, at + len).length;
        spans++;
        return 0;
      }
      : () => {
        spans++;
        return 0;
      };
    const none = () => 0;
    const instance = new WebAssembly.Instance(module, {
      env: {
        wasm_on_url: record, wasm_on_status: record, wasm_on_header_field: record, wasm_on_header_value: record,
        wasm_on_message_begin: none, wasm_on_headers_complete: none, wasm_on_body: none, wasm_on_message_complete: none,
      },
    });
    const exports = instance.exports;
    exports._initialize?.();
    return (input, fields) => {
      const parser = exports.llhttp_alloc(input.response ? llhttpType.RESPONSE : llhttpType.REQUEST);
      const len = input.bytes.length;
      const buffer = exports.malloc(len);
      const expected = 2 * fields + 1;
      return () => {
        if (u8 === null || u8.length === 0) u8 = new Uint8Array(exports.memory.buffer);
        u8.set(input.bytes, buffer);
        exports.llhttp_reset(parser);
        spans = 0;
        chars = 0;
        const errno = exports.llhttp_execute(parser, buffer, len);
        if (errno !== 0 || spans !== expected || (strings && chars === 0)) throw new Error(`llhttp: error ${errno}, ${spans} spans`);
      };
    };
  };

  return [
    ['zero-copy', fastZeroCopy],
    ['fast (copy)', fastCopy],
    ['objects', objects],
    ['objects to fetch', fetchObjects],
    ['parse only', parseOnly],
    ['empty call', emptyCall],
    ['llhttp simd', llhttpWasm(llhttp.simd, false)],
    ['llhttp simd strings', llhttpWasm(llhttp.simd, true)],
    ['llhttp', llhttpWasm(llhttp.plain, false)],
  ];
}

/**
 * Below this many bytes, a string is made straight from the bytes (the package's own way,
 * `shortText` in js/text.js), faster than any decoder call.
 */
export const SHORT_STRING = 16;

/** What every contender must find in an input: the number of field lines. */
export function fieldCount(api, input) {
  const r = input.response ? api.parseResponse(input.bytes, { requestMethod: 'GET' }) : api.parseRequest(input.bytes);
  if (r.state !== 'complete') throw new Error(`${input.name}: ${r.state}`);
  return r.fields.length;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

/**
 * Times every contender on every input, interleaved; `inputs`: [{ name, response, bytes }].
 * Awaits `pause()` between rounds (a browser page must yield). Returns rows of
 * { input, ns: { contender: fastest }, med: { contender: median } }.
 */
export async function run({ api, inputs, list, rounds, now, pause = async () => {}, batchNs = 2e6 }) {
  const timeBatch = (fn, iterations) => {
    const start = now();
    for (let i = 0; i < iterations; i++) fn();
    return (now() - start) / iterations;
  };
  const rows = [];
  for (const input of inputs) {
    const fields = fieldCount(api, input);
    const runs = list.map(([name, make]) => {
      const fn = make(input, fields);
      // Warm up, then size a batch to about batchNs.
      timeBatch(fn, 2000);
      const perOp = timeBatch(fn, 2000);
      return { name, fn, iterations: Math.max(100, Math.round(batchNs / Math.max(perOp, 1))), samples: [] };
    });
    for (let round = 0; round < rounds; round++) {
      for (const c of runs) c.samples.push(timeBatch(c.fn, c.iterations));
      await pause();
    }
    rows.push({
      input: `${input.name} (${input.bytes.length} B, ${fields} fields)`,
      ns: Object.fromEntries(runs.map((c) => [c.name, Math.min(...c.samples)])),
      med: Object.fromEntries(runs.map((c) => [c.name, median(c.samples)])),
    });
  }
  return rows;
}

// The ratios reported (above 1: httpspan faster): llhttp's time over httpspan's.
const RATIOS = [
  ['llhttp simd', 'zero-copy'],
  ['llhttp simd', 'fast (copy)'],
  ['llhttp simd strings', 'objects'],
];

/** The rows as text: times of the fastest batches, the ratios, then the medians. */
export function format(rows) {
  const names = Object.keys(rows[0].ns);
  const pad = (s, n) => String(s).padStart(n);
  const ratioHead = RATIOS.map(([a, b]) => pad(`${a}/${b}`, 32)).join('');
  const lines = [`${'input'.padEnd(34)}${names.map((n) => pad(n, 21)).join('')}${ratioHead}`];
  for (const key of ['ns', 'med']) {
    if (key === 'med') lines.push('', 'median batches');
    for (const row of rows) {
      const t = row[key];
      const cells = names.map((n) => pad(`${t[n]?.toFixed(0)} ns`, 21)).join('');
      const ratios = RATIOS.map(([a, b]) => pad(`${(t[a] / t[b]).toFixed(2)}x`, 32)).join('');
      lines.push(`${row.input.padEnd(34)}${cells}${ratios}`);
    }
  }
  return lines.join('\n');
}
