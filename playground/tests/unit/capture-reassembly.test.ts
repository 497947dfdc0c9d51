import { describe, expect, it } from 'vitest';
import { readConnections } from '../../src/lib/capture/connections.ts';
import { streamBytes, type TcpStream } from '../../src/lib/capture/reassembly.ts';
import { capture, connection, type SegmentSpec } from './capture-writer.ts';
import { rng } from './random.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();

function text(file: Uint8Array, s: TcpStream): string {
  return dec.decode(streamBytes(file, s, 0, s.contiguous));
}

function randomBytes(random: () => number, n: number): Uint8Array {
  return Uint8Array.from({ length: n }, () => Math.floor(random() * 256));
}

/** The data segments of one direction cut at random places. */
function cutInto(random: () => number, data: Uint8Array, isn: number, spec: Omit<SegmentSpec, 'seq'>): SegmentSpec[] {
  const out: SegmentSpec[] = [];
  for (let i = 0; i < data.length; ) {
    const n = 1 + Math.floor(random() * 300);
    out.push({ ...spec, seq: (isn + 1 + i) >>> 0, payload: data.subarray(i, i + n) });
    i += n;
  }
  return out;
}

const CLIENT = { src: '10.1.1.1', dst: '10.2.2.2', srcPort: 50000, dstPort: 80 } as const;
const SERVER = { src: '10.2.2.2', dst: '10.1.1.1', srcPort: 80, dstPort: 50000 } as const;

