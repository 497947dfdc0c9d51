//! A connection-level decoder: heads, bodies, trailers and pipelining over a byte stream that
//! arrives in pieces of any size.
//!
//! The decoder is a pull parser. Give [`Decoder::decode`] the bytes you have; it returns how many
//! it consumed and one [`Event`]. Call it again with the rest until it says
//! [`Event::NeedMore`], then with the next piece from the network. At the end of the stream,
//! call [`Decoder::finish`] until it returns [`Event::Closed`] or [`Event::Incomplete`].
//!
//! Heads and trailer sections are copied into a buffer that the caller provides (so that a head
//! split across pieces can be parsed in place, and so that the decoder allocates nothing); body
//! data is never copied: [`Event::Body`] is a range of the piece just given.
//!
//! ```
//! use httpspan::stream::{Decoder, Event};
//!
//! let wire: &[&[u8]] = &[b"POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nab",
//!                        b"c\r\n0\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n"];
//! let mut decoder = Decoder::for_requests(vec![0u8; httpspan::stream::DEFAULT_BUFFER_LEN]);
//! let (mut targets, mut body) = (Vec::new(), Vec::new());
//! for piece in wire {
//!     let mut input = *piece;
//!     loop {
//!         let (used, event) = decoder.decode(input)?;
//!         match &event {
//!             Event::Head => {
//!                 let req = decoder.request().unwrap();
//!                 targets.push(req.target().as_bytes(decoder.head_bytes()).to_vec());
//!             }
//!             Event::Body(range) => body.extend_from_slice(&input[range.clone()]),
//!             _ => {}
//!         }
//!         input = &input[used..];
//!         if event == Event::NeedMore || event == Event::Closed { break; }
//!     }
//! }
//! assert_eq!(decoder.finish()?, Event::Closed);
//! assert_eq!(targets, [b"/a".to_vec(), b"/b".to_vec()]);
//! assert_eq!(body, b"abc");
//! # Ok::<(), httpspan::Error>(())
//! ```

use core::ops::Range;

use crate::chunked::{Chunk, ChunkLine, ChunkedDecoder};
use crate::error::{Error, ErrorKind};
use crate::framing::Framing;
use crate::head::Status;
use crate::limits::Limits;
use crate::request::Request;
use crate::response::Response;
use crate::trailers::Trailers;

/// What the decoder found. More kinds of event may be added, so a `match` needs a wildcard arm.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Event {
    /// A head is complete: read it with [`Decoder::request`] or [`Decoder::response`], whose
    /// spans index [`Decoder::head_bytes`].
    Head,
    /// Body data (after chunked decoding): these bytes of the input given to this call.
    Body(Range<usize>),
    /// Only after [`Decoder::report_chunk_lines`]: a line of a chunked body (chunk-size,
    /// chunk-ext, line end; the last chunk's too) has been consumed. It ends (one past its LF)
    /// where the bytes consumed by this call end, and started [`line_len`](ChunkLine::line_len) bytes
    /// before, perhaps in an earlier input.
    ChunkLine(ChunkLine),
    /// A non-empty trailer section is complete: read it with [`Decoder::trailers`], whose spans
    /// index [`Decoder::trailer_bytes`].
    Trailers,
    /// The message is complete. Its head and trailers stay readable until the next call.
    MessageEnd,
    /// All input was consumed; give the next piece.
    NeedMore,
    /// The decoder reads nothing more: the last message did not keep the connection alive, or
    /// switched protocols, or the stream ended cleanly. Bytes after it are the caller's.
    Closed,
    /// From [`Decoder::finish`] only: the stream ended inside a message.
    Incomplete,
}

/// Which side of the connection the stream comes from.
///
/// Exhaustive for good: an HTTP message is a request or a response.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessageKind {
    /// A stream of requests, as a server reads it.
    Request,
    /// A stream of responses, as a client reads it.
    Response,
}

