import { describe, expect, it } from 'vitest';
import { CaptureError, readCapture } from '../../src/lib/capture/reader.ts';
import { decodePacket, ipv6Text } from '../../src/lib/capture/packet.ts';
import { readConnections } from '../../src/lib/capture/connections.ts';
import { streamBytes } from '../../src/lib/capture/reassembly.ts';
import { frameCapture, messageBytes } from '../../src/lib/capture/report.ts';
import { LINKTYPE, capture, cat, connection, frame, ipPacket, pcap, pcapng, type LinkLayer } from './capture-writer.ts';
import { rng } from './random.ts';

const dec = new TextDecoder();
const REQUEST = 'GET /a HTTP/1.1\r\nHost: example.test\r\n\r\n';
const RESPONSE = 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello';

function streams(file: Uint8Array): { toServer: string; toClient: string }[] {
  return readConnections(file).connections.map((c) => ({
    toServer: dec.decode(streamBytes(file, c.toServer, 0, c.toServer.length)),
    toClient: dec.decode(streamBytes(file, c.toClient, 0, c.toClient.length)),
  }));
}

function errorOf(f: () => unknown): CaptureError {
  try {
    f();
  } catch (e) {
    if (e instanceof CaptureError) return e;
    throw e;
  }
  throw new Error('no error');
}

