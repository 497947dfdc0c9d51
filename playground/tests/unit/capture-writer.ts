// Hand-built captures for the tests: TCP segments wrapped in IPv4 or IPv6, in one of the link
// layers the reader knows, written as pcap (either byte order, micro- or nanoseconds) or pcapng.

export interface SegmentSpec {
  src: string;
  dst: string;
  srcPort: number;
  dstPort: number;
  seq: number;
  ack?: number;
  /** 'S', 'SA', 'A', 'PA', 'FA', 'R' ... */
  flags?: string;
  payload?: Uint8Array | string;
  time?: number;
}

export type LinkLayer = 'ethernet' | 'vlan' | 'qinq' | 'sll' | 'sll2' | 'raw' | 'null' | 'loop';

export const LINKTYPE: Record<LinkLayer, number> = { ethernet: 1, vlan: 1, qinq: 1, sll: 113, sll2: 276, raw: 101, null: 0, loop: 108 };

import { concatBytes as cat } from '../../src/lib/bytes.ts';

export { cat };

const enc = new TextEncoder();

function flagBits(flags: string): number {
  let f = 0;
  if (flags.includes('F')) f |= 0x01;
  if (flags.includes('S')) f |= 0x02;
  if (flags.includes('R')) f |= 0x04;
  if (flags.includes('P')) f |= 0x08;
  if (flags.includes('A')) f |= 0x10;
  return f;
}

function ipBytes(address: string): number[] {
  if (!address.includes(':')) return address.split('.').map(Number);
  const [head, tail] = address.includes('::') ? address.split('::') : [address, ''];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = [...h, ...Array(8 - h.length - t.length).fill('0'), ...t].map((g) => parseInt(g, 16));
  return groups.flatMap((g) => [g >> 8, g & 0xff]);
}

/** The IP packet (v4 or v6 by the address) carrying one TCP segment. */
export function ipPacket(s: SegmentSpec): Uint8Array {
  const payload = typeof s.payload === 'string' ? enc.encode(s.payload) : (s.payload ?? new Uint8Array());
  const tcp = new Uint8Array(20 + payload.length);
  const v = new DataView(tcp.buffer);
  v.setUint16(0, s.srcPort);
  v.setUint16(2, s.dstPort);
  v.setUint32(4, s.seq >>> 0);
  v.setUint32(8, (s.ack ?? 0) >>> 0);
  tcp[12] = 5 << 4;
  tcp[13] = flagBits(s.flags ?? (payload.length ? 'PA' : 'A'));
  v.setUint16(14, 65535);
  tcp.set(payload, 20);
  const v6 = s.src.includes(':');
  const header = new Uint8Array(v6 ? 40 : 20);
  const hv = new DataView(header.buffer);
  if (v6) {
    header[0] = 0x60;
    hv.setUint16(4, tcp.length);
    header[6] = 6;
    header[7] = 64;
    header.set(ipBytes(s.src), 8);
    header.set(ipBytes(s.dst), 24);
  } else {
    header[0] = 0x45;
    hv.setUint16(2, 20 + tcp.length);
    hv.setUint16(6, 0x4000);
    header[8] = 64;
    header[9] = 6;
    header.set(ipBytes(s.src), 12);
    header.set(ipBytes(s.dst), 16);
  }
  return cat([header, tcp]);
}

/** An IP packet behind a link-layer header. */
export function frame(link: LinkLayer, ip: Uint8Array): Uint8Array {
  const v6 = ip[0] >> 4 === 6;
  const ethertype = v6 ? [0x86, 0xdd] : [0x08, 0x00];
  const mac = [2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2];
  switch (link) {
    case 'ethernet':
      return cat([new Uint8Array([...mac, ...ethertype]), ip]);
    case 'vlan':
      return cat([new Uint8Array([...mac, 0x81, 0x00, 0x00, 0x2a, ...ethertype]), ip]);
    case 'qinq':
      return cat([new Uint8Array([...mac, 0x88, 0xa8, 0x00, 0x64, 0x81, 0x00, 0x00, 0x2a, ...ethertype]), ip]);
    case 'sll':
      return cat([new Uint8Array([0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0, ...ethertype]), ip]);
    case 'sll2':
      return cat([new Uint8Array([...ethertype, 0, 0, 0, 0, 0, 1, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0]), ip]);
    case 'raw':
      return ip;
    case 'null':
      return cat([new Uint8Array(v6 ? [30, 0, 0, 0] : [2, 0, 0, 0]), ip]);
    case 'loop':
      return cat([new Uint8Array(v6 ? [0, 0, 0, 24] : [0, 0, 0, 2]), ip]);
  }
}

export interface PcapOptions {
  littleEndian?: boolean;
  nanoseconds?: boolean;
  linkType?: number;
}

/** A pcap file of the given frames. */
export function pcap(frames: readonly { data: Uint8Array; time?: number; originalLength?: number }[], options: PcapOptions = {}): Uint8Array {
  const le = options.littleEndian ?? true;
  const head = new Uint8Array(24);
  const hv = new DataView(head.buffer);
  hv.setUint32(0, options.nanoseconds ? 0xa1b23c4d : 0xa1b2c3d4, le);
  hv.setUint16(4, 2, le);
  hv.setUint16(6, 4, le);
  hv.setUint32(16, 262144, le);
  hv.setUint32(20, options.linkType ?? 1, le);
  const parts: Uint8Array[] = [head];
  frames.forEach((f, i) => {
    const r = new Uint8Array(16);
    const rv = new DataView(r.buffer);
    const t = f.time ?? 1_700_000_000 + i / 1000;
    rv.setUint32(0, Math.floor(t), le);
    rv.setUint32(4, Math.round((t % 1) * (options.nanoseconds ? 1e9 : 1e6)), le);
    rv.setUint32(8, f.data.length, le);
    rv.setUint32(12, f.originalLength ?? f.data.length, le);
    parts.push(r, f.data);
  });
  return cat(parts);
}

