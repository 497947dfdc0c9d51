// The lab's parser configurations: each parser of the compare view in the settings real
// deployments run it with, as one list a front end and a back end are picked from. The pair and
// grid pages run requests, and responses too (the configurations that read them have
// parseResponses; Go's server checks are about requests, so it has none).

import { parseWithHttpspan } from '../compare.ts';
import type { Llhttp, PeerMessage, PeerResult } from '../llhttp.ts';
import type { ExternalParser } from '../parsers/common.ts';
// Types only: the parsers' modules load with the compare view's lazy chunk, never with the first paint.
import type { HttparseParser } from '../parsers/httparse.ts';
import { LENIENCY_FLAGS, type LeniencyFlag, type RequestMethods } from '../types.ts';

/** One parser in one configuration. */
export interface LabConfig {
  /** 'httpspan', 'httpspan+bareLf', 'httpspan-all', 'llhttp', 'llhttp-insecure', 'httparse', 'httparse-lenient', 'picohttpparser', 'go', 'go-server'. */
  id: string;
  /** A short name for menus and the grid. */
  label: string;
  /** What the configuration is, in a sentence. */
  about: string;
  /** Frames a stream of requests that then ends. */
  parse(bytes: Uint8Array): PeerResult;
  /**
   * Frames a stream of responses that then ends, answering requests of `methods` (one method
   * for all, or one per request in order: a response to HEAD has no body); absent where the
   * configuration is about requests only.
   */
  parseResponses?(bytes: Uint8Array, methods?: RequestMethods): PeerResult;
  /** The name in the response direction, where it differs (Go reads responses with ReadResponse). */
  responseLabel?: string;
}

/** The parsers the configurations are made from (the external ones as far as they loaded). */
export interface LabParsers {
  llhttp: Llhttp | null;
  external: readonly ExternalParser[];
}

/** Short names of httpspan's flags for the grid's headings. */
const FLAG_SHORT: Record<LeniencyFlag, string> = {
  bareLf: 'bareLf',
  obsFold: 'obsFold',
  spaceBeforeColon: 'spaceBeforeColon',
  requestLineSpaces: 'requestLineSpaces',
  missingHost: 'missingHost',
  duplicateContentLength: 'dupCL',
  unknownVersion: 'unknownVersion',
  targetUnsafeBytes: 'targetUnsafeBytes',
};

/** A field name as RFC 9110 5.1 allows it: a token. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A field value without control bytes other than HTAB (what Go's server checks values for). */
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;

/**
 * What Go's http.Server refuses beyond http.ReadRequest (server.go's readRequest): a field name
 * that is not a token, a value with a control byte, an HTTP/1.1 request without Host. Returns
 * the reason, or null when the server serves the request.
 */
export function goServerRefuses(m: PeerMessage): string | null {
  for (const [name, value] of m.headers) {
    if (!TOKEN.test(name)) return `invalid header name ${JSON.stringify(name)}`;
    if (CONTROL.test(value)) return `invalid header value in ${name}`;
  }
  const atLeast11 = /^HTTP\/1\.[1-9]$/.test(m.version) || /^HTTP\/[2-9]/.test(m.version);
  if (atLeast11 && m.method !== 'CONNECT' && !m.headers.some(([n]) => n.toLowerCase() === 'host')) return 'missing required Host header';
  return null;
}

/** Go's ReadRequest result cut at the first request the server would refuse (400, connection closed). */
function asGoServer(result: PeerResult): PeerResult {
  const refused = result.messages.findIndex((m) => goServerRefuses(m) !== null);
  if (refused < 0) return result;
  const m = result.messages[refused];
  const reason = goServerRefuses(m)!;
  return {
    status: 'error',
    messages: result.messages.slice(0, refused),
    error: { code: '400', reason: `Go's server answers 400 Bad Request: ${reason} (checked after ReadRequest; derived from server.go's rules)`, offset: m.offset },
    consumed: m.offset,
  };
}

