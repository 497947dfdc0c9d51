// Feeds inputs to Node's built-in HTTP/1.1 parser (llhttp, with Node's default strict
// settings, as an http server or client uses it) and prints what it made of each.
//
// stdin: one JSON object per line: {"kind": "request"|"response", "method": "GET"|"HEAD"|...,
// "input": "<bytes as a Latin-1 string>"}. stdout: one JSON object per input line:
// {"messages": [...], "end": "closed"|"incomplete"|"error", "code": "HPE_...", "reason": "...",
// "offset": N}. A message is {method, url, version, status, reason, headers: [[name, value]],
// body, keepAlive, upgrade}, strings in Latin-1. The first output line is {"methods": [...]},
// the methods llhttp knows.
'use strict';

const { HTTPParser, methods } = process.binding('http_parser');
const readline = require('readline');

function run(kind, method, input) {
  const parser = new HTTPParser();
  parser.initialize(kind === 'request' ? HTTPParser.REQUEST : HTTPParser.RESPONSE, {}, 0,
    HTTPParser.kLenientNone);
  const messages = [];
  let current = null;
  let pendingHeaders = [];
  let pendingUrl = '';
  parser[HTTPParser.kOnHeaders] = (headers, url) => {
    pendingHeaders = pendingHeaders.concat(headers);
    pendingUrl += url;
  };
  parser[HTTPParser.kOnHeadersComplete] = (major, minor, headers, m, url, status, reason,
    upgrade, keepAlive) => {
    const flat = headers ? pendingHeaders.concat(headers) : pendingHeaders;
    const pairs = [];
    for (let i = 0; i + 1 < flat.length; i += 2) pairs.push([flat[i], flat[i + 1]]);
    current = {
      method: kind === 'request' ? methods[m] : undefined,
      url: kind === 'request' ? pendingUrl + (url || '') : undefined,
      version: `HTTP/${major}.${minor}`,
      status: kind === 'response' ? status : undefined,
      reason: kind === 'response' ? reason : undefined,
      headers: pairs,
      body: '',
      keepAlive: !!keepAlive,
      upgrade: !!upgrade,
    };
    pendingHeaders = [];
    pendingUrl = '';
    // As Node's client does: no body for a response to HEAD.
    return kind === 'response' && method === 'HEAD' ? 1 : 0;
  };
  parser[HTTPParser.kOnBody] = (chunk) => {
    current.body += chunk.toString('latin1');
  };
  parser[HTTPParser.kOnMessageComplete] = () => {
    messages.push(current);
    current = null;
  };
  const buf = Buffer.from(input, 'latin1');
  let result = parser.execute(buf);
  if (!(result instanceof Error)) {
    result = parser.finish();
  }
  const out = { messages };
  if (!(result instanceof Error)) {
    out.end = 'closed';
  } else if (result.code === 'HPE_INVALID_EOF_STATE') {
    // finish() found the stream ended inside a message.
    out.end = 'incomplete';
  } else {
    Object.assign(out, { end: 'error', code: result.code, reason: result.reason,
      offset: result.bytesParsed });
  }
  parser.close();
  return out;
}

const rl = readline.createInterface({ input: process.stdin });
const lines = [];
rl.on('line', (line) => {
  if (!line.trim()) return;
  const { kind, method, input } = JSON.parse(line);
  lines.push(JSON.stringify(run(kind, method || 'GET', input)));
});
rl.on('close', () => {
  process.stdout.write(JSON.stringify({ methods }) + '\n');
  process.stdout.write(lines.length ? lines.join('\n') + '\n' : '');
});
