//! What both codecs' decoders share: the stream decoder over a lazily allocated buffer, and the
//! bookkeeping that turns its events into frames sharing the read buffer.

use std::vec;
use std::vec::Vec;

use bytes::{Buf, Bytes, BytesMut};

use super::{CodecError, Misuse, TrailerSection};
use crate::limits::Limits;
use crate::stream::{buffer_len, Decoder, Event, MessageKind};

/// The stream decoder's buffer for heads and trailer sections: allocated on the first byte to
/// decode, at the size the limits need ([`buffer_len`]), so that a codec that has not read
/// anything yet (an idle connection, an encode-only codec) holds no buffer at all.
#[derive(Clone, Debug)]
pub(super) struct LazyBuffer {
    bytes: Vec<u8>,
    len: usize,
}

impl AsRef<[u8]> for LazyBuffer {
    fn as_ref(&self) -> &[u8] {
        &self.bytes
    }
}

impl AsMut<[u8]> for LazyBuffer {
    fn as_mut(&mut self) -> &mut [u8] {
        if self.bytes.len() != self.len {
            // Zeroed by the allocator, which may take fresh zero pages instead of writing.
            self.bytes = vec![0; self.len];
        }
        &mut self.bytes
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
        let buf = LazyBuffer {
            bytes: Vec::new(),
            len: buffer_len(&limits),
        };
        Reader {
            decoder: Decoder::new(kind, buf, limits),
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
