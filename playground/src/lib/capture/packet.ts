// From a captured packet to its TCP segment: the link layer (Ethernet with VLAN tags, Linux
// cooked SLL and SLL2, raw IP, BSD null and OpenBSD loop), then IPv4 or IPv6, then TCP. What is
// not a TCP segment says why, so the capture's summary can count the reasons. Checksums are not
// verified: captures taken on the sending host carry the checksums the NIC fills in later.

import type { CapturedPacket } from './reader.ts';

/** A TCP segment; the payload is a range of the capture file. */
export interface TcpSegment {
  packet: number;
  time: number;
  src: string;
  dst: string;
  srcPort: number;
  dstPort: number;
  /** Sequence and acknowledgement numbers, unsigned 32-bit. */
  seq: number;
  ack: number;
  flags: number;
  /** Where the payload starts in the capture file. */
  payloadOffset: number;
  /** Payload bytes in the file. */
  payloadLength: number;
  /** Payload bytes the packet had that the capture cut off (snap length). */
  payloadMissing: number;
}

export const FIN = 0x01;
export const SYN = 0x02;
export const RST = 0x04;
export const ACK = 0x10;

/** Why a packet gives no segment; `fragment` marks IP fragments, which are reported on their own. */
export interface NotTcp {
  reason: string;
  fragment?: boolean;
}

/** Link types the reader knows (LINKTYPE_* numbers) and their names. */
export const LINK_TYPES: Readonly<Record<number, string>> = {
  0: 'BSD loopback (null)',
  1: 'Ethernet',
  12: 'raw IP',
  101: 'raw IP',
  108: 'OpenBSD loopback',
  113: 'Linux cooked (SLL)',
  228: 'raw IPv4',
  229: 'raw IPv6',
  276: 'Linux cooked v2 (SLL2)',
};

const ETHERTYPE_IPV4 = 0x0800;
const ETHERTYPE_IPV6 = 0x86dd;
const VLAN_TAGS = new Set([0x8100, 0x88a8, 0x9100]);

/** Decodes one packet down to TCP. */
export function decodePacket(file: Uint8Array, packet: CapturedPacket): TcpSegment | NotTcp {
  const start = packet.offset;
  const end = packet.offset + packet.length;
  const missing = packet.originalLength - packet.length;
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const u16 = (o: number): number => view.getUint16(o, false);
  let at = start;
  let ethertype: number;
  switch (packet.linkType) {
    case 1: // Ethernet: destination, source, EtherType, with 802.1Q / 802.1ad tags in between
      if (end - at < 14) return { reason: 'Ethernet header cut off' };
      ethertype = u16(at + 12);
      at += 14;
      while (VLAN_TAGS.has(ethertype)) {
        if (end - at < 4) return { reason: 'VLAN tag cut off' };
        ethertype = u16(at + 2);
        at += 4;
      }
      break;
    case 113: // SLL: packet type, ARPHRD, address length, 8-byte address, protocol
      if (end - at < 16) return { reason: 'Linux cooked header cut off' };
      ethertype = u16(at + 14);
      at += 16;
      break;
    case 276: // SLL2: protocol first, 20 bytes in all
      if (end - at < 20) return { reason: 'Linux cooked v2 header cut off' };
      ethertype = u16(at);
      at += 20;
      break;
    case 0:
    case 108: {
      // A 4-byte address family: the capturing host's byte order for null, network order for loop.
      if (end - at < 4) return { reason: 'loopback header cut off' };
      const family = packet.linkType === 108 || file[at] === 0 ? view.getUint32(at, false) : view.getUint32(at, true);
      ethertype = family === 2 ? ETHERTYPE_IPV4 : family === 24 || family === 28 || family === 30 ? ETHERTYPE_IPV6 : -1;
      at += 4;
      if (ethertype < 0) return { reason: `loopback address family ${family} is not IP` };
      break;
    }
    case 12:
    case 101:
    case 228:
    case 229:
      if (end - at < 1) return { reason: 'empty packet' };
      ethertype = file[at] >> 4 === 4 ? ETHERTYPE_IPV4 : file[at] >> 4 === 6 ? ETHERTYPE_IPV6 : -1;
      if (ethertype < 0) return { reason: `raw IP packet with version ${file[at] >> 4}` };
      break;
    default:
      return { reason: `link type ${packet.linkType} is not supported` };
  }
  if (ethertype === ETHERTYPE_IPV4) return ipv4(file, view, at, end, packet);
  if (ethertype === ETHERTYPE_IPV6) return ipv6(file, view, at, end, packet, missing);
  return { reason: ethertype < 0x600 ? 'not IP (802.3 frame)' : `not IP (EtherType 0x${ethertype.toString(16).padStart(4, '0')})` };
}

