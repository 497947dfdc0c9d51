//! What both codecs' decoders share: the stream decoder over a lazily allocated buffer, and the
//! bookkeeping that turns its events into frames sharing the read buffer.

use std::vec;
use std::vec::Vec;

use bytes::{Buf, Bytes, BytesMut};

use super::{CodecError, Misuse, TrailerSection};
use crate::framing::Framing;
use crate::limits::Limits;
use crate::stream::{buffer_len, Decoder, Event, MessageKind};

/// The stream decoder's buffer for heads and trailer sections, allocated as it is needed: none
/// until the first byte to decode (an idle connection, an encode-only codec holds no buffer),
/// then room for a head, and room for a trailer section only once a chunked message, the only
/// kind that can have one, has been met. With the default limits that is 8 KiB for a
/// connection whose bodies have a Content-Length, instead of the 72 KiB [`buffer_len`] gives.
#[derive(Clone, Debug)]
pub(super) struct LazyBuffer {
    bytes: Vec<u8>,
    /// Room for a head: the head limit and the empty lines that may come before it.
    head_room: usize,
    /// Room for a head and a trailer section ([`buffer_len`]).
    full_room: usize,
    /// Whether a trailer section may follow the current head.
    trailers: bool,
}

impl LazyBuffer {
    fn new(limits: &Limits) -> LazyBuffer {
        let full_room = buffer_len(limits);
        LazyBuffer {
            bytes: Vec::new(),
            head_room: (limits.max_head_bytes as usize + 4).min(full_room),
            full_room,
            trailers: false,
        }
    }

    /// The room the decoder sees now.
    fn room(&self) -> usize {
        if self.trailers {
            self.full_room
        } else {
            self.head_room
        }
    }
}

impl AsRef<[u8]> for LazyBuffer {
    fn as_ref(&self) -> &[u8] {
        &self.bytes
    }
}

impl AsMut<[u8]> for LazyBuffer {
    fn as_mut(&mut self) -> &mut [u8] {
        let room = self.room();
        if self.bytes.is_empty() {
            // Zeroed by the allocator, which may take fresh zero pages instead of writing.
            self.bytes = vec![0; room];
        } else if self.bytes.len() < room {
            // What the buffer holds (a head the trailer section follows) stays.
            self.bytes.resize(room, 0);
        }
        // A buffer grown for trailers still shows only head room for a head, so that the
        // limits bound a head alike before and after.
        &mut self.bytes[..room]
    }
}

/// What the reader took out of the read buffer.
pub(super) enum Taken {
    /// A complete head: read it from the decoder.
    Head(Bytes),
    Body(Bytes),
    /// A complete trailer section: its fields are the decoder's.
    Trailers(Bytes),
    End,
    /// Nothing complete: read more (or, after the last message, nothing is decoded any more).
    Nothing,
}

/// The stream decoder and the bytes at the front of the read buffer that it has consumed but
/// that no frame has taken yet: the head or trailer section being read, or chunk framing. They
/// are left in place so that a complete head or trailer section is handed out as one slice of
/// the buffer.
#[derive(Clone, Debug)]
pub(super) struct Reader {
    pub(super) decoder: Decoder<LazyBuffer>,
    consumed: usize,
    /// Set once the read buffer lost held bytes: every later call fails with it, as the
    /// decoder's count of the stream no longer matches the buffer.
    broken: Option<Misuse>,
}

impl Reader {
    pub(super) fn new(kind: MessageKind, limits: Limits) -> Reader {
        Reader {
            decoder: Decoder::new(kind, LazyBuffer::new(&limits), limits),
            consumed: 0,
            broken: None,
        }
    }

    /// The trailer section whose bytes are `bytes`, with the decoder's fields.
    pub(super) fn section(&self, bytes: Bytes) -> TrailerSection {
        let trailers = self.decoder.trailers().clone();
        TrailerSection { bytes, trailers }
    }

    /// Decodes the next event from `src`.
    pub(super) fn next(&mut self, src: &mut BytesMut) -> Result<Taken, CodecError> {
        // The held bytes are the decoder's input already; a buffer cut below them has lost
        // bytes the decoder counted, and nothing after that would be framed right.
        if let Some(misuse) = self.broken {
            return Err(misuse.into());
        }
        let Some(rest) = src.get(self.consumed..) else {
            let misuse = Misuse::ReadBufferShrunk {
                held: self.consumed,
                len: src.len(),
            };
            self.broken = Some(misuse);
            return Err(misuse.into());
        };
        let (used, event) = self.decoder.decode(rest)?;
        Ok(self.take(src, used, event))
    }