#[derive(Clone, Debug)]
enum Parser<const N: usize> {
    Request(Request<N>),
    Response(Response<N>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Head,
    Length(u64),
    Chunked,
    /// A chunked body whose lines are reported.
    ChunkLines,
    Trailers,
    UntilClose,
    /// The message is complete; `MessageEnd` is next.
    End,
    /// `MessageEnd` was returned; the next call starts the next message.
    Between,
    Closed,
    Failed(Error),
}

/// The stream decoder. `B` is the buffer for heads and trailer sections: an array, a
/// `&mut [u8]`, a `Vec<u8>` or a `Box<[u8]>`; [`buffer_len`] says how large it must be
/// for the limits to be the only bound.
///
/// `N` is the number of field slots of its head and trailer parsers (at most 255), as in
/// [`Request<N>`]: field lines are bounded by the smaller of `N` and
/// [`Limits::max_field_lines`], so more slots are the way to take more field lines (see
/// [`with_slots`](Self::with_slots)).
///
/// With the default 64 slots a `Decoder` is about 1.6 KiB plus the buffer; each further slot
/// adds a few bytes to each of its two parsers. It never allocates.
#[derive(Clone, Debug)]
pub struct Decoder<B, const N: usize = 64> {
    buf: B,
    parser: Parser<N>,
    trailers: Trailers<N>,
    chunked: ChunkedDecoder,
    /// Whether chunked bodies are decoded in `State::ChunkLines`.
    chunk_lines: bool,
    limits: Limits,
    state: State,
    /// Bytes of `buf` in use: the head, then the head and the trailer section.
    filled: usize,
    head_len: usize,
    /// Stream offset of `buf[0]`.
    message_start: u64,
    /// Stream offset of the first trailer byte.
    trailer_start: u64,
    /// Stream offset of the next byte to be consumed.
    position: u64,
    body_len: u64,
}

/// The buffer size that the default limits need: 8 KiB of head, 4 bytes of empty lines before
/// it, and 64 KiB of trailers.
pub const DEFAULT_BUFFER_LEN: usize = buffer_len(&Limits::DEFAULT);

/// The buffer size at which `limits`, not the buffer, bound heads and trailer sections.
#[must_use]
pub const fn buffer_len(limits: &Limits) -> usize {
    let trailers = if limits.max_trailer_bytes > 65536 {
        65536
    } else {
        limits.max_trailer_bytes as usize
    };
    limits.max_head_bytes as usize + 4 + trailers
}

/// What [`fill_and_parse`] did with a piece of input.
enum Fill {
    /// All of the piece was taken and the section is still incomplete.
    Partial { taken: usize },
    /// The section is complete: `len` bytes long, of which `taken` came from this piece.
    Complete { taken: usize, len: usize },
}

/// Appends `input` to `buf[..*filled]` and parses the section that starts at `start` (a head
/// at 0, or a trailer section after the head) with `parse`, which resumes where its previous call
/// stopped. Error offsets are relative to `start`. A section that does not fit in `buf` is too
/// large: `head_too_large` at 0, `trailers_too_large` after it.
///
/// The input is copied in steps that double from 512 bytes, so a section that arrives with much
/// more behind it (a body, pipelined messages) costs a copy of at most about twice its size,
/// not of the whole buffer; `parse` resumes after each step, so no byte is scanned twice.
fn fill_and_parse(
    buf: &mut [u8],
    filled: &mut usize,
    start: usize,
    input: &[u8],
    mut parse: impl FnMut(&[u8]) -> Result<Status, Error>,
) -> Result<Fill, Error> {
    let mut taken = 0;
    let mut step = 512;
    while taken < input.len() {
        let n = (input.len() - taken).min(buf.len() - *filled).min(step);
        buf[*filled..*filled + n].copy_from_slice(&input[taken..taken + n]);
        match parse(&buf[start..*filled + n])? {
            Status::Complete { head_len } => {
                // The previous parse ended Partial before `*filled`, so the section ends in
                // this step.
                let used = start + head_len - *filled;
                *filled = start + head_len;
                return Ok(Fill::Complete {
                    taken: taken + used,
                    len: head_len,
                });
            }
            // The buffer is full and a byte of the section is left over: it does not fit (that
            // byte, present in the input, is where the error points).
            Status::Partial if *filled + n == buf.len() && taken + n < input.len() => {
                let kind = match start {
                    0 => ErrorKind::HeadTooLarge,
                    _ => ErrorKind::TrailersTooLarge,
                };
                return Err(Error::new(kind, buf.len() - start));
            }
            Status::Partial => {
                *filled += n;
                taken += n;
                step *= 2;
            }
        }
    }
    Ok(Fill::Partial { taken })
}

// The constructors without a slot count are for the default 64 slots only, so that
// `Decoder::new(..)` needs no annotation (a const generic's default is not used in inference).
impl<B: AsRef<[u8]> + AsMut<[u8]>> Decoder<B> {
    /// A decoder for a stream of requests, with 64 field slots and the default limits.
    pub fn for_requests(buf: B) -> Self {
        Self::new(MessageKind::Request, buf, Limits::DEFAULT)
    }

