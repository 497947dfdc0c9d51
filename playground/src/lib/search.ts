// A binary search over sorted positions, shared by the mirror's highlighting and the error
// explanations.

/** The least `i` in `lo`..`hi` for which `holds(i)` (`hi` when none); `holds` must not go back to false. */
export function firstWhere(lo: number, hi: number, holds: (i: number) => boolean): number {
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (holds(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
