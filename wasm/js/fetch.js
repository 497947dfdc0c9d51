// Conversions from parsed heads to the objects of the Fetch standard (Headers, Request,
// Response) and to Node's `headers` object. Each message the Fetch standard cannot represent
// is refused with a FetchConversionError naming the rule, before the platform's constructor
// would throw a bare TypeError (or, for a target like `//host/x`, silently change the host).

import { RequestSpans, ResponseSpans } from './views.js';

const MESSAGES = {
  forbidden_method: 'the Fetch standard forbids the methods CONNECT, TRACE and TRACK',
  asterisk_form: 'a request-target of * (OPTIONS *) names no resource, so it has no URL',
  authority_form: 'an authority-form request-target (host:port) names no resource, so it has no URL',
  no_base: 'an origin-form request-target needs options.base or a Host field to make a URL',
  invalid_url: 'the request-target and base do not make a valid URL',
  credentials_in_url: 'the Fetch standard allows no credentials (user:password@) in a request URL',
  body_not_allowed: 'the Fetch standard allows no body here',
  interim_status: 'a 1xx response is not a Response in the Fetch standard (its status must be 200 to 599)',
};

/**
 * A parsed message that the Fetch standard cannot represent. `code` names the rule:
 * 'forbidden_method', 'asterisk_form', 'authority_form', 'no_base', 'invalid_url',
 * 'credentials_in_url', 'body_not_allowed' or 'interim_status'.
 */
export class FetchConversionError extends Error {
  constructor(code, detail) {
    super(`@httpspan/wasm: ${MESSAGES[code]}${detail ? `: ${detail}` : ''}`);
    this.name = 'FetchConversionError';
    this.code = code;
  }
}

// Hop-by-hop fields (RFC 9110 7.6.1): they describe one connection, never the message a
// Request or Response carries on; the fields that Connection names are dropped with them.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'transfer-encoding', 'upgrade']);

// Fields of which Node's `message.headers` keeps only the first line.
const NODE_FIRST_ONLY = new Set([
  'age', 'authorization', 'content-length', 'content-type', 'etag', 'expires', 'from', 'host',
  'if-modified-since', 'if-unmodified-since', 'last-modified', 'location', 'max-forwards',
  'proxy-authorization', 'referer', 'retry-after', 'server', 'user-agent',
]);

function completeHead(head, what) {
  const state = head?.state;
  if (state !== undefined && state !== 'complete') throw new TypeError(`${what} needs a complete head (state: ${state})`);
  if (!(head instanceof RequestSpans || head instanceof ResponseSpans)) {
    throw new TypeError(`${what} needs a head from @httpspan/wasm`);
  }
  return head;
}

/** The value with each obs-fold (only there with the obsFold leniency) and the whitespace around it made one SP. */
function unfolded(value) {
  return value.includes('\n') ? value.replace(/[ \t]*\r?\n[ \t]*/g, ' ') : value;
}

/** The lowercase names the Connection fields of `head` list, and the hop-by-hop names. */
function hopByHopNames(head) {
  const names = new Set(HOP_BY_HOP);
  for (const value of head.getAll('connection')) {
    for (const token of value.split(',')) {
      const name = token.trim().toLowerCase();
      if (name !== '') names.add(name);
    }
  }
  return names;
}

function checkOptions(options, keys) {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object') throw new TypeError('options must be an object');
  for (const key of Object.keys(options)) {
    if (!keys.includes(key)) throw new TypeError(`unknown option ${key}`);
  }
  if (options.dropHopByHop !== undefined && typeof options.dropHopByHop !== 'boolean') {
    throw new TypeError('options.dropHopByHop must be a boolean');
  }
  return options;
}

function headersOf(head, dropHopByHop) {
  const drop = dropHopByHop ? hopByHopNames(head) : null;
  const headers = new Headers();
  for (let i = 0; i < head.fieldCount; i++) {
    const name = head.fieldName(i);
    if (drop !== null && drop.has(name.toLowerCase())) continue;
    headers.append(name, unfolded(head.fieldValue(i)));
  }
  return headers;
}

/**
 * The field lines of a complete head as a `Headers`, in order, repeats appended (obs-folds,
 * only there with the obsFold leniency, become one SP). With `{ dropHopByHop: true }`, the hop-by-hop fields are left out.
 */
export function toHeaders(head, options) {
  const { dropHopByHop = false } = checkOptions(options, ['dropHopByHop']);
  return headersOf(completeHead(head, 'toHeaders'), dropHopByHop);
}

/**
 * Node's `IncomingMessage.headers` for a complete head: lowercase names; `set-cookie` always an
 * array; `cookie` lines joined with '; '; of the fields Node keeps once (such as
 * `content-type`), the first line; other repeats joined with ', '. An object without a
 * prototype, so that no field name can reach one.
 */
