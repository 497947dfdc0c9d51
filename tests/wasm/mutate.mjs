// Seeded mutations of inputs, for the wasm package's robustness tests: a failure reproduces.

/** xorshift32 from `seed`: `random(n)` is an integer from 0 to n - 1. */
export function generator(seed) {
  let x = seed >>> 0 || 1;
  return (n) => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % n;
  };
}

const SPECIAL = [0x00, 0x09, 0x0a, 0x0d, 0x20, 0x3a, 0x7f, 0x80, 0xff, 0x2c, 0x3b, 0x22];

/** `bytes` with one to four random edits: bytes replaced, removed, repeated or inserted. */
export function mutate(bytes, random) {
  const out = Array.from(bytes);
  for (let edits = 1 + random(4); edits > 0; edits--) {
    const at = random(out.length + 1);
    switch (random(4)) {
      case 0: out[at] = random(2) ? SPECIAL[random(SPECIAL.length)] : random(256); break;
      case 1: out.splice(at, 1 + random(8)); break;
      case 2: out.splice(at, 0, ...out.slice(random(out.length + 1), random(out.length + 1))); break;
      default: out.splice(at, 0, SPECIAL[random(SPECIAL.length)]);
    }
  }
  return Uint8Array.from(out.filter((b) => b !== undefined));
}
