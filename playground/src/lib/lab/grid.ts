// The lab's grid: one input through every ordered pair of configurations (front × back), with
// the pairs that desync.

import { count } from '../compare.ts';
import { runChain, type Forwarding, type Verdict } from './chain.ts';
import type { LabConfig } from './configs.ts';

/** One pair's outcome. */
export interface GridCell {
  front: LabConfig;
  back: LabConfig;
  verdict: Verdict;
}

export interface Grid {
  configs: readonly LabConfig[];
  /** Row-major: front i, back j at i * configs.length + j. */
  cells: GridCell[];
}

/** Every ordered pair's verdict for `bytes`. */
export function desyncGrid(bytes: Uint8Array, configs: readonly LabConfig[], forwarding: Forwarding): Grid {
  // Each configuration reads the client's bytes once, however many back ends it is paired with.
  const fronts = configs.map((c): LabConfig => {
    const read = c.parse(bytes);
    return { ...c, parse: (b) => (b === bytes ? read : c.parse(b)) };
  });
  const cells: GridCell[] = [];
  fronts.forEach((front, i) => {
    for (const back of configs) cells.push({ front: configs[i], back, verdict: runChain(bytes, front, back, forwarding).verdict });
  });
  return { configs, cells };
}

/** How many pairs desync, in a sentence whose verb agrees with the count ('1 of 4 pairs desyncs.'). */
export function desyncCountText(grid: Grid): string {
  const desyncs = grid.cells.filter((c) => c.verdict === 'desync').length;
  if (desyncs === 0) return 'No pair desyncs on this input.';
  return `${desyncs} of ${count(grid.cells.length, 'pair')} ${desyncs === 1 ? 'desyncs' : 'desync'}.`;
}
