// TCP reassembly: the segments of a capture grouped into connections, and each direction's
// payloads placed by sequence number into one byte stream.
//
// - Sequence numbers are unwrapped against the highest offset seen so far (a signed 32-bit
//   distance), so a stream may cross 2^32 and run past 4 GiB.
// - A byte received twice keeps its first copy (the order of the capture); a later copy that
//   differs is a conflict and is reported: different bytes for one sequence range are how
//   overlapping-segment evasions work, and a receiver's choice among them is its own.
// - Out-of-order segments are placed where they belong; what never arrived is a gap with its size.
// - The stream starts after the SYN when the capture has it, else at the lowest byte seen.
// No payload is copied: a stream is a list of chunks, each a range of the capture file.

import { ACK, FIN, RST, SYN, type TcpSegment } from './packet.ts';

/** Bytes `at`..`at + length` of the stream are the file's bytes from `fileOffset`. */
export interface StreamChunk {
  at: number;
  fileOffset: number;
  length: number;
  packet: number;
}

/** A later copy of bytes already received that differs from the first one. */
export interface Conflict {
  /** Stream offset of the first differing byte. */
  at: number;
  /** Bytes of the overlap from there. */
  length: number;
  /** The packet with the later copy (ignored) and the one whose copy was kept. */
  packet: number;
  keptPacket: number;
}

/** Bytes of the stream that no captured segment carried. */
export interface Gap {
  at: number;
  size: number;
}

/** One direction of a connection. */
export interface TcpStream {
  /** Sorted by `at`, not overlapping. Offsets count from the stream's first byte. */
  chunks: StreamChunk[];
  /** One past the last byte received. */
  length: number;
  /** Bytes from 0 up to the first gap: what can be parsed. */
  contiguous: number;
  gaps: Gap[];
  conflicts: Conflict[];
  /** Bytes received again, identical to their first copy. */
  retransmitted: number;
  segments: number;
  /** Whether the capture has this direction's SYN (else it starts somewhere inside the stream). */
  syn: boolean;
  /** Packet of the FIN or RST, if any. */
  fin: number | null;
  rst: number | null;
}

export interface Endpoint {
  address: string;
  port: number;
}

export interface Connection {
  /** 1-based, in the order of each connection's first packet. */
  id: number;
  client: Endpoint;
  server: Endpoint;
  /** How the roles were told: from the SYN, the SYN-ACK, the first bytes, or the ports (the lower one serves). */
  rolesFrom: 'syn' | 'syn-ack' | 'payload' | 'port';
  firstTime: number;
  lastTime: number;
  packets: number;
  toServer: TcpStream;
  toClient: TcpStream;
}

const TWO_32 = 4294967296;

class StreamBuilder {
  private ref = -1;
  private high = 0;
  private synAt: number | null = null;
  private isn = -1;
  /** Every payload, in the order captured, at its unwrapped offset. */
  private readonly payloads: StreamChunk[] = [];
  private readonly conflicts: Conflict[] = [];
  retransmitted = 0;
  segments = 0;
  fin: number | null = null;
  rst: number | null = null;

  constructor(private readonly file: Uint8Array) {}

  get synSeq(): number {
    return this.isn;
  }

  /** The unwrapped offset of `seq`: the signed 32-bit distance from the highest offset seen. */
  private unwrap(seq: number): number {
    if (this.ref < 0) {
      this.ref = seq;
      return 0;
    }
    const expected = (this.ref + (((this.high % TWO_32) + TWO_32) % TWO_32)) % TWO_32;
    const distance = ((seq - expected) | 0);
    const offset = this.high + distance;
    if (offset > this.high) this.high = offset;
    return offset;
  }

  add(seg: TcpSegment): void {
    this.segments++;
    let at = this.unwrap(seg.seq);
    if (seg.flags & SYN) {
      if (this.synAt === null) {
        this.synAt = at;
        this.isn = seg.seq;
      }
      at += 1;
    }
    if (seg.payloadLength > 0) this.payloads.push({ at, fileOffset: seg.payloadOffset, length: seg.payloadLength, packet: seg.packet });
    if (seg.flags & FIN && this.fin === null) this.fin = seg.packet;
    if (seg.flags & RST && this.rst === null) this.rst = seg.packet;
  }