describe('pcap and pcapng files', () => {
  const segs = connection([{ request: REQUEST, response: RESPONSE }]);

  it.each([
    ['little-endian microseconds', { littleEndian: true, nanoseconds: false }],
    ['big-endian microseconds', { littleEndian: false, nanoseconds: false }],
    ['little-endian nanoseconds', { littleEndian: true, nanoseconds: true }],
    ['big-endian nanoseconds', { littleEndian: false, nanoseconds: true }],
  ])('pcap, %s', (_name, options) => {
    const frames = segs.map((s, i) => ({ data: frame('ethernet', ipPacket(s)), time: 1_700_000_000.25 + i }));
    const file = pcap(frames, options);
    const read = readCapture(file);
    expect(read.format).toBe('pcap');
    expect(read.packets).toHaveLength(segs.length);
    expect(read.packets[0].time).toBeCloseTo(1_700_000_000.25, 5);
    expect(read.problems).toEqual([]);
    expect(streams(file)).toEqual([{ toServer: REQUEST, toClient: RESPONSE }]);
  });

  it.each<LinkLayer>(['ethernet', 'vlan', 'qinq', 'sll', 'sll2', 'raw', 'null', 'loop'])('link layer %s, IPv4 and IPv6', (link) => {
    for (const [client, server] of [['10.0.0.1', '10.0.0.2'], ['2001:db8::1', '2001:db8::2']]) {
      const file = capture(connection([{ request: REQUEST, response: RESPONSE }], { client, server }), link);
      const { connections, skipped } = readConnections(file);
      expect(skipped).toEqual([]);
      expect(connections).toHaveLength(1);
      expect(connections[0].client).toEqual({ address: client, port: 40000 });
      expect(connections[0].server).toEqual({ address: server, port: 8080 });
      expect(streams(file)).toEqual([{ toServer: REQUEST, toClient: RESPONSE }]);
    }
  });

  it('pcapng with several interfaces of different link types, both byte orders, tsresol and a simple packet block', () => {
    for (const littleEndian of [true, false]) {
      const a = connection([{ request: REQUEST, response: RESPONSE }], { clientPort: 40001 });
      const b = connection([{ request: 'GET /b HTTP/1.1\r\n\r\n', response: 'HTTP/1.1 204 No Content\r\n\r\n' }], { client: '::1', server: '::1', clientPort: 40002 });
      const packets = [
        ...a.map((s, i) => ({ iface: 0, data: frame('ethernet', ipPacket(s)), time: 1_700_000_000 + i })),
        ...b.map((s, i) => ({ iface: 1, data: frame('sll2', ipPacket(s)), time: 1_700_000_100 + i })),
      ];
      const file = pcapng([{ linkType: LINKTYPE.ethernet }, { linkType: LINKTYPE.sll2, tsresol: 9 }], packets, { littleEndian });
      const read = readCapture(file);
      expect(read.format).toBe('pcapng');
      expect(read.linkTypes).toEqual([1, 276]);
      expect(read.packets[a.length].time).toBeCloseTo(1_700_000_100, 3);
      expect(streams(file)).toEqual([
        { toServer: REQUEST, toClient: RESPONSE },
        { toServer: 'GET /b HTTP/1.1\r\n\r\n', toClient: 'HTTP/1.1 204 No Content\r\n\r\n' },
      ]);
    }
    // Blocks the reader does not use (interface statistics, name resolution, custom) are skipped.
    const plain = pcapng([{ linkType: LINKTYPE.raw }], segs.map((s) => ({ iface: 0, data: ipPacket(s) })));
    const idbEnd = 28 + 20;
    const other = (type: number) => Uint8Array.from([type, 0, 0, 0, 16, 0, 0, 0, 1, 2, 3, 4, 16, 0, 0, 0]);
    const withOthers = cat([plain.subarray(0, idbEnd), other(5), other(4), plain.subarray(idbEnd), other(0xad)]);
    expect(readCapture(withOthers).problems).toEqual([]);
    expect(streams(withOthers)).toEqual([{ toServer: REQUEST, toClient: RESPONSE }]);
    const simple = pcapng([{ linkType: LINKTYPE.raw }], segs.map((s) => ({ iface: 0, data: ipPacket(s), simple: true })));
    expect(streams(simple)).toEqual([{ toServer: REQUEST, toClient: RESPONSE }]);
  });

  it('a 0-byte file, wrong magic, a cut header, another version: errors that say what and where', () => {
    expect(errorOf(() => readCapture(new Uint8Array())).message).toBe('the file is empty (0 bytes) (at byte 0)');
    const wrong = errorOf(() => readCapture(new TextEncoder().encode('GET / HTTP/1.1\r\n\r\n')));
    expect(wrong.offset).toBe(0);
    expect(wrong.message).toContain('not a pcap or pcapng file: it starts with 47 45 54 20');
    const file = capture(segs);
    expect(errorOf(() => readCapture(file.subarray(0, 10))).message).toContain('pcap header is cut off: the file has 10 of its 24 bytes');
    const v3 = file.slice();
    v3[4] = 3;
    expect(errorOf(() => readCapture(v3)).offset).toBe(4);
    const ng = pcapng([{ linkType: 1 }], []);
    const badOrder = ng.slice();
    badOrder.set([1, 2, 3, 4], 8);
    expect(errorOf(() => readCapture(badOrder)).message).toContain("byte-order magic is 01 02 03 04");
  });

  it('a cut-off last record keeps the packets before it and says where it stopped', () => {
    const file = capture(segs);
    const read = readCapture(file.subarray(0, file.length - 10));
    expect(read.packets).toHaveLength(segs.length - 1);
    expect(read.problems).toHaveLength(1);
    expect(read.problems[0].message).toMatch(/record \d+ is cut off/);
  });

  it('an absurd record length stops reading there', () => {
    const file = capture(segs);
    const v = new DataView(file.buffer);
    const second = 24 + 16 + v.getUint32(24 + 8, true);
    v.setUint32(second + 8, 0xfffffff0, true);
    const read = readCapture(file);
    expect(read.packets).toHaveLength(1);
    expect(read.problems[0]).toEqual({ message: expect.stringContaining('claims 4294967280 captured bytes'), offset: second + 8 });
  });

  it('a pcapng block with a bad length or mismatched trailer stops reading there', () => {
    const file = pcapng([{ linkType: 1 }], segs.map((s) => ({ iface: 0, data: frame('ethernet', ipPacket(s)) })));
    const bad = file.slice();
    new DataView(bad.buffer).setUint32(28 + 20 + 4, 7, true);
    const read = readCapture(bad);
    expect(read.packets).toHaveLength(0);
    expect(read.problems[0].message).toContain('claims a length of 7 bytes');
  });

  it('no TCP at all: no connections, and the reasons are counted', () => {
    const udp = ipPacket({ src: '10.0.0.1', dst: '10.0.0.2', srcPort: 1, dstPort: 2, seq: 0 });
    udp[9] = 17;
    const arp = cat([new Uint8Array([2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2, 0x08, 0x06]), new Uint8Array(28)]);
    const file = pcap([{ data: frame('ethernet', udp) }, { data: arp }, { data: frame('ethernet', udp) }]);
    const read = readConnections(file);
    expect(read.connections).toEqual([]);
    expect(read.skipped).toEqual([
      { reason: 'not TCP (UDP)', count: 2, firstPacket: 0 },
      { reason: 'not IP (EtherType 0x0806)', count: 1, firstPacket: 1 },
    ]);
  });

  it('IPv4 fragments are detected and reported', () => {
    const p = ipPacket({ src: '10.0.0.1', dst: '10.0.0.2', srcPort: 1, dstPort: 80, seq: 0, payload: 'GET / HTTP/1.1\r\n' });
    p[6] = 0x20; // more fragments
    const file = pcap([{ data: frame('ethernet', p) }]);
    const read = readConnections(file);
    expect(read.fragments).toEqual([0]);
    expect(read.skipped[0].reason).toContain('IPv4 fragment');
  });

  it('a packet cut by the snap length leaves a gap of the missing size', () => {
    const segsCut = connection([{ request: REQUEST, response: RESPONSE }], { piece: 10 });
    const frames = segsCut.map((s) => ({ data: frame('ethernet', ipPacket(s)) }));
    const cut = frames[4].data;
    frames[4] = { data: cut.subarray(0, cut.length - 4), originalLength: cut.length } as { data: Uint8Array; originalLength: number };
    const file = pcap(frames);
    const [c] = readConnections(file).connections;
    expect(c.toServer.gaps).toEqual([{ at: 16, size: 4 }]);
    expect(c.toServer.contiguous).toBe(16);
  });

  it('IPv6 addresses are written short', () => {
    const b = (groups: number[]): Uint8Array => new Uint8Array(groups.flatMap((g) => [g >> 8, g & 0xff]));
    expect(ipv6Text(b([0, 0, 0, 0, 0, 0, 0, 1]), 0)).toBe('::1');
    expect(ipv6Text(b([0x2001, 0xdb8, 0, 0, 1, 0, 0, 1]), 0)).toBe('2001:db8::1:0:0:1');
    expect(ipv6Text(b([0x2001, 0xdb8, 1, 2, 3, 4, 5, 6]), 0)).toBe('2001:db8:1:2:3:4:5:6');
    expect(ipv6Text(b([0x2001, 0, 1, 2, 3, 4, 5, 6]), 0)).toBe('2001:0:1:2:3:4:5:6');
  });
});

