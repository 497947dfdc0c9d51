// Every lesson of the lab, on the real parsers: its starting input does not meet its goal, its
// stored answer does, and strict httpspan's verdict on the answer is what the lesson shows.

import { beforeAll, describe, expect, it } from 'vitest';
import { pairVerdict, runChain, runResponses, type ChainResult } from '../../src/lib/lab/chain.ts';
import type { LabConfig } from '../../src/lib/lab/configs.ts';
import { desyncGrid } from '../../src/lib/lab/grid.ts';
import { LESSONS, goalMet, lessonBytes, runLesson, strictRefusal } from '../../src/lib/lab/lessons.ts';
import { labFragment, parseLabFragment, type LabRoute } from '../../src/lib/lab/route.ts';
import { loadLabConfigs } from '../../cli/node-lab.ts';

let configs: LabConfig[];
beforeAll(async () => {
  configs = await loadLabConfigs();
});
const config = (id: string): LabConfig => {
  const found = configs.find((c) => c.id === id);
  if (!found) throw new Error(`no configuration ${id}`);
  return found;
};

describe('lessons', () => {
  it('have unique ids and name pairs the lab has', () => {
    expect(new Set(LESSONS.map((l) => l.id)).size).toBe(LESSONS.length);
    for (const l of LESSONS) {
      expect(configs.map((c) => c.id)).toContain(l.front);
      expect(configs.map((c) => c.id)).toContain(l.back);
    }
  });
  for (const lesson of LESSONS) {
    it(`${lesson.id}: the start does not meet the goal, the stored answer does`, () => {
      const run = (text: string) => runLesson(lesson, lessonBytes(text), config(lesson.front), config(lesson.back));
      const start = run(lesson.start);
      expect(goalMet(lesson, start), `start of ${lesson.id}: ${start.summary.join(' ')}`).toBe(false);
      const answer = run(lesson.answer);
      expect(goalMet(lesson, answer), `answer of ${lesson.id}: ${answer.summary.join(' ')}`).toBe(true);
      // Strict httpspan refuses every answer: each one breaks a rule of RFC 9112.
      const refusal = strictRefusal(lessonBytes(lesson.answer), lesson.direction);
      expect(refusal, lesson.id).not.toBeNull();
      expect(refusal!.offset).toBeLessThan(lesson.answer.length);
    });
  }
  it('the desync lessons name the request the back end alone sees', () => {
    const byId = (id: string) => LESSONS.find((l) => l.id === id)!;
    for (const id of ['http10-te', 'te-space-before-colon', 'ignored-field-line', 'cl-space-before-colon']) {
      const l = byId(id);
      const r = runChain(lessonBytes(l.answer), config(l.front), config(l.back), l.forwarding);
      expect(r.desync?.hidden.filter((h) => h.complete).map((h) => h.startLine), id).toEqual(['GET /admin HTTP/1.1']);
    }
    const p = byId('poison-victim');
    const poisoned = runChain(lessonBytes(p.answer), config(p.front), config(p.back), p.forwarding);
    expect(poisoned.desync?.victim.startLine).toBe('GET /admin HTTP/1.1');
    expect(poisoned.desync?.victim.outcome).toBe('poisoned');
  });
  describe('the response-side lesson', () => {
    const l = LESSONS.find((x) => x.id === 'response-te-space')!;
    /** The origin's responses through a pair: the back end reads them first, the front end next. */
    const run = (text: string, front = l.front, back = l.back, forwarding = l.forwarding) =>
      runResponses(lessonBytes(text), config(front), config(back), forwarding);
    const verdict = (r: ChainResult) => pairVerdict(r.verdict, r.roles);
    it('runs responses: the back end (Go) reads one, the front end (llhttp insecure) two, and the next client gets the hidden one', () => {
      expect(l.direction).toBe('response');
      expect([l.front, l.back]).toEqual(['llhttp-insecure', 'go']);
      const r = run(l.answer);
      expect(r.roles).toEqual({ first: 'back end', second: 'front end' });
      expect(r.frontRequests.map((f) => [f.startLine, f.message.bodyLength])).toEqual([['HTTP/1.1 200', 48]]);
      expect(r.backRequests.map((b) => [b.startLine, b.message.bodyLength])).toEqual([
        ['HTTP/1.1 200', 0],
        ['HTTP/1.1 200', 5],
      ]);
      expect(new TextDecoder().decode(r.backRequests[1].message.body)).toBe('pwned');
      expect(r.desync?.hidden.filter((h) => h.complete).map((h) => h.upstream)).toEqual([{ start: r.backRequests[1].upstream.start, end: r.upstream.length }]);
      // The next client's request is answered with the hidden response, not its own (which starts where the forwarded bytes end).
      expect(r.desync?.victim.outcome).toBe('poisoned');
      expect(r.desync?.victim.text).toContain(`upstream bytes ${r.backRequests[1].upstream.start}–${r.upstream.length}, which the back end never forwarded`);
      expect(r.desync?.victim.text).toContain("answered with the front end's response 2");
      expect(r.summary[0]).toMatch(/^Desync: the front end's response boundaries leave the back end's at upstream byte 73\./);
      expect(r.summary[1]).toBe('The back end (Go ReadResponse) reads 1 response: "HTTP/1.1 200".');
    });
    it('the hidden response is real only between these readers: re-serializing ends it, and hyper strict or Go in front of Go agrees', () => {
      expect(goalMet(l, run(l.answer, l.front, l.back, 'reserialize'))).toBe(false);
      expect(verdict(run(l.answer, 'go', 'go'))).toBe('agree');
      // httparse without allow_spaces_after_header_name_in_responses refuses the line (hyper's client default).
      expect(verdict(run(l.answer, 'httparse', 'go'))).toBe('front-rejects');
      // hyper's client with that option on reads the line as Transfer-Encoding, as llhttp insecure does.
      expect(goalMet(l, run(l.answer, 'httparse-lenient', 'go'))).toBe(true);
    });
    it('HTTP/1.0 with Transfer-Encoding: Go reads one response, llhttp insecure two; hyper (httparse) and Node by default refuse', () => {
      const h = LESSONS.find((x) => x.id === 'response-http10-te')!;
      const r = runLesson(h, lessonBytes(h.answer), config(h.front), config(h.back));
      expect(r.frontRequests.map((f) => [f.startLine, f.message.bodyLength])).toEqual([['HTTP/1.0 200', 48]]);
      expect(r.backRequests.map((b) => [b.startLine, b.message.bodyLength])).toEqual([
        ['HTTP/1.0 200', 0],
        ['HTTP/1.1 200', 5],
      ]);
      expect(r.desync?.victim.startLine).toBe('HTTP/1.1 200');
      for (const front of ['httparse', 'llhttp']) {
        expect(verdict(runResponses(lessonBytes(h.answer), config(front), config('go'), 'raw')), front).toBe('front-rejects');
      }
    });
    it('a request lesson\'s goal is not met by a response chain, nor the other way round', () => {
      const te = LESSONS.find((x) => x.id === 'te-space-before-colon')!;
      expect(goalMet(te, run(l.answer))).toBe(false);
      const requestRun = runChain(lessonBytes(te.answer), config(te.front), config(te.back), te.forwarding);
      expect(goalMet(l, requestRun)).toBe(false);
    });
  });
  describe('the lessons where the back end refuses', () => {
    const refusing = LESSONS.filter((l) => l.goal === 'back-refuses');
    it('are the seven tricks that desync no pair here', () => {
      expect(refusing.map((l) => l.id)).toEqual([
        'te-obfuscated',
        'duplicate-content-length',
        'obs-fold',
        'bare-lf',
        'chunk-size-0x',
        'chunk-size-digits',
        'chunk-extension',
      ]);
    });
    for (const l of refusing) {
      it(`${l.id}: the back end refuses the forwarded answer where the afterword says, and no pair desyncs on it`, () => {
        const answer = lessonBytes(l.answer);
        const run = runChain(answer, config(l.front), config(l.back), l.forwarding);
        expect(run.verdict).toBe('back-rejects');
        expect(run.frontRequests.length, 'the front end forwards the answer').toBe(1);
        expect(l.backRefusal, 'a back-refuses lesson names the refusal it wants').toBeDefined();
        expect(l.afterword).toContain(`at upstream byte ${run.back.error!.offset}`);
        // The lesson exists because the trick splits no pair: a desync here would need a lesson of its own.
        for (const forwarding of ['raw', 'reserialize'] as const) {
          const desyncs = desyncGrid(answer, configs, forwarding).cells.filter((c) => c.verdict === 'desync');
          expect(desyncs.map((c) => `${c.front.id}>${c.back.id}`), `${l.id}, ${forwarding}`).toEqual([]);
        }
      });
    }
    it('are not met by the back end refusing something else', () => {
      const dup = LESSONS.find((l) => l.id === 'duplicate-content-length')!;
      const fold = LESSONS.find((l) => l.id === 'obs-fold')!;
      // The same pair refuses the folded line: a refusal, but not the duplicate Content-Length.
      const other = runChain(lessonBytes(fold.answer), config(dup.front), config(dup.back), dup.forwarding);
      expect(other.verdict).toBe('back-rejects');
      expect(goalMet(dup, other)).toBe(false);
      expect(goalMet(fold, other)).toBe(true);
    });
  });
  it('strict httpspan refuses each answer where the lesson says', () => {
    const at = Object.fromEntries(
      LESSONS.map((l) => {
        const refusal = strictRefusal(lessonBytes(l.answer), l.direction);
        return [l.id, `${refusal?.code}@${refusal?.offset}`];
      }),
    );
    expect(at).toMatchInlineSnapshot(`
      {
        "bare-lf": "bare_lf@60",
        "chunk-extension": "invalid_chunk_extension@81",
        "chunk-size-0x": "invalid_chunk_size@74",
        "chunk-size-digits": "chunk_size_too_long@89",
        "cl-space-before-colon": "whitespace_before_colon@57",
        "cl-te": "content_length_with_transfer_encoding@62",
        "duplicate-content-length": "duplicate_content_length@62",
        "http10-te": "content_length_with_transfer_encoding@87",
        "ignored-field-line": "whitespace_before_colon@80",
        "obs-fold": "obs_fold@54",
        "poison-victim": "whitespace_before_colon@57",
        "response-http10-te": "content_length_with_transfer_encoding@61",
        "response-te-space": "whitespace_before_colon@54",
        "te-cl": "content_length_with_transfer_encoding@71",
        "te-obfuscated": "chunked_not_last@43",
        "te-space-before-colon": "whitespace_before_colon@80",
      }
    `);
  });
});

