// llhttp (the parser of Node.js and undici) in the browser, as a second opinion for the compare
// view: the same bytes through a parser that real servers and clients use.
//
// The module is undici's wasm build of llhttp (vite-plugins/llhttp.ts provides its URL). Its
// imports are undici's eight callbacks (env.wasm_on_url, ...); each receives the parser pointer
// and, for data callbacks, a pointer into the module's memory and a length. This file drives one
// fresh parser per parse over the whole input, then calls llhttp_finish as a stream that ended,
// and records what llhttp saw in the same shape the compare view uses for httpspan.

import { concatBytes, latin1Text } from './bytes.ts';
import { methodOf, type RequestMethods } from './types.ts';

/** What a parser made of one message. Offsets count bytes of the input. */
export interface PeerMessage {
  /** Requests: the method. */
  method?: string;
  /** Responses: the status code. */
  status?: number;
  /** Requests: the request-target, as sent. */
  target?: string;
  /** 'HTTP/1.1', 'HTTP/1.0', ... */
  version: string;
  /** The field lines of the head, (name, value) as the parser reports them, in order. */
  headers: [string, string][];
  /** The field lines of a chunked body's trailer section. */
  trailers: [string, string][];
  /** Bytes of body read (after chunked decoding); for an unfinished message, so far. */
  bodyLength: number;
  /** Those bytes (a copy). */
  body: Uint8Array;
  /** Whether the connection stays open after this message, as the parser judges it. */
  keepAlive: boolean;
  /** Whether the connection switches protocols after this message (101, CONNECT, Upgrade). */
  upgrade: boolean;
  /** Stream offset of the message's first byte, or -1 when unknown. */
  offset: number;
  /** Whether the message ended (its body is complete); false when the input ended or broke inside it. */
  complete: boolean;
  /** How the body is delimited, where the column reports it (the compare view's other parsers). */
  framing?: 'content-length' | 'chunked' | 'until-close' | 'none';
  /** Stream offset just after the message, where the column reports it. */
  end?: number;
}

/** Why a parser rejected the input. */
export interface PeerError {
  /** The parser's own name: an llhttp errno name ('HPE_INVALID_HEADER_TOKEN') or an httpspan code ('bare_lf'). */
  code: string;
  /** The parser's description. */
  reason: string;
  /** Byte offset the parser reports for the error (each parser has its own convention). */
  offset: number;
}

/**
 * The outcome of a parse of the whole input, as a stream that ended.
 * - 'complete': every message read ended; input after an upgrade or a closing message is not
 *   read (then `consumed` is less than the input's length).
 * - 'partial': the input ends inside a message.
 * - 'error': the parser rejected the input; `error` says where.
 */
export interface PeerResult {
  status: 'complete' | 'partial' | 'error';
  /** Every message whose head was read, in order; the last may be unfinished (`complete` false). */
  messages: PeerMessage[];
  error: PeerError | null;
  /** Bytes the parser read: the input's length, or where it stopped (upgrade, close, error). */
  consumed: number;
}

// llhttp's enums (undici/lib/llhttp/constants.js; the tests check these against it). Names come
// from the module itself (llhttp_errno_name, llhttp_method_name), so only these few are needed.
const TYPE_REQUEST = 1;
const TYPE_RESPONSE = 2;
const HPE_OK = 0;
const HPE_INVALID_EOF_STATE = 14;
const HPE_PAUSED = 21;
const HPE_PAUSED_UPGRADE = 22;
/** Return values of on_headers_complete: read no body; read no body and stop (upgrade). */
const SKIP_BODY = 1;
const SKIP_BODY_AND_UPGRADE = 2;