export function toNodeHeaders(head) {
  completeHead(head, 'toNodeHeaders');
  const headers = Object.create(null);
  for (let i = 0; i < head.fieldCount; i++) {
    const name = head.fieldName(i).toLowerCase();
    const value = unfolded(head.fieldValue(i));
    const before = headers[name];
    if (name === 'set-cookie') {
      if (before === undefined) headers[name] = [value];
      else before.push(value);
    } else if (before === undefined) {
      headers[name] = value;
    } else if (!NODE_FIRST_ONLY.has(name)) {
      headers[name] = `${before}${name === 'cookie' ? '; ' : ', '}${value}`;
    }
  }
  return headers;
}

const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** The declared body length, 0 without one, or -1 for a chunked or close-delimited body. */
function declaredBody(head) {
  switch (head.framing) {
    case 'none': return 0;
    case 'length': return Number(head.contentLength);
    default: return -1;
  }
}

/** The URL of a request head: see toRequest. */
function requestUrl(head, base) {
  const target = head.target;
  if (target === '*') throw new FetchConversionError('asterisk_form');
  if (target.startsWith('/')) {
    let origin;
    if (base !== undefined) {
      origin = new URL(base).origin;
    } else {
      const host = head.get('host');
      if (host === undefined || host === '') throw new FetchConversionError('no_base');
      origin = `http://${host}`;
    }
    // Appended, not resolved against the base: a target such as //other.example/x stays a path
    // of this origin instead of naming another host.
    try {
      return new URL(origin + target);
    } catch {
      throw new FetchConversionError('invalid_url', `${origin}${target}`);
    }
  }
  // The parser accepts no other form than origin, absolute, authority and asterisk.
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(target)) throw new FetchConversionError('authority_form', target);
  let url;
  try {
    url = new URL(target);
  } catch {
    throw new FetchConversionError('invalid_url', target);
  }
  if (url.username !== '' || url.password !== '') throw new FetchConversionError('credentials_in_url', target);
  return url;
}

function isStream(body) {
  return typeof ReadableStream === 'function' && body instanceof ReadableStream;
}

/**
 * A `Request` for a complete request head and its body (any BodyInit, such as the decoded body
 * stream, or null). The rules, each a FetchConversionError:
 * - CONNECT, TRACE and TRACK, which the Fetch standard forbids: 'forbidden_method';
 * - `OPTIONS *` and authority-form targets, which have no URL: 'asterisk_form', 'authority_form';
 * - an origin-form target is appended to the origin of `options.base`, else of `http://` and the
 *   Host field ('no_base' without either); an absolute-form target is the URL itself, which
 *   must not hold credentials ('credentials_in_url');
 * - GET and HEAD with a declared body (Content-Length above 0, chunked) or a body given:
 *   'body_not_allowed'.
 * Hop-by-hop fields are dropped unless `options.dropHopByHop` is false.
 */
export function toRequest(head, body = null, options) {
  const { base, dropHopByHop = true } = checkOptions(options, ['base', 'dropHopByHop']);
  completeHead(head, 'toRequest');
  if (!(head instanceof RequestSpans)) throw new TypeError('toRequest needs a request head');
  if (base !== undefined && typeof base !== 'string' && !(base instanceof URL)) {
    throw new TypeError('options.base must be a string or a URL');
  }
  const method = head.method;
  const upper = method.toUpperCase();
  if (FORBIDDEN_METHODS.has(upper)) throw new FetchConversionError('forbidden_method', method);
  const url = requestUrl(head, base);
  if ((upper === 'GET' || upper === 'HEAD') && (declaredBody(head) !== 0 || body !== null)) {
    throw new FetchConversionError('body_not_allowed', `a ${method} request cannot have a body`);
  }
  const init = { method, headers: headersOf(head, dropHopByHop) };
  if (body !== null) {
    init.body = body;
    // Node's fetch needs this for a stream body; other platforms ignore it.
    if (isStream(body)) init.duplex = 'half';
  }
  return new Request(url, init);
}

// Statuses whose Response cannot have a body (the Fetch standard's null body statuses).
const NULL_BODY = new Set([204, 205, 304]);

/**
 * A `Response` for a complete response head and its body (any BodyInit, or null). The rules,
 * each a FetchConversionError: a 1xx head, interim or 101, is not a Response ('interim_status');
 * 204, 205 and 304 take no body ('body_not_allowed'). Hop-by-hop fields are dropped unless
 * `options.dropHopByHop` is false.
 */
export function toResponse(head, body = null, options) {
  const { dropHopByHop = true } = checkOptions(options, ['dropHopByHop']);
  completeHead(head, 'toResponse');
  if (!(head instanceof ResponseSpans)) throw new TypeError('toResponse needs a response head');
  const status = head.status;
  if (status < 200) {
    const why = status === 101 ? 'the connection switched protocols: read it from the socket' : 'read the final response after it';
    throw new FetchConversionError('interim_status', `${status} (${why})`);
  }
  if (NULL_BODY.has(status) && body !== null) {
    throw new FetchConversionError('body_not_allowed', `a ${status} response cannot have a body`);
  }
  return new Response(body, { status, statusText: head.reason, headers: headersOf(head, dropHopByHop) });
}
