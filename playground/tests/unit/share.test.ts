import { describe, expect, it } from 'vitest';
import { deflateSync } from 'fflate';
import { LENIENCY_FLAGS, type ShareState } from '../../src/lib/types.ts';
import { MAX_SHARE_BYTES, decodeShare, encodeShare } from '../../src/lib/share.ts';
import { latin1Bytes } from '../../src/lib/bytes.ts';
import { PRESETS, presetById } from '../../src/lib/presets.ts';
import { rng } from './random.ts';

function state(overrides: Partial<ShareState> = {}): ShareState {
  return {
    bytes: latin1Bytes('GET / HTTP/1.1\r\nHost: a\r\n\r\n'),
    options: { mode: 'request', requestMethod: 'GET', lenient: [] },
    view: 'raw',
    step: null,
    selected: null,
    ...overrides,
  };
}

/** base64url of raw-deflated bytes, as a v1 fragment: for hand-made payloads. */
function fragmentOf(payload: number[]): string {
  const packed = deflateSync(Uint8Array.from(payload), { level: 9 });
  let bin = '';
  for (const b of packed) bin += String.fromCharCode(b);
  return 'v1.' + btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function roundTrip(s: ShareState): ShareState {
  const fragment = encodeShare(s);
  expect(fragment).toMatch(/^v1\.[A-Za-z0-9_-]*$/);
  const back = decodeShare(fragment);
  expect(back).toEqual(s);
  expect(back.bytes).toBeInstanceOf(Uint8Array);
  expect(Array.from(back.bytes)).toEqual(Array.from(s.bytes));
  return back;
}

describe('share links', () => {
  it('round-trip the default state', () => {
    roundTrip(state());
  });

  it('round-trip every option', () => {
    roundTrip(
      state({
        options: { mode: 'response', requestMethod: 'HEAD', lenient: [...LENIENCY_FLAGS] },
        view: 'escaped',
        step: { fed: 10, piece: 3 },
        selected: 26,
      }),
    );
    // The lenient list keeps its order.
    roundTrip(state({ options: { mode: 'request', requestMethod: 'GET', lenient: ['unknownVersion', 'bareLf'] } }));
    for (const flag of LENIENCY_FLAGS) {
      roundTrip(state({ options: { mode: 'request', requestMethod: 'GET', lenient: [flag] } }));
    }
    // Boundaries: nothing fed, everything fed, the first and last byte selected, an empty input.
    const n = state().bytes.length;
    roundTrip(state({ step: { fed: 0, piece: 1 }, selected: 0 }));
    roundTrip(state({ step: { fed: n, piece: 1_000_000 }, selected: n - 1 }));
    roundTrip(state({ bytes: new Uint8Array(0), step: { fed: 0, piece: 1 } }));
    // Any request method, even one that is not a token, and an empty one.
    roundTrip(state({ options: { mode: 'response', requestMethod: 'CONNECT', lenient: [] } }));
    roundTrip(state({ options: { mode: 'response', requestMethod: '', lenient: [] } }));
    roundTrip(state({ options: { mode: 'response', requestMethod: 'GÉT ☃', lenient: [] } }));
  });

  it('round-trip random bytes and states', () => {
    const random = rng(42);
    const all = new Uint8Array(256).map((_, i) => i);
    roundTrip(state({ bytes: all, selected: 255, step: { fed: 256, piece: 7 } }));
    for (let i = 0; i < 200; i++) {
      const n = Math.floor(random() * (i < 150 ? 64 : 5000));
      const bytes = new Uint8Array(n).map(() => Math.floor(random() * 256));
      const lenient = LENIENCY_FLAGS.filter(() => random() < 0.4);
      roundTrip({
        bytes,
        options: { mode: random() < 0.5 ? 'request' : 'response', requestMethod: random() < 0.5 ? 'GET' : 'HEAD', lenient },
        view: random() < 0.5 ? 'raw' : 'escaped',
        step: random() < 0.5 ? null : { fed: Math.floor(random() * (n + 1)), piece: 1 + Math.floor(random() * 300) },
        selected: n > 0 && random() < 0.5 ? Math.floor(random() * n) : null,
      });
    }
  });

  it('round-trip every preset', () => {
    for (const p of PRESETS) roundTrip(state({ bytes: p.bytes, options: p.options }));
  });

  it('keep links short: the 733-byte benchmark request compresses well', () => {
    const large = presetById('request-large')!.bytes;
    expect(large.length).toBe(733);
    const fragment = encodeShare(state({ bytes: large }));
    // Under half the size, base64's 4/3 included (DEFLATE alone, without the dictionary of
    // common field lines, gives 670 characters).
    expect(fragment.length).toBeLessThan(large.length / 2);
    const small = encodeShare(state({ bytes: presetById('request-small')!.bytes }));
    expect(small.length).toBeLessThan(35);
  });

  it('decode a link written by v1 as it was then (the format, dictionary included, is frozen)', () => {
    expect(decodeShare('v1.42cBtQCZGBk0WC2toeYg60B3GLqngEUmLxfDfy4A')).toEqual({
      bytes: latin1Bytes('POST /a HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\n\r\n\x00\xff\n'),
      options: { mode: 'response', requestMethod: 'HEAD', lenient: ['obsFold', 'bareLf'] },
      view: 'escaped',
      step: { fed: 40, piece: 5 },
      selected: 57,
    });
  });

  it('accept a leading #', () => {
    expect(decodeShare('#' + encodeShare(state()))).toEqual(state());
  });

  it('refuse malformed fragments with a clear message', () => {
    const good = encodeShare(state());
    expect(() => decodeShare('')).toThrow(/empty/);
    expect(() => decodeShare('hello')).toThrow(/not a share link.*v1\./);
    expect(() => decodeShare('v2.AAAA')).toThrow(/version 2.*version 1/);
    expect(() => decodeShare('v10.AAAA')).toThrow(/version 10/);
    expect(() => decodeShare(good + '!')).toThrow(/"!" at position \d+ is not a base64url character/);
    expect(() => decodeShare(good.replace(/.$/, '=') )).toThrow(/base64url/);
    expect(() => decodeShare(good.slice(0, 8))).toThrow(/damaged share link/);
    expect(() => decodeShare('v1.')).toThrow(/damaged share link/);
    expect(() => decodeShare('v1.A')).toThrow(/impossible length/);
    expect(() => decodeShare('v1.____')).toThrow(/compressed data is invalid/);
  });

  it('refuse payloads that decode to impossible states, saying what is wrong', () => {
    // flags, method length, method, lenient count, ..., length, bytes
    const ok = [0x00, 3, 0x47, 0x45, 0x54, 0, 2, 0x61, 0x62];
    expect(decodeShare(fragmentOf(ok)).bytes).toEqual(Uint8Array.from([0x61, 0x62]));
    // Unknown flag bits.
    expect(() => decodeShare(fragmentOf([0x10, ...ok.slice(1)]))).toThrow(/unknown flag bits/);
    // Unknown lenient flag (index 8 of 8).
    expect(() => decodeShare(fragmentOf([0x00, 3, 0x47, 0x45, 0x54, 1, 8, 2, 0x61, 0x62]))).toThrow(
      /unknown lenient flag number 8/,
    );
    // A lenient flag twice.
    expect(() => decodeShare(fragmentOf([0x00, 3, 0x47, 0x45, 0x54, 2, 0, 0, 2, 0x61, 0x62]))).toThrow(
      /lenient flag bareLf is given twice/,
    );
    // Step mode feeding more than the bytes, or pieces of 0 bytes.
    expect(() => decodeShare(fragmentOf([0x04, 3, 0x47, 0x45, 0x54, 0, 3, 1, 2, 0x61, 0x62]))).toThrow(
      /fed 3 bytes of 2/,
    );
    expect(() => decodeShare(fragmentOf([0x04, 3, 0x47, 0x45, 0x54, 0, 1, 0, 2, 0x61, 0x62]))).toThrow(
      /pieces of 0 bytes/,
    );
    // A selected byte outside the input.
    expect(() => decodeShare(fragmentOf([0x08, 3, 0x47, 0x45, 0x54, 0, 2, 2, 0x61, 0x62]))).toThrow(
      /byte 2 is selected, but the input has 2 bytes/,
    );
    // Cut short, or with bytes left over.
    expect(() => decodeShare(fragmentOf([0x00, 3, 0x47, 0x45, 0x54, 0, 5, 0x61]))).toThrow(/ends inside the input bytes/);
    expect(() => decodeShare(fragmentOf([...ok, 0]))).toThrow(/1 unexpected bytes at the end/);
    expect(() => decodeShare(fragmentOf([0x00, 3, 0x47]))).toThrow(/ends inside the request method/);
    // A number longer than 32 bits.
    expect(() => decodeShare(fragmentOf([0x00, 3, 0x47, 0x45, 0x54, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]))).toThrow(
      /input length is not a valid number|too large/,
    );
    // A request method that is not UTF-8.
    expect(() => decodeShare(fragmentOf([0x00, 1, 0xff, 0, 0]))).toThrow(/not UTF-8/);
  });

  it('refuse a link that expands past the size limit, without expanding it all', () => {
    const payload = new Uint8Array(MAX_SHARE_BYTES * 4);
    const packed = deflateSync(payload, { level: 9 });
    let bin = '';
    for (const b of packed) bin += String.fromCharCode(b);
    const bomb = 'v1.' + btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    expect(bomb.length).toBeLessThan(10_000);
    expect(() => decodeShare(bomb)).toThrow(/expands to more than/);
  });

  it('refuse to encode states that could not be opened', () => {
    expect(() => encodeShare(state({ selected: 99 }))).toThrow(/byte 99 is selected/);
    expect(() => encodeShare(state({ step: { fed: 1, piece: 0 } }))).toThrow(/pieces of 0/);
    expect(() => encodeShare(state({ step: { fed: 1.5, piece: 1 } }))).toThrow(/fed 1.5/);
    expect(() =>
      encodeShare(state({ options: { mode: 'request', requestMethod: 'GET', lenient: ['nope' as never] } })),
    ).toThrow(/unknown lenient flag "nope"/);
    expect(() => encodeShare(state({ options: { mode: 'other' as never, requestMethod: 'GET', lenient: [] } }))).toThrow(
      /unknown mode/,
    );
    expect(() => encodeShare(state({ bytes: new Uint8Array(MAX_SHARE_BYTES + 1) }))).toThrow(/more than/);
  });
});