describe('TCP reassembly', () => {
  it('in order: the streams are the bytes sent, roles from the SYN', () => {
    const file = capture(connection([{ request: 'a'.repeat(3000), response: 'b'.repeat(5000) }], { piece: 700 }));
    const [c] = readConnections(file).connections;
    expect(c.rolesFrom).toBe('syn');
    expect(text(file, c.toServer)).toBe('a'.repeat(3000));
    expect(text(file, c.toClient)).toBe('b'.repeat(5000));
    expect(c.toServer.syn && c.toClient.syn).toBe(true);
    expect(c.toServer.fin).not.toBeNull();
    expect(c.toServer.gaps).toEqual([]);
  });

  it('sequence numbers that wrap around 2^32', () => {
    const file = capture(connection([{ request: 'x'.repeat(4000), response: 'y'.repeat(100) }], { clientIsn: 0xffffff00, serverIsn: 0xfffffffe, piece: 64 }));
    const [c] = readConnections(file).connections;
    expect(text(file, c.toServer)).toBe('x'.repeat(4000));
    expect(text(file, c.toClient)).toBe('y'.repeat(100));
  });

  it('a gap is reported with its size, and the stream is parseable up to it', () => {
    const segs = connection([{ request: '0123456789abcdefghij', response: '' }], { piece: 5 });
    const dataIndex = segs.findIndex((s) => s.payload && dec.decode(s.payload as Uint8Array) === '56789');
    segs.splice(dataIndex, 1);
    const file = capture(segs);
    const [c] = readConnections(file).connections;
    expect(c.toServer.gaps).toEqual([{ at: 5, size: 5 }]);
    expect(c.toServer.contiguous).toBe(5);
    expect(c.toServer.length).toBe(20);
  });

  it('a missing first segment after the SYN is a gap at 0', () => {
    const segs = connection([{ request: 'abcdefghij', response: '' }], { piece: 5 });
    segs.splice(3, 1);
    const [c] = readConnections(capture(segs)).connections;
    expect(c.toServer.gaps).toEqual([{ at: 0, size: 5 }]);
  });

  it('an overlap with other bytes is a conflict, and the first copy wins', () => {
    const segs: SegmentSpec[] = [
      { ...CLIENT, seq: 100, flags: 'S' },
      { ...SERVER, seq: 900, flags: 'SA' },
      { ...CLIENT, seq: 101, payload: 'GET /safe HTTP/1.1\r\n' },
      { ...CLIENT, seq: 106, payload: 'evil' },
      { ...CLIENT, seq: 121, payload: '\r\n' },
    ];
    const file = capture(segs);
    const [c] = readConnections(file).connections;
    expect(text(file, c.toServer)).toBe('GET /safe HTTP/1.1\r\n\r\n');
    expect(c.toServer.conflicts).toEqual([{ at: 5, length: 4, packet: 3, keptPacket: 2 }]);
  });

  it('without a SYN, the roles come from the bytes and the stream starts at the lowest byte seen', () => {
    const segs: SegmentSpec[] = [
      { ...SERVER, seq: 7000, payload: 'HTTP/1.1 204 No Content\r\n\r\n' },
      { ...CLIENT, seq: 3010, payload: 'HTTP/1.1\r\n\r\n' },
      { ...CLIENT, seq: 3000, payload: 'GET /late ' },
    ];
    const file = capture(segs);
    const [c] = readConnections(file).connections;
    expect(c.rolesFrom).toBe('payload');
    expect(c.client.port).toBe(50000);
    expect(text(file, c.toServer)).toBe('GET /late HTTP/1.1\r\n\r\n');
    expect(c.toServer.syn).toBe(false);
  });

  it('a new SYN on the same ports after a FIN is a new connection', () => {
    const one = connection([{ request: 'first', response: 'one' }], { clientIsn: 10 });
    const two = connection([{ request: 'second', response: 'two' }], { clientIsn: 99999 });
    const file = capture([...one, ...two]);
    const cs = readConnections(file).connections;
    expect(cs.map((c) => text(file, c.toServer))).toEqual(['first', 'second']);
    expect(cs.map((c) => c.id)).toEqual([1, 2]);
  });

  it('RST is recorded', () => {
    const segs = connection([{ request: 'abc', response: '' }]);
    segs.push({ ...segs[0], flags: 'R', seq: 1004 });
    const [c] = readConnections(capture(segs)).connections;
    expect(c.toServer.rst).toBe(segs.length - 1);
  });

  describe('property: duplicated, reordered and overlapping segments give the clean streams', () => {
    const random = rng(2025);
    for (let round = 0; round < 60; round++) {
      it(`round ${round}`, () => {
        const isnC = Math.floor(random() * 2 ** 32);
        const isnS = round % 3 === 0 ? 0xffffffff - Math.floor(random() * 500) : Math.floor(random() * 2 ** 32);
        const up = randomBytes(random, 1 + Math.floor(random() * 3000));
        const down = randomBytes(random, Math.floor(random() * 3000));
        const data = [...cutInto(random, up, isnC, CLIENT), ...cutInto(random, down, isnS, SERVER)];
        // Overlapping resends: a random range of already-sent bytes, the same bytes.
        const extra: SegmentSpec[] = [];
        for (let k = 0; k < 5; k++) {
          const [bytes, isn, spec] = random() < 0.5 ? [up, isnC, CLIENT] : [down, isnS, SERVER];
          if (bytes.length < 2) continue;
          const a = Math.floor(random() * (bytes.length - 1));
          const b = a + 1 + Math.floor(random() * Math.min(600, bytes.length - a - 1));
          extra.push({ ...spec, seq: (isn + 1 + a) >>> 0, payload: bytes.subarray(a, b) });
        }
        const shuffled = [...data, ...extra, ...data.filter(() => random() < 0.2)];
        for (let i = shuffled.length - 1; i > 0; i--) {
          const j = Math.floor(random() * (i + 1));
          [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
        }
        const segs = [{ ...CLIENT, seq: isnC, flags: 'S' }, { ...SERVER, seq: isnS, flags: 'SA' }, ...shuffled];
        const file = capture(segs);
        const cs = readConnections(file).connections;
        expect(cs).toHaveLength(1);
        const [c] = cs;
        expect(streamBytes(file, c.toServer, 0, c.toServer.contiguous)).toEqual(up);
        expect(streamBytes(file, c.toClient, 0, c.toClient.contiguous)).toEqual(down);
        expect(c.toServer.gaps).toEqual([]);
        expect(c.toServer.conflicts).toEqual([]);
        expect(c.toClient.conflicts).toEqual([]);
        expect(c.toServer.retransmitted + c.toClient.retransmitted).toBeGreaterThanOrEqual(0);
      });
    }
  });

  it('property: an overlap with different bytes is always reported, and the first copy stays', () => {
    const random = rng(77);
    for (let round = 0; round < 200; round++) {
      const up = enc.encode('x'.repeat(200 + Math.floor(random() * 800)));
      const isn = Math.floor(random() * 2 ** 32);
      const data = cutInto(random, up, isn, CLIENT);
      const a = Math.floor(random() * (up.length - 10));
      const evil = up.slice(a, a + 1 + Math.floor(random() * 9));
      const flip = Math.floor(random() * evil.length);
      evil[flip] = 0x79;
      const at = Math.floor(random() * (data.length + 1));
      const segs = [{ ...CLIENT, seq: isn, flags: 'S' }, ...data.slice(0, at), { ...CLIENT, seq: (isn + 1 + a) >>> 0, payload: evil }, ...data.slice(at)];
      const file = capture(segs);
      const [c] = readConnections(file).connections;
      const s = c.toServer;
      const evilPacket = 1 + at;
      // The evil copy wins where it came first; every byte the other copy sent again differs there.
      const got = streamBytes(file, s, 0, s.contiguous);
      const firstWins = up.slice();
      const coveredBefore = new Set<number>();
      for (const d of data.slice(0, at)) {
        const off = ((d.seq - isn - 1) >>> 0);
        for (let i = 0; i < (d.payload as Uint8Array).length; i++) coveredBefore.add(off + i);
      }
      for (let i = 0; i < evil.length; i++) if (!coveredBefore.has(a + i)) firstWins[a + i] = evil[i];
      expect(got).toEqual(firstWins);
      const evilFirst = !coveredBefore.has(a + flip);
      expect(s.conflicts.length).toBeGreaterThan(0);
      if (!evilFirst) expect(s.conflicts.some((x) => x.packet === evilPacket)).toBe(true);
      else expect(s.conflicts.every((x) => x.keptPacket === evilPacket)).toBe(true);
    }
  }, 60_000);
});
