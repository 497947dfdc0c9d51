// The lab's places in the URL fragment, so that a lesson's state, a pair with its input and a
// grid can be shared. The input bytes travel as a playground share link (share.ts, `v1.`), so
// they are deflated with the same dictionary and decoded with the same checks:
//
//   #lab                                    the lessons
//   #lab/lesson/<id>[/<v1 link>]            a lesson, with the input typed so far
//   #lab/pair/<front>/<back>/<raw|reserialize>/<v1 link>[/<v1 link of the origin's responses>]
//   #lab/grid/<raw|reserialize>/<v1 link>
//
// A link of responses says so (mode 'response') and carries the method they answer, so the grid
// runs on requests or responses as its link says. base64url has no '/', so the parts split cleanly.

import { decodeShare, encodeShare } from '../share.ts';
import type { Direction, Forwarding } from './chain.ts';

/** Responses an origin sends, and the method of the requests they answer where no requests are given. */
export interface OriginResponses {
  bytes: Uint8Array;
  method: string;
}

export type LabRoute =
  | { view: 'lessons' }
  | { view: 'lesson'; lesson: string; bytes: Uint8Array | null }
  | { view: 'pair'; front: string; back: string; forwarding: Forwarding; bytes: Uint8Array; responses: OriginResponses | null }
  | { view: 'grid'; forwarding: Forwarding; bytes: Uint8Array; direction: Direction; method: string };

/** Whether a fragment (with or without '#') is the lab's. */
export function isLabFragment(fragment: string): boolean {
  const text = fragment.replace(/^#/, '');
  return text === 'lab' || text.startsWith('lab/');
}

function packBytes(bytes: Uint8Array, mode: Direction = 'request', requestMethod = 'GET'): string {
  return encodeShare({ bytes, options: { mode, requestMethod, lenient: [] }, view: 'raw', step: null, selected: null });
}

function forwardingOf(text: string): Forwarding {
  if (text === 'raw' || text === 'reserialize') return text;
  throw new Error(`unknown forwarding "${text}": raw or reserialize`);
}

/** The fragment (without '#') of a place in the lab. */
export function labFragment(route: LabRoute): string {
  switch (route.view) {
    case 'lessons':
      return 'lab';
    case 'lesson':
      return `lab/lesson/${route.lesson}${route.bytes ? `/${packBytes(route.bytes)}` : ''}`;
    case 'pair':
      return `lab/pair/${route.front}/${route.back}/${route.forwarding}/${packBytes(route.bytes)}${route.responses ? `/${packBytes(route.responses.bytes, 'response', route.responses.method)}` : ''}`;
    case 'grid':
      return `lab/grid/${route.forwarding}/${packBytes(route.bytes, route.direction, route.method)}`;
  }
}

/** The place a lab fragment names; throws an Error saying what is wrong. */
export function parseLabFragment(fragment: string): LabRoute {
  const parts = fragment.replace(/^#/, '').split('/');
  if (parts[0] !== 'lab') throw new Error('not a lab link');
  const bytes = (part: string | undefined): Uint8Array => {
    if (part === undefined) throw new Error('the link has no input');
    return decodeShare(part).bytes;
  };
  switch (parts[1]) {
    case undefined:
      return { view: 'lessons' };
    case 'lesson':
      if (!parts[2]) throw new Error('the link names no lesson');
      return { view: 'lesson', lesson: parts[2], bytes: parts[3] === undefined ? null : bytes(parts[3]) };
    case 'pair': {
      if (!parts[2] || !parts[3]) throw new Error('the link names no pair');
      const responses = parts[6] === undefined ? null : decodeShare(parts[6]);
      if (responses && responses.options.mode !== 'response') throw new Error('the origin’s part of the link is not responses');
      return {
        view: 'pair',
        front: parts[2],
        back: parts[3],
        forwarding: forwardingOf(parts[4] ?? ''),
        bytes: bytes(parts[5]),
        responses: responses ? { bytes: responses.bytes, method: responses.options.requestMethod } : null,
      };
    }
    case 'grid': {
      const forwarding = forwardingOf(parts[2] ?? '');
      if (parts[3] === undefined) throw new Error('the link has no input');
      const state = decodeShare(parts[3]);
      return { view: 'grid', forwarding, bytes: state.bytes, direction: state.options.mode, method: state.options.requestMethod };
    }
    default:
      throw new Error(`unknown lab page "${parts[1]}"`);
  }
}
