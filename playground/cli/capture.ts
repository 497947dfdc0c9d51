// The capture view in a terminal: reads a pcap or pcapng file with the playground's own reader,
// reassembler and framing (src/lib/capture/), runs every message through the other parsers, and
// prints one line per message, or the JSON summary the playground exports.
//
//   npx tsx cli/capture.ts [--json] [--no-compare] [--check] FILE
//
// Exit status: 0 read; 1 the file cannot be read (or bad usage); 2 with --check, when a message
// has an error, is cut short, or the parsers disagree on it.

import { readFileSync } from 'node:fs';
import { CaptureError } from '../src/lib/capture/reader.ts';
import { LINK_TYPES } from '../src/lib/capture/packet.ts';
import { agreementOf, frameCapture, messageTitle, parserNames, summaryJson, type Agreement, type CaptureParsers } from '../src/lib/capture/report.ts';
import { loadLlhttp } from '../src/lib/llhttp.ts';
import { readLlhttpWasm, readUndiciVersion } from '../vite-plugins/llhttp.ts';
import { loadBuiltParsers } from './node-parsers.ts';

const USAGE = 'usage: capture [--json] [--no-compare] [--check] FILE.pcap|FILE.pcapng';

async function main(argv: string[]): Promise<number> {
  const flags = new Set(argv.filter((a) => a.startsWith('--')));
  const files = argv.filter((a) => !a.startsWith('--'));
  const unknown = [...flags].filter((f) => !['--json', '--no-compare', '--check', '--help'].includes(f));
  if (flags.has('--help') || files.length !== 1 || unknown.length) {
    console.error(unknown.length ? `unknown option ${unknown[0]}\n${USAGE}` : USAGE);
    return flags.has('--help') ? 0 : 1;
  }
  let file: Uint8Array;
  try {
    file = new Uint8Array(readFileSync(files[0]));
  } catch (e) {
    console.error(`${files[0]}: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
  let report;
  try {
    report = frameCapture(file);
  } catch (e) {
    if (!(e instanceof CaptureError)) throw e;
    console.error(`${files[0]}: ${e.message}`);
    return 1;
  }
  const agreements = new Map<number, Agreement>();
  let names: string[] = [];
  if (!flags.has('--no-compare')) {
    const external = await loadBuiltParsers();
    const parsers: CaptureParsers = {
      llhttp: await loadLlhttp(readLlhttpWasm()),
      llhttpLabel: `llhttp (undici ${readUndiciVersion()})`,
      external: [external.httparse, external.pico, external.go],
    };
    names = parserNames(parsers);
    report.messages.forEach((m, i) => agreements.set(i, agreementOf(file, report, m, parsers)));
  }
  if (flags.has('--json')) console.log(JSON.stringify(summaryJson(report, agreements, names), null, 2));
  else {
    const links = report.linkTypes.map((t) => LINK_TYPES[t] ?? `link type ${t}`).join(', ');
    console.log(`${files[0]}: ${report.format}, ${links}, ${report.packets} packets, ${report.connections.length} TCP connections, ${report.messages.length} messages`);
    for (const p of report.problems) console.log(`  at byte ${p.offset}: ${p.message}`);
    for (const s of report.skippedPackets) console.log(`  ${s.count} packets skipped: ${s.reason}`);
    if (names.length) console.log(`  verdicts: ${names.join(' ')} (✓ accepts as most do, ≠ other framing, ✗ rejects)`);
    const addr = (e: { address: string; port: number }): string => (e.address.includes(':') ? `[${e.address}]:${e.port}` : `${e.address}:${e.port}`);
    const ids = new Map(report.messages.map((m, i) => [m, i]));
    for (const c of report.connections) {
      console.log(`#${c.id} ${addr(c.client)} -> ${addr(c.server)}  ${c.toServer.length} B up, ${c.toClient.length} B down${c.skipped ? `  skipped: ${c.skipped}` : ''}`);
      for (const n of c.notes) console.log(`  note: ${n}`);
      for (const x of c.toServer.conflicts.concat(c.toClient.conflicts)) console.log(`  conflict: packet ${x.packet + 1} differs from packet ${x.keptPacket + 1} at stream byte ${x.at} (${x.length} bytes); first copy kept`);
      for (const m of c.messages) {
        const a = agreements.get(ids.get(m)!);
        const outcome = m.outcome === 'error' ? `error ${m.error!.code} at ${m.error!.offset}` : m.outcome === 'incomplete' ? 'cut short' : `${m.framing} ${m.bodyLength} B`;
        const verdicts = a ? `  ${a.verdicts.map((v) => (v === 'accept' ? '✓' : v === 'reject' ? '✗' : '≠')).join('')}${a.disagree ? `  ${a.line}` : ''}` : '';
        console.log(`  ${m.direction === 'request' ? '->' : '<-'} ${m.start}-${m.end}  ${messageTitle(m)}  ${outcome}${verdicts}`);
      }
    }
  }
  if (flags.has('--check')) {
    const bad = report.messages.some((m, i) => m.outcome !== 'complete' || agreements.get(i)?.disagree);
    return bad ? 2 : 0;
  }
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
