// Each connection's two streams split into HTTP/1.1 messages by httpspan's stream decoder: the
// requests first, then the responses with the method of each request queued, since a response's
// framing depends on it (HEAD, CONNECT). A message is a range of its stream, which is itself a
// list of ranges of the capture file: nothing is copied but what the decoder is handed.

import { Decoder, ParseError, type DecoderEvent, type Framing, type RequestHead, type ResponseHead } from '@httpspan/wasm';
import { chunksIn, firstBytes, streamBytes, type Connection, type TcpStream } from './reassembly.ts';
import { latin1Text } from '../bytes.ts';
import { hexBytes } from './reader.ts';
import type { Mode } from '../types.ts';

/** One request or response of a connection, as httpspan framed it. */
export interface CaptureMessage {
  /** Connection id. */
  connection: number;
  direction: Mode;
  /** 0-based, within its direction. */
  index: number;
  /** Stream offsets: from the head's first byte to where the next message starts (or the stream ends). */
  start: number;
  end: number;
  method?: string;
  target?: string;
  /** Requests: the Host field's value. */
  host?: string;
  status?: number;
  reason?: string;
  version?: string;
  /** Responses: the method of the request it answers, and that request's index. */
  requestMethod?: string;
  request?: number;
  /** Responses: a 1xx other than 101 (the final response follows). */
  interim?: boolean;
  framing?: Framing;
  /** Bytes of the head (empty lines before a request-line included). */
  headLength?: number;
  bodyLength: number;
  /** 'incomplete': the stream ends (or reaches a gap) inside the message. */
  outcome: 'complete' | 'incomplete' | 'error';
  error?: { code: string; message: string; offset: number; rfc: string };
  /** A message rejected before its head was read: its first line as sent (up to 100 bytes, Latin-1), to name it by. */
  firstLine?: string;
}