    /// A decoder for a stream of responses, with 64 field slots and the default limits.
    pub fn for_responses(buf: B) -> Self {
        Self::new(MessageKind::Response, buf, Limits::DEFAULT)
    }

    /// A decoder for `kind` messages with 64 field slots and these limits. A buffer smaller
    /// than [`buffer_len`] lowers the head and trailer limits to what fits.
    pub fn new(kind: MessageKind, buf: B, limits: Limits) -> Self {
        Self::with_slots(kind, buf, limits)
    }
}

impl<B: AsRef<[u8]> + AsMut<[u8]>, const N: usize> Decoder<B, N> {
    /// A decoder for `kind` messages whose parsers have `N` field slots, with these limits.
    /// A buffer smaller than [`buffer_len`] lowers the head and trailer limits to what fits.
    ///
    /// ```
    /// use httpspan::stream::{Decoder, MessageKind, DEFAULT_BUFFER_LEN};
    /// use httpspan::Limits;
    ///
    /// // Up to 100 field lines: the slots bound them (the default limit is above any `N`).
    /// let limits = Limits::DEFAULT;
    /// let buf = vec![0u8; DEFAULT_BUFFER_LEN];
    /// let decoder = Decoder::<_, 100>::with_slots(MessageKind::Response, buf, limits);
    /// # let _ = decoder;
    /// ```
    pub fn with_slots(kind: MessageKind, buf: B, limits: Limits) -> Self {
        let parser = match kind {
            MessageKind::Request => {
                let mut req = Request::default();
                req.set_limits(&limits);
                Parser::Request(req)
            }
            MessageKind::Response => {
                let mut res = Response::default();
                res.set_limits(&limits);
                Parser::Response(res)
            }
        };
        let mut trailers = Trailers::default();
        trailers.set_limits(&limits);
        Decoder {
            buf,
            parser,
            trailers,
            chunked: ChunkedDecoder::new(),
            chunk_lines: false,
            limits,
            state: State::Head,
            filled: 0,
            head_len: 0,
            message_start: 0,
            trailer_start: 0,
            position: 0,
            body_len: 0,
        }
    }

    /// For a response stream: the method of the request that the next final response answers.
    /// It stays in force until set again; only HEAD and CONNECT change the framing.
    pub fn set_request_method(&mut self, method: &[u8]) {
        if let Parser::Response(res) = &mut self.parser {
            res.set_request_method(method);
        }
    }

    /// Whether to report each line of a chunked body as an [`Event::ChunkLine`], for callers
    /// that show where the framing is (off by default: the data and errors are the same either
    /// way). It applies from the next call, in the current body too.
    ///
    /// ```
    /// use httpspan::stream::{Decoder, Event};
    ///
    /// let wire = b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3;x\r\nabc\r\n0\r\n\r\n";
    /// let mut decoder = Decoder::for_requests(vec![0u8; httpspan::stream::DEFAULT_BUFFER_LEN]);
    /// decoder.report_chunk_lines(true);
    /// let (mut input, mut lines) = (&wire[..], Vec::new());
    /// loop {
    ///     let (used, event) = decoder.decode(input)?;
    ///     match event {
    ///         // Stream offsets of the line's first byte and one past its LF.
    ///         Event::ChunkLine(line) => {
    ///             let end = decoder.position();
    ///             lines.push((end - line.line_len(), end));
    ///         }
    ///         Event::MessageEnd => break,
    ///         _ => {}
    ///     }
    ///     input = &input[used..];
    /// }
    /// assert_eq!(lines, [(56, 61), (66, 69)]); // `3;x` CRLF and `0` CRLF
    /// # Ok::<(), httpspan::Error>(())
    /// ```
    pub fn report_chunk_lines(&mut self, on: bool) {
        self.chunk_lines = on;
        if matches!(self.state, State::Chunked | State::ChunkLines) {
            self.state = self.chunked_state();
        }
    }