  /** Bytes `from`..`to` arrive again in `other`: identical to `kept`'s (a retransmission) or not (a conflict). */
  private compare(kept: StreamChunk, other: StreamChunk, from: number, to: number): void {
    const a = kept.fileOffset + (from - kept.at);
    const b = other.fileOffset + (from - other.at);
    const n = to - from;
    for (let i = 0; i < n; i++) {
      if (this.file[a + i] !== this.file[b + i]) {
        this.retransmitted += i;
        const last = this.conflicts[this.conflicts.length - 1];
        // One overlap cut into pieces by other segments' edges stays one conflict.
        if (last && last.packet === other.packet && last.keptPacket === kept.packet && last.at + last.length === from) last.length += n;
        else this.conflicts.push({ at: from + i, length: n - i, packet: other.packet, keptPacket: kept.packet });
        return;
      }
    }
    this.retransmitted += n;
  }

  /**
   * Places the payloads: a sweep over the segments' edges in stream order, where each stretch
   * between two edges takes the bytes of the earliest-captured segment covering it, and every
   * later one covering it is compared with them. After sorting the edges, linear in the payload
   * bytes, whatever the order of arrival (an insertion in arrival order would be quadratic on a
   * reversed capture).
   */
  private place(): StreamChunk[] {
    const segs = this.payloads;
    const byStart = segs.map((_, i) => i).sort((a, b) => segs[a].at - segs[b].at || a - b);
    const edges = [...new Set(segs.flatMap((s) => [s.at, s.at + s.length]))].sort((a, b) => a - b);
    const out: StreamChunk[] = [];
    let active: number[] = [];
    let next = 0;
    for (let k = 0; k + 1 < edges.length; k++) {
      const from = edges[k];
      const to = edges[k + 1];
      active = active.filter((i) => segs[i].at + segs[i].length > from);
      while (next < byStart.length && segs[byStart[next]].at <= from) active.push(byStart[next++]);
      if (active.length === 0) continue;
      // Indexes are arrival order: the smallest is the first copy.
      let first = active[0];
      for (const i of active) if (i < first) first = i;
      const kept = segs[first];
      const fileOffset = kept.fileOffset + (from - kept.at);
      const last = out[out.length - 1];
      if (last && last.packet === kept.packet && last.at + last.length === from && last.fileOffset + last.length === fileOffset) last.length += to - from;
      else out.push({ at: from, fileOffset, length: to - from, packet: kept.packet });
      for (const i of active) if (i !== first) this.compare(kept, segs[i], from, to);
    }
    return out;
  }

  finish(): TcpStream {
    const chunks = this.place();
    const base = this.synAt !== null ? this.synAt + 1 : chunks.length ? chunks[0].at : 0;
    const out: StreamChunk[] = [];
    for (const c of chunks) {
      // Bytes before the SYN's sequence number cannot belong to this stream.
      const cut = Math.max(0, base - c.at);
      if (cut >= c.length) continue;
      out.push({ at: c.at + cut - base, fileOffset: c.fileOffset + cut, length: c.length - cut, packet: c.packet });
    }
    const gaps: Gap[] = [];
    let end = 0;
    for (const c of out) {
      if (c.at > end) gaps.push({ at: end, size: c.at - end });
      end = c.at + c.length;
    }
    return {
      chunks: out,
      length: end,
      contiguous: gaps.length ? gaps[0].at : end,
      gaps,
      conflicts: this.conflicts.map((c) => ({ ...c, at: c.at - base })),
      retransmitted: this.retransmitted,
      segments: this.segments,
      syn: this.synAt !== null,
      fin: this.fin,
      rst: this.rst,
    };
  }
}

interface ConnectionBuilder {
  a: Endpoint;
  b: Endpoint;
  fromA: StreamBuilder;
  fromB: StreamBuilder;
  /** Who sent the first SYN without ACK, and who the SYN-ACK. */
  synFrom: 'a' | 'b' | null;
  synAckFrom: 'a' | 'b' | null;
  firstTime: number;
  lastTime: number;
  packets: number;
  ended: boolean;
}