/** The exports of undici's llhttp module that this file uses. Pointers are byte offsets into `memory`. */
interface LlhttpExports {
  memory: WebAssembly.Memory;
  _initialize?: () => void;
  malloc(size: number): number;
  free(ptr: number): void;
  llhttp_alloc(type: number): number;
  llhttp_free(parser: number): void;
  llhttp_execute(parser: number, data: number, len: number): number;
  llhttp_finish(parser: number): number;
  llhttp_reset(parser: number): void;
  llhttp_resume(parser: number): void;
  llhttp_get_error_reason(parser: number): number;
  llhttp_get_error_pos(parser: number): number;
  llhttp_errno_name(errno: number): number;
  llhttp_method_name(method: number): number;
  llhttp_get_method(parser: number): number;
  llhttp_get_http_major(parser: number): number;
  llhttp_get_http_minor(parser: number): number;
  llhttp_get_upgrade(parser: number): number;
  llhttp_should_keep_alive(parser: number): number;
}

/** A message being read. */
interface Draft {
  message: PeerMessage;
  /** The body's pieces, joined when the parse ends. */
  pieces: Uint8Array[];
  /** Whether the last header callback was for a value (a name callback then starts a new field). */
  inValue: boolean;
  headComplete: boolean;
}

/** The state of the parse in progress, which the callbacks write to. */
interface Run {
  parser: number;
  mode: 'request' | 'response';
  requestMethod: RequestMethods;
  drafts: Draft[];
  /** Which callback paused the parser, so the loop knows what the pause position means. */
  pausedIn: 'begin' | 'complete' | null;
  /** In llhttp_finish, pausing would make it return HPE_PAUSED instead of finishing. */
  finishing: boolean;
}



/**
 * An instance of llhttp's wasm module. `parse` is synchronous and leaves nothing allocated in
 * the module between calls, so one instance serves every parse.
 */
export class Llhttp {
  readonly #ex: LlhttpExports;
  #run: Run | null = null;
  /** While a `timer` runs: callbacks only count the spans they are given. */
  #counting: { spans: number } | null = null;

  /** The module's llhttp_set_lenient_* setters, which `--insecure-http-parser` turns all on in Node. */
  readonly lenientSetters: readonly string[];

  private constructor(exports: LlhttpExports) {
    this.#ex = exports;
    this.lenientSetters = Object.keys(exports)
      .filter((name) => name.startsWith('llhttp_set_lenient_'))
      .sort();
  }

