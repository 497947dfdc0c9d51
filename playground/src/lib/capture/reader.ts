// Capture files: the packet records of a pcap or pcapng file, as offsets into the file.
//
// pcap: a 24-byte header whose magic gives the byte order and the time unit (microseconds or
// nanoseconds), then records of a 16-byte header and the packet's bytes. pcapng: blocks of
// (type, length, body, length); a section header block sets the byte order, interface
// description blocks give each interface's link type and time unit, enhanced and simple packet
// blocks (and the obsolete packet block) carry packets; other blocks are skipped. No byte is
// copied: a packet is where its bytes start in the file and how many were captured.

/** The file cannot be read (at all, or from `offset` on). */
export class CaptureError extends Error {
  /** Byte offset in the file where the problem is. */
  readonly offset: number;
  constructor(message: string, offset: number) {
    super(`${message} (at byte ${offset})`);
    this.name = 'CaptureError';
    this.offset = offset;
  }
}

/** One captured packet. */
export interface CapturedPacket {
  /** 0-based, in file order. */
  index: number;
  /** Where the packet's bytes start in the file. */
  offset: number;
  /** Bytes captured (in the file). */
  length: number;
  /** Bytes the packet had on the wire (more than `length` when the capture cut it). */
  originalLength: number;
  /** The link-layer header type (LINKTYPE_*). */
  linkType: number;
  /** Seconds since 1970 (float; sub-microsecond digits are rounded). */
  time: number;
}

/** Something the reader skipped or stopped at, that the user should see. */
export interface CaptureProblem {
  message: string;
  offset: number;
}

export interface CaptureFile {
  format: 'pcap' | 'pcapng';
  packets: CapturedPacket[];
  /** Link types seen (pcap: one; pcapng: one per interface). */
  linkTypes: number[];
  /** A cut-off last record, an unusable block: reading stopped or skipped there. */
  problems: CaptureProblem[];
}

/** No real link layer carries packets this large (Wireshark's own limit is 256 KiB). */
export const MAX_PACKET = 256 * 1024;
/** pcapng blocks hold a packet and some options; anything past this is not a block. */
const MAX_BLOCK = MAX_PACKET + 64 * 1024;

const PCAP_US = 0xa1b2c3d4;
const PCAP_NS = 0xa1b23c4d;
const PCAPNG_SHB = 0x0a0d0d0a;
const PCAPNG_BYTE_ORDER = 0x1a2b3c4d;

/** Reads the packet records of a pcap or pcapng file; throws a CaptureError when it cannot start. */
export function readCapture(file: Uint8Array): CaptureFile {
  if (file.length === 0) throw new CaptureError('the file is empty (0 bytes)', 0);
  if (file.length < 4) throw new CaptureError(`the file has ${file.length} bytes, too few for any capture format`, 0);
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const magicBe = view.getUint32(0, false);
  const magicLe = view.getUint32(0, true);
  if (magicBe === PCAPNG_SHB) return readPcapng(file, view);
  for (const [magic, littleEndian] of [[magicBe, false], [magicLe, true]] as const) {
    if (magic === PCAP_US || magic === PCAP_NS) return readPcap(file, view, littleEndian, magic === PCAP_NS);
  }
  throw new CaptureError(`not a pcap or pcapng file: it starts with ${hexBytes(file, 0, 4)}, not a pcap magic (a1 b2 c3 d4, a1 b2 3c 4d, either byte order) or a pcapng section header (0a 0d 0d 0a)`, 0);
}

function readPcap(file: Uint8Array, view: DataView, le: boolean, nanoseconds: boolean): CaptureFile {
  if (file.length < 24) throw new CaptureError(`the pcap header is cut off: the file has ${file.length} of its 24 bytes`, file.length);
  const major = view.getUint16(4, le);
  if (major !== 2) throw new CaptureError(`pcap version ${major}.${view.getUint16(6, le)} is not 2.x`, 4);
  const linkType = view.getUint32(20, le) & 0xffff;
  const unit = nanoseconds ? 1e-9 : 1e-6;
  const packets: CapturedPacket[] = [];
  const problems: CaptureProblem[] = [];
  let at = 24;
  while (at < file.length) {
    if (file.length - at < 16) {
      problems.push({ message: `the last record header is cut off (${file.length - at} of 16 bytes); reading stopped there`, offset: at });
      break;
    }
    const included = view.getUint32(at + 8, le);
    const original = view.getUint32(at + 12, le);
    if (included > MAX_PACKET) {
      // A length this large means the file is corrupt from here on: there is no next record to find.
      problems.push({ message: `record ${packets.length + 1} claims ${included} captured bytes (more than ${MAX_PACKET}); the file is corrupt from here, reading stopped`, offset: at + 8 });
      break;
    }
    if (at + 16 + included > file.length) {
      problems.push({ message: `record ${packets.length + 1} is cut off: ${included} bytes announced, ${file.length - at - 16} in the file; reading stopped there`, offset: at });
      break;
    }
    const time = view.getUint32(at, le) + view.getUint32(at + 4, le) * unit;
    packets.push({ index: packets.length, offset: at + 16, length: included, originalLength: Math.max(original, included), linkType, time });
    at += 16 + included;
  }
  return { format: 'pcap', packets, linkTypes: [linkType], problems };
}

interface PcapngInterface {
  linkType: number;
  snapLength: number;
  /** Seconds per timestamp unit. */
  unit: number;
}