/** Every configuration the parsers given allow, in the order the lab lists them. */
export function labConfigs(parsers: LabParsers): LabConfig[] {
  const httpspan = (id: string, label: string, about: string, flags: readonly LeniencyFlag[]): LabConfig => ({
    id,
    label,
    about,
    parse: (bytes) => parseWithHttpspan(bytes, 'request', 'GET', flags),
    parseResponses: (bytes, methods = 'GET') => parseWithHttpspan(bytes, 'response', methods, flags),
  });
  const configs: LabConfig[] = [httpspan('httpspan', 'httpspan strict', 'httpspan with its default, strict policy.', [])];
  for (const flag of LENIENCY_FLAGS) {
    configs.push(httpspan(`httpspan+${flag}`, `httpspan +${FLAG_SHORT[flag]}`, `httpspan with the leniency option ${flag} alone.`, [flag]));
  }
  configs.push(httpspan('httpspan-all', 'httpspan all lenient', 'httpspan with every leniency option on.', LENIENCY_FLAGS));
  const { llhttp } = parsers;
  if (llhttp) {
    configs.push({
      id: 'llhttp',
      label: 'llhttp',
      about: 'llhttp as Node and undici run it (default, strict settings).',
      parse: (b) => llhttp.parse(b, 'request'),
      parseResponses: (b, methods = 'GET') => llhttp.parse(b, 'response', methods),
    });
    configs.push({
      id: 'llhttp-insecure',
      label: 'llhttp insecure',
      about: `llhttp with every lenient flag on, as Node's --insecure-http-parser sets them (${llhttp.lenientSetters.map((s) => s.replace('llhttp_set_', '')).join(', ')}).`,
      parse: (b) => llhttp.parse(b, 'request', 'GET', true),
      parseResponses: (b, methods = 'GET') => llhttp.parse(b, 'response', methods, true),
    });
  }
  for (const parser of parsers.external) {
    if (parser.id === 'go') {
      configs.push({
        id: 'go',
        label: 'Go ReadRequest',
        about: 'Go net/http’s http.ReadRequest over one bufio.Reader (what a Go proxy or a custom server loop reads); for responses, http.ReadResponse (what Go’s Transport and ReverseProxy read).',
        parse: (b) => parser.parse(b, 'request', 'GET'),
        parseResponses: (b, methods = 'GET') => parser.parse(b, 'response', methods),
        responseLabel: 'Go ReadResponse',
      });
      configs.push({
        id: 'go-server',
        label: 'Go server',
        about: 'Go’s http.Server: ReadRequest, then the checks its server adds (field names must be tokens, values free of control bytes, Host required in HTTP/1.1); those checks are derived from server.go.',
        parse: (b) => asGoServer(parser.parse(b, 'request', 'GET')),
      });
    } else if (parser.id === 'httparse' && 'parseWith' in parser) {
      const httparse = parser as HttparseParser;
      configs.push({
        id: 'httparse',
        label: 'httparse',
        about: `${parser.label}: ${parser.derived}.`,
        parse: (b) => httparse.parse(b, 'request', 'GET'),
        parseResponses: (b, methods = 'GET') => httparse.parse(b, 'response', methods),
      });
      // The options of httparse's ParserConfig that apply to requests are its first three (bits 0-2).
      const requestOptions = httparse.optionNames.slice(0, 3);
      const bits = 0b111;
      configs.push({
        id: 'httparse-lenient',
        label: 'httparse lenient',
        about: `httparse with its request-side parser options on (${requestOptions.join(', ')}); framing derived as for httparse.`,
        parse: (b) => httparse.parseWith(b, 'request', 'GET', bits),
        // Responses: the other four options (bits 3-6), which hyper's client builder exposes.
        parseResponses: (b, methods = 'GET') => httparse.parseWith(b, 'response', methods, 0b1111000),
      });
    } else {
      configs.push({
        id: parser.id,
        label: parser.label.replace(/ \(.*\)$/, ''),
        about: `${parser.label}: ${parser.derived}.`,
        parse: (b) => parser.parse(b, 'request', 'GET'),
        parseResponses: (b, methods = 'GET') => parser.parse(b, 'response', methods),
      });
    }
  }
  return configs;
}
