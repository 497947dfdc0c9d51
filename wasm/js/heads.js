// The object API's heads (parseRequest, parseResponse): each owns its words and bytes and
// decodes strings when they are read.

import { SHORT_SPAN, headText, shortText, spanText } from './text.js';
import { RequestAccessors, RequestSpans, ResponseAccessors, ResponseSpans, ViewAccessors, addAccessors, fieldList, knownIndexOf, plainHead, useHeads } from './views.js';

/**
 * The object API's heads (parseRequest, parseResponse, the Decoder's head events): a view over
 * its own copy of the span words of a complete head, plus `fields` and `knownIndex`, made when
 * first read. The properties are getters, so spreading a head or cloning it (structuredClone,
 * postMessage) copies none of them: `toObject()` gives every property as plain data, `toJSON()`
 * the same with the bigints as decimal strings. Like the views, each kind is a class literal
 * that declares its own storage, with the shared accessors copied onto its prototype (see
 * RequestSpans for why); its view class's prototype sits behind its own, so that a head is
 * `instanceof RequestSpans` (or ResponseSpans). Its words and bytes are its own and always
 * complete, so no read checks a parse or a state.
 */
export class RequestHead {
  #spans;
  #bytes;
  #text = null;
  #fields = null;
  #knownIndex = null;

  constructor(spans, bytes) {
    this.#spans = spans;
    this.#bytes = bytes;
  }

  get spans() {
    return this.#spans;
  }

  get bytes() {
    return this.#bytes;
  }

  words() {
    return this.#spans;
  }

  text(word) {
    if (this.#text === null && word >>> 16 < SHORT_SPAN) return shortText(this.#bytes, word & 0xffff, word >>> 16);
    return spanText((this.#text ??= headText(this.#spans, this.#bytes)), word);
  }

  get fields() {
    return (this.#fields ??= fieldList(this));
  }

  get knownIndex() {
    return (this.#knownIndex ??= knownIndexOf(this));
  }
}

/** A complete response head of the object API: RequestHead's storage, in a class of its own. */
export class ResponseHead {
  #spans;
  #bytes;
  #text = null;
  #fields = null;
  #knownIndex = null;

  constructor(spans, bytes) {
    this.#spans = spans;
    this.#bytes = bytes;
  }

  get spans() {
    return this.#spans;
  }

  get bytes() {
    return this.#bytes;
  }

  words() {
    return this.#spans;
  }

  text(word) {
    if (this.#text === null && word >>> 16 < SHORT_SPAN) return shortText(this.#bytes, word & 0xffff, word >>> 16);
    return spanText((this.#text ??= headText(this.#spans, this.#bytes)), word);
  }

  get fields() {
    return (this.#fields ??= fieldList(this));
  }

  get knownIndex() {
    return (this.#knownIndex ??= knownIndexOf(this));
  }
}

/** What the object API's heads have beyond the accessors of their kind of view. */
class HeadAccessors {
  /** Every property decoded, as own data properties of a plain object. */
  toObject() {
    return plainHead(this, this.fields);
  }

  toJSON() {
    const object = this.toObject();
    object.knownBitmap = String(object.knownBitmap);
    if (object.contentLength !== null) object.contentLength = String(object.contentLength);
    return object;
  }
}

addAccessors(RequestHead, ViewAccessors, RequestAccessors, HeadAccessors);
addAccessors(ResponseHead, ViewAccessors, ResponseAccessors, HeadAccessors);
Object.setPrototypeOf(RequestHead.prototype, RequestSpans.prototype);
Object.setPrototypeOf(ResponseHead.prototype, ResponseSpans.prototype);

useHeads(RequestHead, ResponseHead);
