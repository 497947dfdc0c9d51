// Small helpers over byte arrays that several modules need.

/** The pieces one after another, in a new array (the piece itself when there is one). */
export function concatBytes(pieces: readonly Uint8Array[]): Uint8Array {
  if (pieces.length === 1) return pieces[0];
  const out = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * The bytes of a string whose characters are all U+0000–U+00FF, one byte per character (how
 * the wasm package decodes bytes to strings, and how the `?raw` imports of ASCII files arrive).
 * A character above U+00FF is no byte: it throws.
 */
export function latin1Bytes(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0xff) throw new Error(`latin1Bytes: character U+${c.toString(16).toUpperCase()} at ${i} is not a byte`);
    bytes[i] = c;
  }
  return bytes;
}

/** One character per byte (Latin-1), so the string is as long as the bytes. */
export function latin1Text(bytes: Uint8Array): string {
  let text = '';
  // In slices: spreading a large array into one call would exceed the engine's argument limit.
  for (let i = 0; i < bytes.length; i += 0x2000) {
    text += String.fromCharCode(...bytes.subarray(i, i + 0x2000));
  }
  return text;
}