describe('lab links', () => {
  it('round-trip a lesson, a pair (with and without the origin’s responses) and a grid of requests or responses', () => {
    const bytes = lessonBytes(LESSONS[2].answer);
    const responses = { bytes: lessonBytes('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n'), method: 'HEAD' };
    const routes: LabRoute[] = [
      { view: 'lessons' },
      { view: 'lesson', lesson: 'http10-te', bytes },
      { view: 'pair', front: 'go', back: 'llhttp-insecure', forwarding: 'reserialize', bytes, responses: null },
      { view: 'pair', front: 'llhttp-insecure', back: 'go', forwarding: 'raw', bytes, responses },
      { view: 'pair', front: 'llhttp', back: 'httparse', forwarding: 'raw', bytes: new Uint8Array(0), responses },
      { view: 'grid', forwarding: 'raw', bytes, direction: 'request', method: 'GET' },
      { view: 'grid', forwarding: 'reserialize', bytes: responses.bytes, direction: 'response', method: 'HEAD' },
    ];
    for (const route of routes) expect(parseLabFragment(labFragment(route))).toEqual(route);
    // The origin's part is told apart from the requests, and must be responses.
    const pair = labFragment(routes[3]).split('/');
    expect(pair).toHaveLength(7);
    expect(() => parseLabFragment([...pair.slice(0, 6), pair[5]].join('/'))).toThrow('not responses');
  });
  it('say what is wrong with a broken link', () => {
    expect(() => parseLabFragment('lab/pair/go')).toThrow('names no pair');
    expect(() => parseLabFragment('lab/grid/sideways/v1.AA')).toThrow('unknown forwarding');
    expect(() => parseLabFragment('lab/grid/raw/v1.!!')).toThrow();
    expect(() => parseLabFragment('lab/elsewhere')).toThrow('unknown lab page');
  });
});