    fn chunked_state(&self) -> State {
        match self.chunk_lines {
            true => State::ChunkLines,
            false => State::Chunked,
        }
    }

    /// The current request head, in a request stream.
    pub fn request(&self) -> Option<&Request<N>> {
        match &self.parser {
            Parser::Request(req) => Some(req),
            Parser::Response(_) => None,
        }
    }

    /// The current response head, in a response stream.
    pub fn response(&self) -> Option<&Response<N>> {
        match &self.parser {
            Parser::Response(res) => Some(res),
            Parser::Request(_) => None,
        }
    }

    /// The buffer, for a codec whose buffer type allocates as the decoder's state needs.
    #[cfg(feature = "tokio")]
    pub(crate) fn buffer_mut(&mut self) -> &mut B {
        &mut self.buf
    }

    /// The bytes of the current head, which its spans index.
    pub fn head_bytes(&self) -> &[u8] {
        &self.buf.as_ref()[..self.head_len]
    }

    /// The current message's trailer fields.
    pub fn trailers(&self) -> &Trailers<N> {
        &self.trailers
    }

    /// The bytes of the current trailer section, which the trailer spans index.
    pub fn trailer_bytes(&self) -> &[u8] {
        let end = if self.trailers.is_complete() {
            self.filled
        } else {
            self.head_len
        };
        &self.buf.as_ref()[self.head_len..end]
    }

    /// Stream offset of the first byte of the current head (`head_bytes()[0]`).
    pub fn message_offset(&self) -> u64 {
        self.message_start
    }

    /// Stream offset of the first byte of the current trailer section.
    pub fn trailer_offset(&self) -> u64 {
        self.trailer_start
    }

    /// Bytes of the stream consumed so far.
    pub fn position(&self) -> u64 {
        self.position
    }

    /// Stream offset where decoding resumes: inside a head or a trailer section, the first byte
    /// of its first line not yet accepted (the bytes after it are buffered and read again when
    /// the line is complete); elsewhere [`position`](Self::position).
    pub fn resume_offset(&self) -> u64 {
        match (self.state, &self.parser) {
            (State::Head, Parser::Request(req)) => self.message_start + req.resume_offset() as u64,
            (State::Head, Parser::Response(res)) => self.message_start + res.resume_offset() as u64,
            (State::Trailers, _) => self.trailer_start + self.trailers.resume_offset() as u64,
            _ => self.position,
        }
    }

    /// How the current message's body is delimited.
    fn framing(&self) -> Framing {
        match &self.parser {
            Parser::Request(req) => req.framing(),
            Parser::Response(res) => res.framing(),
        }
    }

    /// Whether another message may follow the current one on this connection.
    fn keeps_reading(&self) -> bool {
        match &self.parser {
            Parser::Request(req) => req.keep_alive(),
            Parser::Response(res) => res.keep_alive() && !res.switches_protocols(),
        }
    }

    fn fail(&mut self, error: Error) -> Result<(usize, Event), Error> {
        self.state = State::Failed(error);
        Err(error)
    }

    /// Counts `n` body bytes, the first at stream offset `at`, against `max_body_bytes`. On
    /// excess, returns how many of them are within the limit and the error at the first byte
    /// over it.
    fn count_body(&mut self, n: u64, at: u64) -> Result<(), (u64, Error)> {
        let max = self.limits.max_body_bytes.unwrap_or(u64::MAX);
        let allowed = max.saturating_sub(self.body_len).min(n);
        self.body_len += allowed;
        if allowed < n {
            return Err((
                allowed,
                Error::new(ErrorKind::BodyTooLarge, 0).shifted(at + allowed),
            ));
        }
        Ok(())
    }

    /// A body range of the input, `start..start + len`, of which only `allowed` bytes pass the
    /// body limit: those are still reported, so that what a caller sees before the error does
    /// not depend on how the stream was cut, and the error comes with the next call.
    fn body_over_limit(
        &mut self,
        start: usize,
        allowed: u64,
        error: Error,
    ) -> Result<(usize, Event), Error> {
        if allowed == 0 {
            return self.fail(error);
        }
        self.state = State::Failed(error);
        let end = start + allowed as usize;
        self.position += allowed;
        Ok((end, Event::Body(start..end)))
    }