/** A connection with its messages (each request followed by its responses), or the reason it was not read as HTTP/1.1. */
export interface HttpConnection extends Connection {
  /** Null when the connection was read as HTTP/1.1. */
  skipped: string | null;
  messages: CaptureMessage[];
  /** Why bytes at the end of a direction were not read (a gap, a protocol switch), if any. */
  notes: string[];
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+ /;

/** Why a connection is not HTTP/1.1, from its first bytes; null when it looks like it is. */
export function notHttpReason(file: Uint8Array, c: Connection): string | null {
  const up = firstBytes(file, c.toServer, 24);
  const down = firstBytes(file, c.toClient, 8);
  if (up.length === 0 && down.length === 0) {
    if (c.toServer.length || c.toClient.length) return 'the first bytes of both directions are missing from the capture';
    return 'no payload in either direction';
  }
  const text = String.fromCharCode(...up).replace(/^(\r\n)+/, '');
  const shown = hexBytes(up, 0, 8);
  if (up.length >= 3 && up[0] === 0x16 && up[1] === 0x03) return `the client starts with ${shown}: a TLS handshake, not HTTP/1.1 in the clear`;
  if (text.startsWith('PRI * HTTP/2.0')) return 'the client starts with the HTTP/2 connection preface';
  if (up.length && !TOKEN.test(text) && !(text.length < 8 && /^[A-Za-z]*$/.test(text))) {
    const start = c.toServer.syn ? '' : ' (the capture starts inside this connection)';
    return `the client's first bytes (${shown}) are not a request-line${start}`;
  }
  const serverSpeaksHttp = down.length === 0 || String.fromCharCode(...down.subarray(0, Math.min(5, down.length))) === 'HTTP/'.slice(0, down.length);
  if (!up.length && !serverSpeaksHttp) return `the server's first bytes (${hexBytes(down, 0, 8)}) are not a status-line, and the client sent nothing`;
  // A request-line names its version; a protocol that merely starts with a word (SMTP, FTP, IRC) has neither that nor an HTTP answer.
  const line = String.fromCharCode(...firstBytes(file, c.toServer, 256));
  const eol = line.search(/[\r\n]/);
  if (!serverSpeaksHttp && !(eol < 0 ? line : line.slice(0, eol)).includes(' HTTP/')) {
    return `neither side speaks HTTP/1.1: the client starts with ${shown}, the server with ${hexBytes(down, 0, 8)}`;
  }
  return null;
}

/** The messages of every connection that looks like HTTP/1.1. */
export function frameConnections(file: Uint8Array, connections: readonly Connection[], progress?: (done: number, total: number) => void): HttpConnection[] {
  return connections.map((c, i) => {
    progress?.(i, connections.length);
    const skipped = notHttpReason(file, c);
    if (skipped) return { ...c, skipped, messages: [], notes: [] };
    const notes: string[] = [];
    const requests = frameStream(file, c.id, c.toServer, 'request', [], notes);
    const methods = requests.filter((m) => m.method !== undefined).map((m) => m.method!);
    const responses = frameStream(file, c.id, c.toClient, 'response', methods, notes);
    // Final responses answer the requests in order; an interim response belongs to the next final one's request.
    let k = 0;
    for (const r of responses) {
      r.request = k < requests.length ? k : undefined;
      r.requestMethod = methods[k] ?? 'GET';
      if (!r.interim) k++;
    }
    // Each request followed by its responses; responses to no request captured come last.
    const messages = requests.flatMap((q, i) => [q, ...responses.filter((r) => r.request === i)]);
    messages.push(...responses.filter((r) => r.request === undefined));
    return { ...c, skipped: null, messages, notes };
  });
}

type Head = RequestHead | ResponseHead;

function frameStream(file: Uint8Array, connection: number, stream: TcpStream, mode: Mode, methods: string[], notes: string[]): CaptureMessage[] {
  const out: CaptureMessage[] = [];
  const end = stream.contiguous;
  if (end === 0) return out;
  const decoder = new Decoder(mode, mode === 'response' ? { requestMethods: methods } : {});
  const who = mode === 'request' ? 'client' : 'server';
  let stopped = false;
  const take = (events: DecoderEvent<Head>[]): void => {
    for (const e of events) {
      const cur = out[out.length - 1];
      switch (e.type) {
        case 'head': {
          if (cur && cur.end < 0) cur.end = e.offset;
          const h = e.head;
          const m: CaptureMessage = { connection, direction: mode, index: out.length, start: e.offset, end: -1, version: h.version, framing: h.framing, headLength: h.headLen, bodyLength: 0, outcome: 'incomplete' };
          if ('method' in h) {
            m.method = h.method;
            m.target = h.target;
            const host = h.knownIndex.host;
            if (host !== undefined) m.host = h.fields[host].value;
          } else {
            m.status = h.status;
            m.reason = h.reason;
            m.interim = h.interim;
          }
          out.push(m);
          break;
        }
        case 'body':
          if (cur) cur.bodyLength += e.end - e.start;
          break;
        case 'end':
          if (!cur) break;
          cur.outcome = 'complete';
          // Without chunked framing the end is known now; a chunked body's ends where the next message starts.
          if (cur.framing !== 'chunked' && cur.headLength !== undefined) cur.end = cur.start + cur.headLength + cur.bodyLength;
          break;
        case 'closed':
          if (cur && cur.end < 0) cur.end = e.offset;
          if (e.offset < end) notes.push(`${who}: bytes ${e.offset} to ${end} are not read as HTTP/1.1 (the connection switched protocols or closes after the last message)`);
          stopped = true;
          return;
        case 'incomplete': {
          // The stream ends (or reaches a gap) before a head is complete: a message cut short.
          const start = cur ? cur.end : 0;
          if ((!cur || cur.outcome === 'complete') && start >= 0 && start < end) {
            out.push({ connection, direction: mode, index: out.length, start, end, bodyLength: 0, outcome: 'incomplete' });
          }
          stopped = true;
          return;
        }
        case 'error': {
          const err = { code: e.error.code, message: e.error.message, offset: e.error.offset, rfc: e.error.rfc };
          // An error before any head of a new message is that message's error: it starts where the last one ended.
          let target = cur;
          if (!cur || cur.outcome === 'complete') {
            const start = cur ? (cur.end >= 0 ? cur.end : Math.min(e.error.offset, end)) : 0;
            if (cur && cur.end < 0) cur.end = start;
            target = { connection, direction: mode, index: out.length, start, end: -1, bodyLength: 0, outcome: 'error' };
            out.push(target);
          }
          target.outcome = 'error';
          target.error = err;
          target.end = end;
          stopped = true;
          return;
        }
      }
    }
  };
  try {
    for (const c of chunksIn(stream, 0, end)) {
      const to = Math.min(end - c.at, c.length);
      take(decoder.push(file.subarray(c.fileOffset, c.fileOffset + to)) as DecoderEvent<Head>[]);
      if (stopped) break;
    }
    if (!stopped) take(decoder.finish() as DecoderEvent<Head>[]);
  } catch (thrown) {
    if (!(thrown instanceof ParseError)) throw thrown;
    take([{ type: 'error', error: thrown }]);
  } finally {
    decoder.free();
  }
  const last = out[out.length - 1];
  if (last && last.end < 0) last.end = end;
  for (const m of out) if (m.method === undefined && m.status === undefined) m.firstLine = firstLine(file, stream, m.start, Math.min(m.end, m.start + 100));
  if (stream.gaps.length) {
    const g = stream.gaps[0];
    notes.push(`${who}: ${g.size} bytes missing from the capture at stream byte ${g.at}; ${stream.length - g.at - g.size} bytes after the gap are not read`);
  }
  return out;
}

function firstLine(file: Uint8Array, stream: TcpStream, from: number, to: number): string {
  const bytes = streamBytes(file, stream, from, to);
  const eol = bytes.findIndex((b) => b === 0x0d || b === 0x0a);
  return latin1Text(eol < 0 ? bytes : bytes.subarray(0, eol));
}