function ipv4(file: Uint8Array, view: DataView, at: number, end: number, packet: CapturedPacket): TcpSegment | NotTcp {
  if (end - at < 20) return { reason: 'IPv4 header cut off' };
  if (file[at] >> 4 !== 4) return { reason: 'IPv4 header with another version' };
  const headerLength = (file[at] & 0x0f) * 4;
  const totalLength = view.getUint16(at + 2, false);
  if (headerLength < 20 || totalLength < headerLength) return { reason: 'IPv4 header with impossible lengths' };
  if (end - at < headerLength) return { reason: 'IPv4 header cut off' };
  const fragment = view.getUint16(at + 6, false);
  if (fragment & 0x3fff) return { reason: 'IPv4 fragment (fragments are not reassembled)', fragment: true };
  const protocol = file[at + 9];
  if (protocol !== 6) return { reason: protocolName(protocol) };
  const src = Array.from(file.subarray(at + 12, at + 16)).join('.');
  const dst = Array.from(file.subarray(at + 16, at + 20)).join('.');
  // Ethernet pads short frames: the IP total length, not the frame, says where the payload ends.
  const ipEnd = at + totalLength;
  return tcp(file, view, at + headerLength, Math.min(ipEnd, end), Math.max(0, ipEnd - end), packet, src, dst);
}

function ipv6(file: Uint8Array, view: DataView, at: number, end: number, packet: CapturedPacket, missing: number): TcpSegment | NotTcp {
  if (end - at < 40) return { reason: 'IPv6 header cut off' };
  if (file[at] >> 4 !== 6) return { reason: 'IPv6 header with another version' };
  const payloadLength = view.getUint16(at + 4, false);
  let next = file[at + 6];
  const src = ipv6Text(file, at + 8);
  const dst = ipv6Text(file, at + 24);
  // A payload length of 0 is a jumbogram (hop-by-hop option): the packet's end is the end.
  const ipEnd = payloadLength === 0 ? end + missing : at + 40 + payloadLength;
  at += 40;
  // Extension headers before TCP: hop-by-hop, routing, destination options; a fragment header ends the walk.
  while (next === 0 || next === 43 || next === 60 || next === 44 || next === 51) {
    if (next === 44) return { reason: 'IPv6 fragment (fragments are not reassembled)', fragment: true };
    if (end - at < 8) return { reason: 'IPv6 extension header cut off' };
    const length = next === 51 ? (file[at + 1] + 2) * 4 : (file[at + 1] + 1) * 8;
    next = file[at];
    at += length;
  }
  if (next !== 6) return { reason: protocolName(next) };
  return tcp(file, view, at, Math.min(ipEnd, end), Math.max(0, ipEnd - end), packet, src, dst);
}

function tcp(file: Uint8Array, view: DataView, at: number, end: number, missing: number, packet: CapturedPacket, src: string, dst: string): TcpSegment | NotTcp {
  if (end - at < 20) return { reason: 'TCP header cut off' };
  const headerLength = (file[at + 12] >> 4) * 4;
  if (headerLength < 20) return { reason: 'TCP header with a data offset under 5' };
  if (end - at < headerLength) return { reason: 'TCP header cut off' };
  return {
    packet: packet.index,
    time: packet.time,
    src,
    dst,
    srcPort: view.getUint16(at, false),
    dstPort: view.getUint16(at + 2, false),
    seq: view.getUint32(at + 4, false),
    ack: view.getUint32(at + 8, false),
    flags: file[at + 13],
    payloadOffset: at + headerLength,
    payloadLength: end - at - headerLength,
    payloadMissing: missing,
  };
}

function protocolName(protocol: number): string {
  const names: Record<number, string> = { 1: 'ICMP', 17: 'UDP', 58: 'ICMPv6', 50: 'ESP', 132: 'SCTP', 59: 'no next header' };
  return `not TCP (${names[protocol] ?? `IP protocol ${protocol}`})`;
}

/** An IPv6 address in the usual short form (RFC 5952: the longest run of zero groups as ::). */
export function ipv6Text(file: Uint8Array, at: number): string {
  const groups: number[] = [];
  for (let i = 0; i < 8; i++) groups.push((file[at + 2 * i] << 8) | file[at + 2 * i + 1]);
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) [bestStart, bestLength] = [i, j - i];
    i = j;
  }
  const text = (g: number[]): string => g.map((x) => x.toString(16)).join(':');
  if (bestStart < 0) return text(groups);
  return `${text(groups.slice(0, bestStart))}::${text(groups.slice(bestStart + bestLength))}`;
}