  /** Instantiates a compiled llhttp module (undici's build: it imports eight `env` callbacks). */
  static async instantiate(module: WebAssembly.Module): Promise<Llhttp> {
    // The callbacks need the instance, which needs the callbacks: they reach it through `self`.
    let self: Llhttp | null = null;
    const run = (): Run => {
      const current = self === null ? null : self.#run;
      if (current === null) throw new Error('llhttp called back outside a parse');
      return current;
    };
    // While a timer runs, each callback only counts (and asks for nothing: 0 is "go on").
    const timed =
      <A extends number[]>(callback: (...args: A) => number) =>
      (...args: A): number => {
        const counting = self === null ? null : self.#counting;
        if (counting === null) return callback(...args);
        counting.spans++;
        return 0;
      };
    const env = {
      wasm_on_message_begin: timed((_p: number) => self!.#onMessageBegin(run())),
      wasm_on_url: timed((_p: number, at: number, len: number) => self!.#onUrl(run(), at, len)),
      // The reason phrase is not compared (httpspan and llhttp both just skip it).
      wasm_on_status: timed((_p: number, _at: number, _len: number) => 0),
      wasm_on_header_field: timed((_p: number, at: number, len: number) => self!.#onHeaderField(run(), at, len)),
      wasm_on_header_value: timed((_p: number, at: number, len: number) => self!.#onHeaderValue(run(), at, len)),
      wasm_on_headers_complete: timed((_p: number, status: number, upgrade: number, keepAlive: number) =>
        self!.#onHeadersComplete(run(), status, upgrade === 1, keepAlive === 1),
      ),
      wasm_on_body: timed((_p: number, at: number, len: number) => self!.#onBody(run(), at, len)),
      wasm_on_message_complete: timed((_p: number) => self!.#onMessageComplete(run())),
    };
    const instance = await WebAssembly.instantiate(module, { env });
    const exports = instance.exports as unknown as LlhttpExports;
    // A WASI reactor: its constructors run once, before any other export.
    exports._initialize?.();
    self = new Llhttp(exports);
    return self;
  }

  /**
   * For timing: `bytes` parsed again and again by one parser, set up once. Each `run()` resets
   * the parser and executes the whole input with callbacks that only count the spans they are
   * given (the least a consumer that keeps offsets does), and returns llhttp's error number (0:
   * valid so far). `spans` is the count of the last run. `free()` releases the parser and the
   * module's copy of the input.
   */
  timer(bytes: Uint8Array, mode: 'request' | 'response'): { run(): number; readonly spans: number; free(): void } {
    if (this.#run) throw new Error('Llhttp.timer: a parse is in progress');
    const ex = this.#ex;
    const len = bytes.length;
    const parser = ex.llhttp_alloc(mode === 'request' ? TYPE_REQUEST : TYPE_RESPONSE);
    const data = ex.malloc(Math.max(len, 1));
    if (parser === 0 || data === 0) throw new Error('llhttp: out of memory');
    new Uint8Array(ex.memory.buffer, data, len).set(bytes);
    const counting = { spans: 0 };
    let freed = false;
    return {
      run: () => {
        if (freed) throw new Error('Llhttp.timer: used after free()');
        counting.spans = 0;
        this.#counting = counting;
        try {
          ex.llhttp_reset(parser);
          return ex.llhttp_execute(parser, data, len);
        } finally {
          this.#counting = null;
        }
      },
      get spans() {
        return counting.spans;
      },
      free: () => {
        if (freed) return;
        freed = true;
        ex.free(data);
        ex.llhttp_free(parser);
      },
    };
  }

  /** Bytes of the module's memory: it grows for a larger input, but not from one parse to the next. */
  get memoryBytes(): number {
    return this.#ex.memory.buffer.byteLength;
  }

  /**
   * Parses `bytes` as a stream of requests or responses that ends after them: one execute over
   * the whole input (resumed after the pauses this file asks for at each message's start and
   * end, to learn their offsets), then llhttp_finish.
   *
   * `requestMethod` (responses): the method (case-sensitive) of the requests they answer.
   * llhttp cannot know it, so this does what a client must (as undici does): after the head of a
   * response to HEAD, or of an interim 1xx, it tells llhttp there is no body, and after a 2xx to
   * CONNECT that the connection leaves HTTP. (204 and 304 llhttp knows by itself.) After an
   * upgrade (llhttp's HPE_PAUSED_UPGRADE: a 101, a CONNECT request, a request with Upgrade and
   * Connection: upgrade) nothing more is read; `consumed` says where it stopped. `insecure`
   * turns on every llhttp_set_lenient_* flag first, as Node's `--insecure-http-parser` does.
   */
  parse(bytes: Uint8Array, mode: 'request' | 'response', requestMethod: RequestMethods = 'GET', insecure = false): PeerResult {
    if (this.#run) throw new Error('Llhttp.parse is not reentrant');
    const ex = this.#ex;
    const len = bytes.length;
    const parser = ex.llhttp_alloc(mode === 'request' ? TYPE_REQUEST : TYPE_RESPONSE);
    if (insecure && parser !== 0) {
      // What Node's --insecure-http-parser does: every lenient flag of llhttp on.
      const setters = ex as unknown as Record<string, (parser: number, on: number) => void>;
      for (const name of this.lenientSetters) setters[name](parser, 1);
    }
    // malloc(0) may return null: ask for at least one byte.
    const data = ex.malloc(Math.max(len, 1));
    const run: Run = { parser, mode, requestMethod, drafts: [], pausedIn: null, finishing: false };
    try {
      if (parser === 0 || data === 0) throw new Error('llhttp: out of memory');
      // A fresh view: malloc may have grown the memory, which detaches older views.
      new Uint8Array(ex.memory.buffer, data, len).set(bytes);
      this.#run = run;

      let errno = HPE_OK;
      let pos = 0;
      // Each message pauses twice (begin, complete); a message takes at least one byte.
      for (let pauses = 0; pauses <= 2 * len + 2; pauses++) {
        errno = ex.llhttp_execute(parser, data + pos, len - pos);
        if (errno !== HPE_PAUSED) break;
        // Where the callback paused: the message's first byte, or the byte after its last.
        pos = ex.llhttp_get_error_pos(parser) - data;
        if (run.pausedIn === 'begin') run.drafts[run.drafts.length - 1].message.offset = pos;
        if (run.pausedIn === 'complete') run.drafts[run.drafts.length - 1].message.end = pos;
        run.pausedIn = null;
        ex.llhttp_resume(parser);
      }

      if (errno === HPE_OK) {
        run.finishing = true;
        // Completes a body read until the connection closes, or says the input ended inside a message.
        const end = ex.llhttp_finish(parser);
        if (end === HPE_OK) return this.#result(run, 'complete', null, len);
        if (end === HPE_INVALID_EOF_STATE) return this.#result(run, 'partial', null, len);
        return this.#result(run, 'error', this.#error(end, len), len);
      }
      const at = ex.llhttp_get_error_pos(parser) - data;
      if (errno === HPE_PAUSED_UPGRADE) {
        const last = run.drafts[run.drafts.length - 1];
        if (last) last.message.upgrade = true;
        return this.#result(run, 'complete', null, at);
      }
      return this.#result(run, 'error', this.#error(errno, at), at);
    } finally {
      this.#run = null;
      if (data !== 0) ex.free(data);
      if (parser !== 0) ex.llhttp_free(parser);
    }
  }

  #result(run: Run, status: PeerResult['status'], error: PeerError | null, consumed: number): PeerResult {
    // A message whose head llhttp did not finish is not reported (as for httpspan, whose
    // Decoder reports a head only once it is complete).
    const messages = run.drafts.filter((d) => d.headComplete).map((d) => {
      const body = concatBytes(d.pieces);
      return { ...d.message, body, bodyLength: body.length };
    });
    return { status, messages, error, consumed };
  }

  #error(errno: number, offset: number): PeerError {
    const parser = this.#run!.parser;
    return {
      code: this.#cString(this.#ex.llhttp_errno_name(errno)),
      reason: this.#cString(this.#ex.llhttp_get_error_reason(parser)),
      offset,
    };
  }

  /** A NUL-terminated string in the module's memory (llhttp's names and reasons are ASCII). */
  #cString(ptr: number): string {
    if (ptr === 0) return '';
    const memory = new Uint8Array(this.#ex.memory.buffer);
    const end = memory.indexOf(0, ptr);
    return latin1Text(memory.subarray(ptr, end < 0 ? ptr : end));
  }

  /** A copy of `len` bytes at `at` in the module's memory (the input buffer, during a parse). */
  #bytes(at: number, len: number): Uint8Array {
    return new Uint8Array(this.#ex.memory.buffer, at, len).slice();
  }

  #current(run: Run): Draft {
    const draft = run.drafts[run.drafts.length - 1];
    if (!draft) throw new Error('llhttp: data callback before on_message_begin');
    return draft;
  }

  #onMessageBegin(run: Run): number {
    run.drafts.push({
      message: {
        version: '',
        headers: [],
        trailers: [],
        bodyLength: 0,
        body: new Uint8Array(0),
        keepAlive: false,
        upgrade: false,
        offset: -1,
        complete: false,
      },
      pieces: [],
      inValue: false,
      headComplete: false,
    });
    // Pause to learn the offset (llhttp_get_error_pos). Not while finishing: no message starts then.
    if (run.finishing) return 0;
    run.pausedIn = 'begin';
    return HPE_PAUSED;
  }

  // Data callbacks may come in several pieces for one element (when an execute ends inside it),
  // so each appends to what was read so far.

  #onUrl(run: Run, at: number, len: number): number {
    const message = this.#current(run).message;
    message.target = (message.target ?? '') + latin1Text(new Uint8Array(this.#ex.memory.buffer, at, len));
    return 0;
  }

  // llhttp reports trailer fields through the same callbacks, after on_headers_complete.
  #fields(draft: Draft): [string, string][] {
    return draft.headComplete ? draft.message.trailers : draft.message.headers;
  }

  #onHeaderField(run: Run, at: number, len: number): number {
    const draft = this.#current(run);
    const piece = latin1Text(new Uint8Array(this.#ex.memory.buffer, at, len));
    const headers = this.#fields(draft);
    if (draft.inValue || headers.length === 0) headers.push([piece, '']);
    else headers[headers.length - 1][0] += piece;
    draft.inValue = false;
    return 0;
  }

  #onHeaderValue(run: Run, at: number, len: number): number {
    const draft = this.#current(run);
    const headers = this.#fields(draft);
    // llhttp reports no value callback for an empty value; a value always follows its name.
    if (headers.length === 0) headers.push(['', '']);
    headers[headers.length - 1][1] += latin1Text(new Uint8Array(this.#ex.memory.buffer, at, len));
    draft.inValue = true;
    return 0;
  }

  #onHeadersComplete(run: Run, status: number, upgrade: boolean, keepAlive: boolean): number {
    const ex = this.#ex;
    const draft = this.#current(run);
    const message = draft.message;
    draft.headComplete = true;
    draft.inValue = false;
    message.version = `HTTP/${ex.llhttp_get_http_major(run.parser)}.${ex.llhttp_get_http_minor(run.parser)}`;
    message.keepAlive = keepAlive;
    message.upgrade = upgrade;
    if (run.mode === 'request') {
      message.method = this.#cString(ex.llhttp_method_name(ex.llhttp_get_method(run.parser)));
      return 0;
    }
    message.status = status;
    // What a client must tell llhttp, which does not know the request (undici does the same,
    // except that it tunnels after any answer to CONNECT where RFC 9110 9.3.6 says 2xx).
    // The k-th final response answers the k-th request (this message's draft is the last so far).
    const requestMethod = methodOf(run.requestMethod, run.drafts.slice(0, -1).map((d) => d.message));
    if (requestMethod === 'CONNECT' && status >= 200 && status < 300) {
      message.upgrade = true;
      return SKIP_BODY_AND_UPGRADE;
    }
    if (upgrade) return 0; // A 101: llhttp stops after it by itself.
    if (requestMethod === 'HEAD' || status < 200) return SKIP_BODY;
    return 0;
  }

  #onBody(run: Run, at: number, len: number): number {
    this.#current(run).pieces.push(this.#bytes(at, len));
    return 0;
  }

  #onMessageComplete(run: Run): number {
    const draft = this.#current(run);
    draft.message.complete = true;
    // Now rather than at the head: llhttp's judgement depends on how the body was framed.
    draft.message.keepAlive = this.#ex.llhttp_should_keep_alive(run.parser) === 1;
    if (this.#ex.llhttp_get_upgrade(run.parser) === 1) draft.message.upgrade = true;
    // Pause to learn where the message ends. Not in llhttp_finish, which would then not finish.
    if (run.finishing) return 0;
    run.pausedIn = 'complete';
    return HPE_PAUSED;
  }
}

/**
 * Compiles and instantiates undici's llhttp module from its bytes, a compiled module, or a URL
 * (the default export of `virtual:llhttp-wasm`; fetched relative to the document).
 */
export async function loadLlhttp(source: BufferSource | WebAssembly.Module | URL | string): Promise<Llhttp> {
  return Llhttp.instantiate(await compile(source));
}

async function compile(source: BufferSource | WebAssembly.Module | URL | string): Promise<WebAssembly.Module> {
  if (source instanceof WebAssembly.Module) return source;
  if (typeof source !== 'string' && !(source instanceof URL)) return WebAssembly.compile(source);
  const response = await fetch(source);
  if (!response.ok) throw new Error(`llhttp: ${response.status} ${response.statusText} for ${String(source)}`);
  // compileStreaming requires the application/wasm type, which not every static host sends.
  if (typeof WebAssembly.compileStreaming === 'function' && response.headers.get('Content-Type')?.startsWith('application/wasm')) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}
