// Parse time of one input in this browser: the fast path (RequestParser / ResponseParser) run
// in batches long enough for the browser's coarse clock, median over batches.

import { RequestParser, ResponseParser, buildInfo } from '@httpspan/wasm';
import { leniencyOf } from './analysis.ts';
import type { ParseOptions } from './types.ts';

export interface Timing {
  /** Median nanoseconds per parse of the head. */
  medianNs: number;
  /** Fastest and slowest batch, per parse. */
  minNs: number;
  maxNs: number;
  batches: number;
  parsesPerBatch: number;
  /** Bytes of head per second at the median, or null when the head did not parse. */
  bytesPerSecond: number | null;
  headLen: number;
  state: 'complete' | 'partial' | 'error';
  backend: string;
  simd128: boolean;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Times parsing the head at the start of `bytes`; yields to the page between batches. */
export async function timeParse(
  bytes: Uint8Array,
  options: ParseOptions,
  { batches = 31, batchMs = 4, now = () => performance.now() } = {},
): Promise<Timing> {
  const limits = { lenient: leniencyOf(options.lenient) };
  const request = options.mode === 'request';
  const parser = request ? new RequestParser(limits) : new ResponseParser(limits);
  const out = new Uint32Array((parser as RequestParser).spans.length);
  const parse = request
    ? () => (parser as RequestParser).parse(bytes, out)
    : () => (parser as ResponseParser).parse(bytes, options.requestMethod, out);
  try {
    const first = parse();
    // Calibrate: enough parses per batch for the clock (about 0.1 ms resolution) to matter little.
    // The fastest of three tries decides, so that one stall (a busy machine, a compilation
    // tier-up) does not end calibration at a batch too small for the clock.
    let perBatch = 1;
    for (;;) {
      let fastest = Infinity;
      for (let attempt = 0; attempt < 3; attempt++) {
        const t0 = now();
        for (let i = 0; i < perBatch; i++) parse();
        fastest = Math.min(fastest, now() - t0);
      }
      if (fastest >= batchMs || perBatch >= 1 << 22) break;
      perBatch *= 2;
    }
    const samples: number[] = [];
    for (let b = 0; b < batches; b++) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      const t0 = now();
      for (let i = 0; i < perBatch; i++) parse();
      samples.push(((now() - t0) * 1e6) / perBatch);
    }
    const medianNs = median(samples);
    const headLen = first.state === 'complete' ? first.headLen : 0;
    const info = buildInfo();
    return {
      medianNs,
      minNs: Math.min(...samples),
      maxNs: Math.max(...samples),
      batches,
      parsesPerBatch: perBatch,
      bytesPerSecond: headLen > 0 && medianNs > 0 ? (headLen * 1e9) / medianNs : null,
      headLen,
      state: first.state,
      backend: info.backend,
      simd128: info.simd128,
    };
  } finally {
    parser.free();
  }
}
