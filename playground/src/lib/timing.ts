// Parse time of one input in this browser: the fast path (RequestParser / ResponseParser) run
// in batches long enough for the browser's coarse clock, median over batches. A second parser
// (llhttp) can be timed alongside: its batches alternate with httpspan's, so that a busy moment
// of the machine falls on both.

import { RequestParser, ResponseParser, buildInfo } from '@httpspan/wasm';
import { leniencyOf } from './analysis.ts';
import type { ParseOptions } from './types.ts';

/** The figures of one parser. */
export interface ParserTiming {
  /** Median nanoseconds per parse. */
  medianNs: number;
  /** Fastest and slowest batch, per parse. */
  minNs: number;
  maxNs: number;
  parsesPerBatch: number;
}

export interface Timing extends ParserTiming {
  batches: number;
  /** Bytes of head per second at the median, or null when the head did not parse. */
  bytesPerSecond: number | null;
  headLen: number;
  state: 'complete' | 'partial' | 'error';
  backend: string;
  simd128: boolean;
  /** The other parser's figures, when one was given. */
  peer: ParserTiming | null;
}

export interface TimingOptions {
  batches?: number;
  /** The least time a batch takes, in ms (the clock's resolution is about 0.1 ms). */
  batchMs?: number;
  now?: () => number;
  /** Another parser's parse of the same input, timed alongside. */
  peer?: () => unknown;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * Parses per batch for `parse`: doubled until a batch takes `batchMs`. The fastest of three
 * tries decides, so that one stall (a busy machine, a compilation tier-up) does not end
 * calibration at a batch too small for the clock.
 */
function calibrate(parse: () => unknown, batchMs: number, now: () => number): number {
  let perBatch = 1;
  for (;;) {
    let fastest = Infinity;
    for (let attempt = 0; attempt < 3; attempt++) {
      const t0 = now();
      for (let i = 0; i < perBatch; i++) parse();
      fastest = Math.min(fastest, now() - t0);
    }
    if (fastest >= batchMs || perBatch >= 1 << 22) return perBatch;
    perBatch *= 2;
  }
}

function batch(parse: () => unknown, perBatch: number, now: () => number): number {
  const t0 = now();
  for (let i = 0; i < perBatch; i++) parse();
  return ((now() - t0) * 1e6) / perBatch;
}

function summary(samples: number[], perBatch: number): ParserTiming {
  return { medianNs: median(samples), minNs: Math.min(...samples), maxNs: Math.max(...samples), parsesPerBatch: perBatch };
}

/** Times parsing the head at the start of `bytes`; yields to the page between batches. */
export async function timeParse(bytes: Uint8Array, options: ParseOptions, timing: TimingOptions = {}): Promise<Timing> {
  const { batches = 31, batchMs = 4, now = () => performance.now(), peer } = timing;
  const limits = { lenient: leniencyOf(options.lenient) };
  const request = options.mode === 'request';
  const parser = request ? new RequestParser(limits) : new ResponseParser(limits);
  const out = new Uint32Array((parser as RequestParser).spans.length);
  const parse = request
    ? () => (parser as RequestParser).parse(bytes, out)
    : () => (parser as ResponseParser).parse(bytes, { requestMethod: options.requestMethod }, out);
  try {
    const first = parse();
    const headLen = first.state === 'complete' ? first.headLen : 0;
    const perBatch = calibrate(parse, batchMs, now);
    const peerPerBatch = peer === undefined ? 0 : calibrate(peer, batchMs, now);
    const samples: number[] = [];
    const peerSamples: number[] = [];
    for (let b = 0; b < batches; b++) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      // Alternate which parser goes first, so that neither always runs just after the pause.
      if (peer !== undefined && b % 2 === 1) peerSamples.push(batch(peer, peerPerBatch, now));
      samples.push(batch(parse, perBatch, now));
      if (peer !== undefined && b % 2 === 0) peerSamples.push(batch(peer, peerPerBatch, now));
    }
    const own = summary(samples, perBatch);
    const info = buildInfo();
    return {
      ...own,
      batches,
      bytesPerSecond: headLen > 0 && own.medianNs > 0 ? (headLen * 1e9) / own.medianNs : null,
      headLen,
      state: first.state,
      backend: info.backend,
      simd128: info.simd128,
      peer: peer === undefined ? null : summary(peerSamples, peerPerBatch),
    };
  } finally {
    parser.free();
  }
}