/** A pcapng section: one interface per link type given, packets as enhanced (or simple) packet blocks. */
export function pcapng(
  interfaces: readonly { linkType: number; tsresol?: number }[],
  packets: readonly { iface: number; data: Uint8Array; time?: number; simple?: boolean }[],
  options: { littleEndian?: boolean } = {},
): Uint8Array {
  const le = options.littleEndian ?? true;
  const block = (type: number, body: Uint8Array): Uint8Array => {
    const padded = (body.length + 3) & ~3;
    const out = new Uint8Array(12 + padded);
    const v = new DataView(out.buffer);
    v.setUint32(0, type, le);
    v.setUint32(4, out.length, le);
    out.set(body, 8);
    v.setUint32(out.length - 4, out.length, le);
    return out;
  };
  const words = (...xs: [number, 2 | 4][]): Uint8Array => {
    const out = new Uint8Array(xs.reduce((n, [, w]) => n + w, 0));
    const v = new DataView(out.buffer);
    let o = 0;
    for (const [x, w] of xs) {
      if (w === 2) v.setUint16(o, x, le);
      else v.setUint32(o, x, le);
      o += w;
    }
    return out;
  };
  const parts = [block(0x0a0d0d0a, cat([words([0x1a2b3c4d, 4], [1, 2], [0, 2]), new Uint8Array(8).fill(0xff)]))];
  for (const i of interfaces) {
    const options = i.tsresol === undefined ? new Uint8Array() : cat([words([9, 2], [1, 2]), new Uint8Array([i.tsresol, 0, 0, 0]), words([0, 2], [0, 2])]);
    parts.push(block(1, cat([words([i.linkType, 2], [0, 2], [262144, 4]), options])));
  }
  packets.forEach((p, n) => {
    if (p.simple) {
      parts.push(block(3, cat([words([p.data.length, 4]), p.data])));
      return;
    }
    const res = interfaces[p.iface]?.tsresol ?? 6;
    const ticks = BigInt(Math.round((p.time ?? 1_700_000_000 + n / 1000) * 10 ** res));
    parts.push(block(6, cat([words([p.iface, 4], [Number(ticks >> 32n), 4], [Number(ticks & 0xffffffffn), 4], [p.data.length, 4], [p.data.length, 4]), p.data])));
  });
  return cat(parts);
}

/**
 * A whole TCP connection as segment specs: handshake, the client's and server's payloads cut
 * into the given pieces (alternating by exchange), FIN on both sides.
 */
export function connection(
  exchange: readonly { request: string | Uint8Array; response: string | Uint8Array }[],
  opts: { client?: string; server?: string; clientPort?: number; serverPort?: number; clientIsn?: number; serverIsn?: number; piece?: number } = {},
): SegmentSpec[] {
  const c = opts.client ?? '127.0.0.1';
  const s = opts.server ?? '127.0.0.1';
  const cp = opts.clientPort ?? 40000;
  const sp = opts.serverPort ?? 8080;
  let cseq = opts.clientIsn ?? 1000;
  let sseq = opts.serverIsn ?? 5000;
  const piece = opts.piece ?? 1000;
  const toS = (x: Partial<SegmentSpec>): SegmentSpec => ({ src: c, dst: s, srcPort: cp, dstPort: sp, seq: cseq, ...x });
  const toC = (x: Partial<SegmentSpec>): SegmentSpec => ({ src: s, dst: c, srcPort: sp, dstPort: cp, seq: sseq, ...x });
  const out: SegmentSpec[] = [toS({ flags: 'S' }), toC({ flags: 'SA' })];
  cseq = (cseq + 1) >>> 0;
  sseq = (sseq + 1) >>> 0;
  out.push(toS({ flags: 'A' }));
  const send = (data: string | Uint8Array, toServer: boolean): void => {
    const bytes = typeof data === 'string' ? enc.encode(data) : data;
    for (let i = 0; i < bytes.length; i += piece) {
      const chunk = bytes.subarray(i, i + piece);
      if (toServer) {
        out.push(toS({ payload: chunk }));
        cseq = (cseq + chunk.length) >>> 0;
      } else {
        out.push(toC({ payload: chunk }));
        sseq = (sseq + chunk.length) >>> 0;
      }
    }
  };
  for (const x of exchange) {
    send(x.request, true);
    send(x.response, false);
  }
  out.push(toS({ flags: 'FA' }), toC({ flags: 'FA' }));
  return out;
}

/** A pcap of segment specs on one link layer. */
export function capture(segments: readonly SegmentSpec[], link: LinkLayer = 'ethernet', options: PcapOptions = {}): Uint8Array {
  return pcap(
    segments.map((s, i) => ({ data: frame(link, ipPacket(s)), time: s.time ?? 1_700_000_000 + i / 1000 })),
    { linkType: LINKTYPE[link], ...options },
  );
}