describe('the reader and the framing never throw anything but a CaptureError, never hang, never read out of bounds', () => {
  const base = [
    capture(connection([{ request: REQUEST, response: RESPONSE }], { piece: 7 }), 'vlan'),
    capture(connection([{ request: REQUEST, response: RESPONSE }], { client: '::1', server: '::1' }), 'sll2', { littleEndian: false }),
    pcapng([{ linkType: 1 }, { linkType: 0 }], connection([{ request: REQUEST, response: RESPONSE }]).map((s, i) => ({ iface: i % 2, data: frame(i % 2 ? 'null' : 'ethernet', ipPacket(s)) }))),
  ];
  const random = rng(25);

  function survive(file: Uint8Array): void {
    try {
      // The whole way to messages, the decoder included, on what the reader made of the bytes.
      const report = frameCapture(file);
      for (const m of report.messages) expect(messageBytes(file, report, m).length).toBe(m.end - m.start);
      const read = readConnections(file);
      for (const p of read.capture.packets) expect(p.offset + p.length).toBeLessThanOrEqual(file.length);
      for (const c of read.connections) {
        for (const s of [c.toServer, c.toClient]) {
          for (const ch of s.chunks) expect(ch.fileOffset + ch.length).toBeLessThanOrEqual(file.length);
          streamBytes(file, s, 0, s.length);
        }
      }
    } catch (e) {
      expect(e).toBeInstanceOf(CaptureError);
    }
  }

  it('every cut of each file', () => {
    for (const file of base) for (let n = 0; n <= file.length; n++) survive(file.subarray(0, n));
  }, 60_000);

  it('random byte flips', () => {
    for (let round = 0; round < 2000; round++) {
      const file = base[round % base.length].slice();
      const flips = 1 + Math.floor(random() * 6);
      for (let k = 0; k < flips; k++) file[Math.floor(random() * file.length)] = Math.floor(random() * 256);
      survive(file);
    }
  }, 60_000);

  it('random bytes after a valid header', () => {
    for (let round = 0; round < 500; round++) {
      const file = base[round % base.length].slice(0, 40 + Math.floor(random() * 400));
      for (let i = 32; i < file.length; i++) file[i] = Math.floor(random() * 256);
      survive(file);
    }
  });

  it('decodePacket on packets cut at every length', () => {
    const data = frame('qinq', ipPacket({ src: '2001:db8::1', dst: '2001:db8::2', srcPort: 1, dstPort: 2, seq: 9, payload: 'abc' }));
    for (let n = 0; n <= data.length; n++) {
      const r = decodePacket(data, { index: 0, offset: 0, length: n, originalLength: data.length, linkType: 1, time: 0 });
      if ('seq' in r) expect(r.payloadOffset + r.payloadLength).toBeLessThanOrEqual(n);
    }
  });
});