    /// What [`decode`](Self::decode) returns for what the chunked decoder `found` in
    /// `input[*used..]`; `None` when the trailer section begins, with `*used` past the last
    /// chunk's line. Inlined natively; in the wasm module, whose size counts, one copy serves
    /// both chunked states.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn chunk_step(
        &mut self,
        found: Result<(usize, Chunk), Error>,
        used: &mut usize,
    ) -> Option<Result<(usize, Event), Error>> {
        let (n, chunk) = match found {
            Ok(found) => found,
            Err(e) => return Some(self.fail(e.shifted(self.position))),
        };
        let at = *used;
        Some(match chunk {
            Chunk::Data(range) => {
                let start = self.position + range.start as u64;
                if let Err((allowed, e)) = self.count_body(range.len() as u64, start) {
                    self.position += range.start as u64;
                    return Some(self.body_over_limit(at + range.start, allowed, e));
                }
                self.position += n as u64;
                Ok((at + n, Event::Body(at + range.start..at + range.end)))
            }
            Chunk::NeedMore => {
                self.position += n as u64;
                Ok((at + n, Event::NeedMore))
            }
            Chunk::TrailerSection => {
                self.position += n as u64;
                *used += n;
                self.trailer_start = self.position;
                self.trailers.reset();
                self.state = State::Trailers;
                return None;
            }
            Chunk::Line(line) => {
                self.position += n as u64;
                Ok((at + n, Event::ChunkLine(line)))
            }
        })
    }

    /// Decodes from `input`: returns how many of its bytes were consumed and what was found.
    /// Error offsets count from the start of the stream; after an error, every call returns it
    /// again.
    ///
    /// # Errors
    ///
    /// An [`Error`] when a head, chunk line or trailer section breaks a rule of HTTP/1.1 or a
    /// limit; the decoder stays stopped on it.
    pub fn decode(&mut self, input: &[u8]) -> Result<(usize, Event), Error> {
        let mut used = 0;
        loop {
            let rest = &input[used..];
            match self.state {
                State::Failed(error) => return Err(error),
                State::Closed => return Ok((used, Event::Closed)),
                State::Between => {
                    match &mut self.parser {
                        Parser::Request(req) => req.reset(),
                        Parser::Response(res) => res.reset(),
                    }
                    self.trailers.reset();
                    self.filled = 0;
                    self.head_len = 0;
                    self.message_start = self.position;
                    self.state = State::Head;
                }
                State::Head => {
                    let parser = &mut self.parser;
                    let step =
                        fill_and_parse(self.buf.as_mut(), &mut self.filled, 0, rest, |head| {
                            match parser {
                                Parser::Request(req) => req.parse(head),
                                Parser::Response(res) => res.parse(head),
                            }
                        });
                    let head_len = match step {
                        Err(e) => return self.fail(e.shifted(self.message_start)),
                        Ok(Fill::Partial { taken }) => {
                            self.position += taken as u64;
                            return Ok((used + taken, Event::NeedMore));
                        }
                        Ok(Fill::Complete { taken, len }) => {
                            self.position += taken as u64;
                            used += taken;
                            len
                        }
                    };
                    self.head_len = head_len;
                    self.body_len = 0;
                    self.state = match self.framing() {
                        Framing::NoBody | Framing::Length(0) => State::End,
                        Framing::Length(n) => {
                            // A declared length over the limit fails before any body is read.
                            if let Some(max) = self.limits.max_body_bytes.filter(|&max| n > max) {
                                let error = Error::new(ErrorKind::BodyTooLarge, 0);
                                return self.fail(error.shifted(self.position + max));
                            }
                            State::Length(n)
                        }
                        Framing::Chunked => {
                            self.chunked = ChunkedDecoder::new();
                            self.chunked_state()
                        }
                        Framing::UntilClose => State::UntilClose,
                    };
                    return Ok((used, Event::Head));
                }
                State::Length(remaining) => {
                    if rest.is_empty() {
                        return Ok((used, Event::NeedMore));
                    }
                    let take = remaining.min(rest.len() as u64);
                    self.position += take;
                    self.state = match remaining - take {
                        0 => State::End,
                        left => State::Length(left),
                    };
                    return Ok((
                        used + take as usize,
                        Event::Body(used..used + take as usize),
                    ));
                }
                State::UntilClose => {
                    if rest.is_empty() {
                        return Ok((used, Event::NeedMore));
                    }
                    if let Err((allowed, e)) = self.count_body(rest.len() as u64, self.position) {
                        return self.body_over_limit(used, allowed, e);
                    }
                    self.position += rest.len() as u64;
                    return Ok((input.len(), Event::Body(used..input.len())));
                }
                // Two states, not a flag, so that the default path tests nothing more.
                State::Chunked => {
                    let found = self.chunked.decode(rest, &self.limits);
                    if let Some(step) = self.chunk_step(found, &mut used) {
                        return step;
                    }
                }
                State::ChunkLines => {
                    let found = self.chunked.decode_lines(rest, &self.limits);
                    if let Some(step) = self.chunk_step(found, &mut used) {
                        return step;
                    }
                }
                State::Trailers => {
                    let trailers = &mut self.trailers;
                    let step = fill_and_parse(
                        self.buf.as_mut(),
                        &mut self.filled,
                        self.head_len,
                        rest,
                        |section| trailers.parse(section),
                    );
                    match step {
                        Err(e) => return self.fail(e.shifted(self.trailer_start)),
                        Ok(Fill::Partial { taken }) => {
                            self.position += taken as u64;
                            return Ok((used + taken, Event::NeedMore));
                        }
                        Ok(Fill::Complete { taken, .. }) => {
                            self.position += taken as u64;
                            used += taken;
                            self.state = State::End;
                            if !self.trailers.fields().is_empty() {
                                return Ok((used, Event::Trailers));
                            }
                        }
                    }
                }
                State::End => {
                    self.state = match self.keeps_reading() {
                        true => State::Between,
                        false => State::Closed,
                    };
                    return Ok((used, Event::MessageEnd));
                }
            }
        }
    }