function readPcapng(file: Uint8Array, view: DataView): CaptureFile {
  const packets: CapturedPacket[] = [];
  const problems: CaptureProblem[] = [];
  const linkTypes: number[] = [];
  let interfaces: PcapngInterface[] = [];
  let le = true;
  let at = 0;
  while (at < file.length) {
    if (file.length - at < 12) {
      problems.push({ message: `the last block is cut off (${file.length - at} bytes, a block has at least 12); reading stopped there`, offset: at });
      break;
    }
    let type = view.getUint32(at, le);
    if (view.getUint32(at, false) === PCAPNG_SHB) {
      // The section header's byte-order magic says how every number of the section is written.
      let bad: CaptureProblem | null = null;
      if (file.length - at < 28) bad = { message: `the section header block is cut off (${file.length - at} of at least 28 bytes)`, offset: file.length };
      else if (view.getUint32(at + 8, true) === PCAPNG_BYTE_ORDER) le = true;
      else if (view.getUint32(at + 8, false) === PCAPNG_BYTE_ORDER) le = false;
      else bad = { message: `the section header's byte-order magic is ${hexBytes(file, at + 8, 4)}, not 1a 2b 3c 4d in either order`, offset: at + 8 };
      if (!bad && view.getUint16(at + 12, le) !== 1) bad = { message: `pcapng version ${view.getUint16(at + 12, le)} is not 1`, offset: at + 12 };
      if (bad) {
        // The first section must be readable; a later bad one ends the file but keeps what came before.
        if (at === 0) throw new CaptureError(bad.message, bad.offset);
        problems.push({ message: `${bad.message}; reading stopped there`, offset: bad.offset });
        break;
      }
      type = PCAPNG_SHB;
      interfaces = [];
    }
    const length = view.getUint32(at + 4, le);
    if (length < 12 || length % 4 !== 0 || length > MAX_BLOCK) {
      problems.push({ message: `block of type 0x${type.toString(16)} claims a length of ${length} bytes (a multiple of 4 from 12 to ${MAX_BLOCK}); the file is corrupt from here, reading stopped`, offset: at + 4 });
      break;
    }
    if (at + length > file.length) {
      problems.push({ message: `block of type 0x${type.toString(16)} is cut off: ${length} bytes announced, ${file.length - at} in the file; reading stopped there`, offset: at });
      break;
    }
    if (view.getUint32(at + length - 4, le) !== length) {
      problems.push({ message: `block of type 0x${type.toString(16)} ends with a length of ${view.getUint32(at + length - 4, le)}, not the ${length} it started with; the file is corrupt from here, reading stopped`, offset: at + length - 4 });
      break;
    }
    const body = at + 8;
    const bodyEnd = at + length - 4;
    const packetAt = (iface: number, timeHigh: number, timeLow: number, captured: number, original: number, data: number): void => {
      const desc = interfaces[iface];
      if (!desc) {
        problems.push({ message: `a packet names interface ${iface}, which no interface description block declared; skipped`, offset: at });
        return;
      }
      if (data + captured > bodyEnd) {
        problems.push({ message: `a packet's ${captured} captured bytes run past the end of its block; skipped`, offset: at });
        return;
      }
      const time = (timeHigh * 4294967296 + timeLow) * desc.unit;
      packets.push({ index: packets.length, offset: data, length: captured, originalLength: Math.max(original, captured), linkType: desc.linkType, time });
    };
    switch (type) {
      case PCAPNG_SHB:
        break;
      case 1: {
        // Interface description block: link type, snap length, options (if_tsresol is code 9).
        if (bodyEnd - body < 8) {
          problems.push({ message: 'an interface description block is too short; skipped', offset: at });
          break;
        }
        const linkType = view.getUint16(body, le);
        let unit = 1e-6;
        for (let o = body + 8; o + 4 <= bodyEnd; ) {
          const code = view.getUint16(o, le);
          const len = view.getUint16(o + 2, le);
          if (code === 0) break;
          if (code === 9 && len >= 1 && o + 4 < bodyEnd) {
            const r = file[o + 4];
            unit = r & 0x80 ? 2 ** -(r & 0x7f) : 10 ** -r;
          }
          o += 4 + Math.ceil(len / 4) * 4;
        }
        interfaces.push({ linkType, snapLength: view.getUint32(body + 4, le), unit });
        if (!linkTypes.includes(linkType)) linkTypes.push(linkType);
        break;
      }
      case 6: // enhanced packet block
        if (bodyEnd - body < 20) problems.push({ message: 'an enhanced packet block is too short; skipped', offset: at });
        else packetAt(view.getUint32(body, le), view.getUint32(body + 4, le), view.getUint32(body + 8, le), view.getUint32(body + 12, le), view.getUint32(body + 16, le), body + 20);
        break;
      case 2: // obsolete packet block
        if (bodyEnd - body < 20) problems.push({ message: 'a packet block is too short; skipped', offset: at });
        else packetAt(view.getUint16(body, le), view.getUint32(body + 4, le), view.getUint32(body + 8, le), view.getUint32(body + 12, le), view.getUint32(body + 16, le), body + 20);
        break;
      case 3: {
        // Simple packet block: interface 0, no timestamp; the captured length is what fits.
        if (bodyEnd - body < 4) {
          problems.push({ message: 'a simple packet block is too short; skipped', offset: at });
          break;
        }
        const original = view.getUint32(body, le);
        const snap = interfaces[0]?.snapLength || Infinity;
        packetAt(0, 0, 0, Math.min(original, snap, bodyEnd - body - 4), original, body + 4);
        break;
      }
      default:
        break;
    }
    at += length;
  }
  return { format: 'pcapng', packets, linkTypes, problems };
}

/** `n` bytes at `offset` as hex pairs. */
export function hexBytes(file: Uint8Array, offset: number, n: number): string {
  return Array.from(file.subarray(offset, offset + n), (b) => b.toString(16).padStart(2, '0')).join(' ');
}
