// A capture file to its TCP connections: read the packets, decode each down to TCP, reassemble.
// Packets that are not TCP are counted by reason; IP fragments are reported on their own, since
// the segments they carry are missing from the streams.

import { decodePacket, type TcpSegment } from './packet.ts';
import { readCapture, type CaptureFile } from './reader.ts';
import { reassemble, type Connection } from './reassembly.ts';

export interface CaptureConnections {
  capture: CaptureFile;
  connections: Connection[];
  /** Packets that gave no TCP segment, by reason, most frequent first. */
  skipped: { reason: string; count: number; firstPacket: number }[];
  /** IP fragments (packet indexes): not reassembled, so their bytes are gaps in the streams. */
  fragments: number[];
  segments: number;
}

/** Reads a capture file down to its connections; throws a CaptureError when the file cannot be read at all. */
export function readConnections(file: Uint8Array, progress?: (done: number, total: number) => void): CaptureConnections {
  const capture = readCapture(file);
  const segments: TcpSegment[] = [];
  const skipped = new Map<string, { reason: string; count: number; firstPacket: number }>();
  const fragments: number[] = [];
  capture.packets.forEach((p, i) => {
    const decoded = decodePacket(file, p);
    if ('seq' in decoded) segments.push(decoded);
    else {
      if (decoded.fragment) fragments.push(p.index);
      const s = skipped.get(decoded.reason);
      if (s) s.count++;
      else skipped.set(decoded.reason, { reason: decoded.reason, count: 1, firstPacket: p.index });
    }
    if (progress && i % 4096 === 0) progress(i, capture.packets.length);
  });
  return {
    capture,
    connections: reassemble(file, segments),
    skipped: [...skipped.values()].sort((a, b) => b.count - a.count),
    fragments,
    segments: segments.length,
  };
}