    /// At the end of the stream: the last event, or `Incomplete`.
    pub(super) fn next_eof(&mut self, src: &mut BytesMut) -> Result<Taken, CodecError> {
        match self.next(src)? {
            Taken::Nothing => {}
            taken => return Ok(taken),
        }
        match self.decoder.finish()? {
            Event::MessageEnd => Ok(self.take(src, 0, Event::MessageEnd)),
            Event::Incomplete => Err(CodecError::Incomplete),
            _ => Ok(Taken::Nothing),
        }
    }

    /// Takes what ends `used` bytes into the unconsumed part of `src`.
    fn take(&mut self, src: &mut BytesMut, used: usize, event: Event) -> Taken {
        let end = self.consumed + used;
        self.consumed = 0;
        match event {
            Event::Head => {
                let bytes = src.split_to(end).freeze();
                debug_assert_eq!(&bytes[..], self.decoder.head_bytes());
                let chunked = match (self.decoder.request(), self.decoder.response()) {
                    (Some(req), _) => req.framing() == Framing::Chunked,
                    (_, Some(res)) => res.framing() == Framing::Chunked,
                    _ => false,
                };
                self.decoder.buffer_mut().trailers = chunked;
                Taken::Head(bytes)
            }
            Event::Body(range) => {
                // Chunk framing before the data is dropped; the bytes consumed after it (the
                // CRLF ending a chunk) wait for the next frame.
                src.advance(end - used + range.start);
                let data = src.split_to(range.len()).freeze();
                self.consumed = used - range.end;
                Taken::Body(data)
            }
            Event::Trailers => {
                let len = self.decoder.trailer_bytes().len();
                src.advance(end - len);
                Taken::Trailers(src.split_to(len).freeze())
            }
            Event::MessageEnd => {
                src.advance(end);
                Taken::End
            }
            // NeedMore: all of `src` is consumed; keep it until its frame is complete. Closed:
            // nothing more is decoded (after a last message); the bytes are left in `src`.
            _ => {
                self.consumed = end;
                Taken::Nothing
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::format;

    use super::*;

    fn room(reader: &mut Reader) -> usize {
        reader.decoder.buffer_mut().bytes.len()
    }

    /// Decodes all of `input`, returning the frames' kinds in order.
    fn decode_all(reader: &mut Reader, input: &[u8]) -> Vec<&'static str> {
        let mut src = BytesMut::from(input);
        let mut kinds = Vec::new();
        loop {
            match reader.next(&mut src).unwrap() {
                Taken::Head(_) => kinds.push("head"),
                Taken::Body(_) => kinds.push("body"),
                Taken::Trailers(_) => kinds.push("trailers"),
                Taken::End => kinds.push("end"),
                Taken::Nothing => return kinds,
            }
        }
    }

    #[test]
    fn trailer_room_is_allocated_only_for_a_chunked_message() {
        let limits = Limits::DEFAULT;
        let mut reader = Reader::new(MessageKind::Request, limits);
        assert_eq!(room(&mut reader), 0, "nothing before the first byte");

        let kinds = decode_all(
            &mut reader,
            b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nhi",
        );
        assert_eq!(kinds, ["head", "body", "end"]);
        assert_eq!(room(&mut reader), limits.max_head_bytes as usize + 4);

        // A trailer section of 20 KiB, more than the head room, still fits.
        let mut message = b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n\
                            2\r\nhi\r\n0\r\n"
            .to_vec();
        for i in 0..60 {
            message.extend_from_slice(format!("x-t{i:02}: {}\r\n", "v".repeat(340)).as_bytes());
        }
        message.extend_from_slice(b"\r\n");
        assert!(message.len() > 20_000);
        let kinds = decode_all(&mut reader, &message);
        assert_eq!(kinds, ["head", "body", "trailers", "end"]);
        assert_eq!(room(&mut reader), buffer_len(&limits));

        // A head after it is bounded as before: one byte over the limit is an error.
        let mut head = b"GET / HTTP/1.1\r\nHost: a\r\nx-pad: ".to_vec();
        head.resize(limits.max_head_bytes as usize + 1, b'a');
        let err = reader.next(&mut BytesMut::from(&head[..])).err();
        assert!(
            matches!(err, Some(CodecError::Parse(e)) if e.kind() == crate::ErrorKind::HeadTooLarge)
        );
    }
}
