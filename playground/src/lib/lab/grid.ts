// The lab's grid: one input through every ordered pair of configurations (front × back), with
// the pairs that desync. The input is requests a client sends, or responses an origin sends back
// through the pair (the configurations without a response reader are left out then).

import { count } from '../compare.ts';
import { pairVerdict, runChain, runResponses, type Direction, type Forwarding, type PairVerdict } from './chain.ts';
import type { LabConfig } from './configs.ts';

/** One pair's outcome. */
export interface GridCell {
  front: LabConfig;
  back: LabConfig;
  verdict: PairVerdict;
}

export interface Grid {
  direction: Direction;
  configs: readonly LabConfig[];
  /** Row-major: front i, back j at i * configs.length + j. */
  cells: GridCell[];
}

/**
 * Every ordered pair's verdict for `bytes`: requests, or responses answering `method` requests
 * (the grid has no requests to match them with, so every response answers the same method).
 */
export function desyncGrid(bytes: Uint8Array, all: readonly LabConfig[], forwarding: Forwarding, direction: Direction = 'request', method = 'GET'): Grid {
  const configs = direction === 'response' ? all.filter((c) => c.parseResponses) : all;
  // Each configuration reads the input once, however many others it is paired with: the front end
  // reads requests first, the back end responses.
  const firstReaders = configs.map((c): LabConfig => {
    if (direction === 'request') {
      const read = c.parse(bytes);
      return { ...c, parse: (b) => (b === bytes ? read : c.parse(b)) };
    }
    const parseResponses = c.parseResponses!;
    const read = parseResponses(bytes, method);
    return { ...c, parseResponses: (b, m) => (b === bytes && m === method ? read : parseResponses(b, m)) };
  });
  const cells: GridCell[] = [];
  configs.forEach((front, i) => {
    configs.forEach((back, j) => {
      const run = direction === 'request' ? runChain(bytes, firstReaders[i], back, forwarding) : runResponses(bytes, front, firstReaders[j], forwarding, null, method);
      cells.push({ front, back, verdict: pairVerdict(run.verdict, run.roles) });
    });
  });
  return { direction, configs, cells };
}

/** How many pairs desync, in a sentence whose verb agrees with the count ('1 of 4 pairs desyncs.'). */
export function desyncCountText(grid: Grid): string {
  const desyncs = grid.cells.filter((c) => c.verdict === 'desync').length;
  if (desyncs === 0) return 'No pair desyncs on this input.';
  return `${desyncs} of ${count(grid.cells.length, 'pair')} ${desyncs === 1 ? 'desyncs' : 'desync'}.`;
}