    /// Tells the decoder the stream has ended. Returns [`Event::MessageEnd`] when that completes
    /// a message (a body that runs until the connection closes, or a message whose end was not
    /// yet reported), [`Event::Incomplete`] when the stream stopped inside a message, and
    /// [`Event::Closed`] otherwise. Call it until it returns `Closed` or `Incomplete`.
    ///
    /// A head or trailer section cut short is an error rather than `Incomplete` when the bytes
    /// received are already invalid (see [`Request::check_truncated`]).
    ///
    /// # Errors
    ///
    /// An [`Error`] when the bytes of a head or trailer section cut short are already invalid, or
    /// an error [`decode`](Self::decode) returned before.
    pub fn finish(&mut self) -> Result<Event, Error> {
        let event = match self.state {
            State::Failed(error) => return Err(error),
            State::End => return self.decode(&[]).map(|(_, event)| event),
            State::UntilClose => {
                self.state = State::End;
                return self.finish();
            }
            State::Closed | State::Between => Event::Closed,
            State::Head => {
                let head = &self.buf.as_ref()[..self.filled];
                let (only_empty_lines, truncated) = match &self.parser {
                    Parser::Request(req) => {
                        (req.only_empty_lines(self.filled), req.check_truncated(head))
                    }
                    Parser::Response(res) => (self.filled == 0, res.check_truncated(head)),
                };
                if let Err(e) = truncated {
                    return self
                        .fail(e.shifted(self.message_start))
                        .map(|(_, event)| event);
                }
                match only_empty_lines {
                    true => Event::Closed,
                    false => Event::Incomplete,
                }
            }
            State::Trailers => {
                let section = &self.buf.as_ref()[self.head_len..self.filled];
                if let Err(e) = self.trailers.check_truncated(section) {
                    return self
                        .fail(e.shifted(self.trailer_start))
                        .map(|(_, event)| event);
                }
                Event::Incomplete
            }
            State::Length(_) | State::Chunked | State::ChunkLines => Event::Incomplete,
        };
        self.state = State::Closed;
        Ok(event)
    }
}

#[cfg(test)]
mod tests;