/** Groups segments into connections and reassembles both directions of each. */
export function reassemble(file: Uint8Array, segments: Iterable<TcpSegment>): Connection[] {
  const open = new Map<string, ConnectionBuilder>();
  const all: ConnectionBuilder[] = [];
  for (const seg of segments) {
    const src = `${seg.src}|${seg.srcPort}`;
    const dst = `${seg.dst}|${seg.dstPort}`;
    const key = src < dst ? `${src}|${dst}` : `${dst}|${src}`;
    let conn = open.get(key);
    const isSyn = (seg.flags & (SYN | ACK)) === SYN;
    // A new SYN on a 4-tuple that was closed, or with another initial sequence number, is a new connection (port reuse).
    if (conn && isSyn) {
      const side = conn.a.address === seg.src && conn.a.port === seg.srcPort ? conn.fromA : conn.fromB;
      if (conn.ended || (side.synSeq >= 0 && side.synSeq !== seg.seq)) conn = undefined;
    }
    if (!conn) {
      conn = {
        a: { address: seg.src, port: seg.srcPort },
        b: { address: seg.dst, port: seg.dstPort },
        fromA: new StreamBuilder(file),
        fromB: new StreamBuilder(file),
        synFrom: null,
        synAckFrom: null,
        firstTime: seg.time,
        lastTime: seg.time,
        packets: 0,
        ended: false,
      };
      open.set(key, conn);
      all.push(conn);
    }
    const fromA = conn.a.address === seg.src && conn.a.port === seg.srcPort;
    (fromA ? conn.fromA : conn.fromB).add(seg);
    if (isSyn) conn.synFrom ??= fromA ? 'a' : 'b';
    if ((seg.flags & (SYN | ACK)) === (SYN | ACK)) conn.synAckFrom ??= fromA ? 'a' : 'b';
    if (seg.flags & (FIN | RST)) conn.ended = true;
    conn.packets++;
    conn.firstTime = Math.min(conn.firstTime, seg.time);
    conn.lastTime = Math.max(conn.lastTime, seg.time);
  }
  return all.map((c, i) => finishConnection(file, c, i + 1));
}

function finishConnection(file: Uint8Array, c: ConnectionBuilder, id: number): Connection {
  const fromA = c.fromA.finish();
  const fromB = c.fromB.finish();
  let clientIsA: boolean;
  let rolesFrom: Connection['rolesFrom'];
  if (c.synFrom) {
    clientIsA = c.synFrom === 'a';
    rolesFrom = 'syn';
  } else if (c.synAckFrom) {
    clientIsA = c.synAckFrom === 'b';
    rolesFrom = 'syn-ack';
  } else {
    const a = firstBytes(file, fromA);
    const b = firstBytes(file, fromB);
    if (startsLikeResponse(a) || startsLikeResponse(b)) {
      clientIsA = startsLikeResponse(b);
      rolesFrom = 'payload';
    } else {
      clientIsA = c.a.port > c.b.port;
      rolesFrom = 'port';
    }
  }
  return {
    id,
    client: clientIsA ? c.a : c.b,
    server: clientIsA ? c.b : c.a,
    rolesFrom,
    firstTime: c.firstTime,
    lastTime: c.lastTime,
    packets: c.packets,
    toServer: clientIsA ? fromA : fromB,
    toClient: clientIsA ? fromB : fromA,
  };
}

function startsLikeResponse(head: Uint8Array): boolean {
  return head.length >= 5 && String.fromCharCode(...head.subarray(0, 5)) === 'HTTP/';
}

/** Up to `n` bytes from the start of a stream (a copy; fewer when a gap or the end comes first). */
export function firstBytes(file: Uint8Array, stream: TcpStream, n = 16): Uint8Array {
  return streamBytes(file, stream, 0, Math.min(n, stream.contiguous));
}

/** Bytes `from`..`to` of a stream, copied out of the capture; bytes in gaps are zero. */
export function streamBytes(file: Uint8Array, stream: TcpStream, from: number, to: number): Uint8Array {
  const out = new Uint8Array(Math.max(0, to - from));
  for (const c of chunksIn(stream, from, to)) {
    const s = Math.max(from, c.at);
    const e = Math.min(to, c.at + c.length);
    out.set(file.subarray(c.fileOffset + (s - c.at), c.fileOffset + (e - c.at)), s - from);
  }
  return out;
}

/** The chunks that hold bytes of `from`..`to`. */
export function chunksIn(stream: TcpStream, from: number, to: number): StreamChunk[] {
  const chunks = stream.chunks;
  const out: StreamChunk[] = [];
  for (let j = firstEndingAfter(chunks, from); j < chunks.length && chunks[j].at < to; j++) out.push(chunks[j]);
  return out;
}

/** The index of the first of the sorted `chunks` that ends after `offset` (binary search). */
function firstEndingAfter(chunks: readonly StreamChunk[], offset: number): number {
  let lo = 0;
  let hi = chunks.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (chunks[mid].at + chunks[mid].length <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
