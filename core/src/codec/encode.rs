//! What both codecs' encoders share: writing a head into a `BytesMut` with the room it needs,
//! and the state of a streamed body, which refuses any part that would frame it wrong.

use bytes::BytesMut;

use super::{BodyLength, BodyPart, CodecError, Misuse};
use crate::writer::{TrailerWriter, WriteError, CHUNK_END, LAST_CHUNK};

/// The room of a head's fixed parts: the longest registered status line (46 bytes), or a
/// request-line's spaces, version and CRLF (12 bytes); one framing field line (at most 38
/// bytes); the empty line.
const FIXED_ROOM: usize = 46 + 38 + 2;

/// The room `fields` take as field lines.
pub(super) fn fields_room(fields: &[(&[u8], &[u8])]) -> usize {
    fields.iter().map(|(n, v)| n.len() + v.len() + 4).sum()
}

/// Appends what `write` writes to `dst`: `write` is given a buffer of at least `room` bytes
/// (plus the fixed parts of a head) and returns the length it wrote. A buffer the writer finds
/// too small is grown to the size it asks for and the write done again, so a wrong estimate
/// costs a retry, never an error. On error `dst` is left as it was.
pub(super) fn append(
    dst: &mut BytesMut,
    room: usize,
    mut write: impl FnMut(&mut [u8]) -> Result<usize, WriteError>,
) -> Result<(), WriteError> {
    let start = dst.len();
    let mut size = room.saturating_add(FIXED_ROOM);
    loop {
        dst.resize(start + size, 0);
        match write(&mut dst[start..]) {
            Ok(len) => {
                dst.truncate(start + len);
                return Ok(());
            }
            // `needed` counts from the start of the buffer given, and only grows.
            Err(WriteError::BufferTooSmall { needed }) if needed > size => size = needed,
            Err(e) => {
                dst.truncate(start);
                return Err(e);
            }
        }
    }
}

/// The framing field a head is written with.
#[derive(Clone, Copy, Debug)]
pub(super) enum Declared {
    /// None: no body, or one that ends with the connection.
    Nothing,
    Length(u64),
    Chunked,
}

/// Where a connection's outgoing message is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Outgoing {
    /// Between messages: a head is next.
    Idle,
    /// A head without a body was written; only [`BodyPart::End`] (or empty data) may follow.
    NoBody,
    /// A Content-Length body with this many bytes left.
    Length(u64),
    Chunked,
    /// The trailer section (and the last chunk) are written; [`BodyPart::End`] is next.
    TrailersSent,
    /// A body that ends with the connection.
    UntilClose,
    /// The connection carries no more HTTP/1.1 messages.
    Done,
}

impl Outgoing {
    /// The state after a head that declares `length`, for a message with a body (`has_body`).
    pub(super) fn after_head(has_body: bool, length: BodyLength) -> Outgoing {
        match (has_body, length) {
            (false, _) => Outgoing::NoBody,
            (true, BodyLength::Fixed(0)) => Outgoing::NoBody,
            (true, BodyLength::Fixed(n)) => Outgoing::Length(n),
            (true, BodyLength::Chunked) => Outgoing::Chunked,
            (true, BodyLength::UntilClose) => Outgoing::UntilClose,
        }
    }

    /// Refuses a head unless the previous message is complete.
    pub(super) fn check_head(self) -> Result<(), Misuse> {
        match self {
            Outgoing::Idle => Ok(()),
            Outgoing::Done => Err(Misuse::NotHttp),
            _ => Err(Misuse::OutOfOrder),
        }
    }

    /// Appends `part` to `dst` and moves on; refuses (writing nothing) a part that would frame
    /// the body wrong.
    pub(super) fn encode(
        &mut self,
        part: BodyPart<'_>,
        dst: &mut BytesMut,
    ) -> Result<(), CodecError> {
        match (part, *self) {
            (_, Outgoing::Idle) => Err(Misuse::OutOfOrder.into()),
            (_, Outgoing::Done) => Err(Misuse::NotHttp.into()),
            (BodyPart::Data([]), _) => Ok(()),
            (BodyPart::Data(_), Outgoing::NoBody) => Err(Misuse::NoBodyAllowed.into()),
            (BodyPart::Data(data), Outgoing::Length(remaining)) => {
                let left = remaining
                    .checked_sub(data.len() as u64)
                    .ok_or(Misuse::BodyTooLong {
                        remaining,
                        given: data.len(),
                    })?;
                dst.extend_from_slice(data);
                *self = Outgoing::Length(left);
                Ok(())
            }
            (BodyPart::Data(data), Outgoing::Chunked) => {
                write_chunk_header(dst, data.len())?;
                dst.extend_from_slice(data);
                dst.extend_from_slice(CHUNK_END);
                Ok(())
            }
            (BodyPart::Data(data), Outgoing::UntilClose) => {
                dst.extend_from_slice(data);
                Ok(())
            }
            (BodyPart::Trailers(fields), Outgoing::Chunked) => {
                append(dst, fields_room(fields), |buf| write_trailers(buf, fields))?;
                *self = Outgoing::TrailersSent;
                Ok(())
            }
            (BodyPart::Trailers(_), _) => Err(Misuse::TrailersNeedChunked.into()),
            (BodyPart::Data(_), Outgoing::TrailersSent) => Err(Misuse::OutOfOrder.into()),
            (BodyPart::End, Outgoing::Length(0) | Outgoing::NoBody | Outgoing::TrailersSent) => {
                *self = Outgoing::Idle;
                Ok(())
            }
            (BodyPart::End, Outgoing::Length(missing)) => {
                Err(Misuse::BodyTooShort { missing }.into())
            }
            (BodyPart::End, Outgoing::Chunked) => {
                dst.extend_from_slice(LAST_CHUNK);
                *self = Outgoing::Idle;
                Ok(())
            }
            (BodyPart::End, Outgoing::UntilClose) => {
                *self = Outgoing::Done;
                Ok(())
            }
        }
    }
}

/// Appends a chunk's size line. `len` is not 0 (that is the last chunk).
fn write_chunk_header(dst: &mut BytesMut, len: usize) -> Result<(), WriteError> {
    let mut line = [0u8; 18];
    let n = crate::writer::write_chunk_header(&mut line, len as u64)?;
    dst.extend_from_slice(&line[..n]);
    Ok(())
}

/// Writes the last chunk, `fields` as a trailer section and its empty line into `buf`; returns
/// the length. The writer refuses what a trailer section must not carry.
fn write_trailers(buf: &mut [u8], fields: &[(&[u8], &[u8])]) -> Result<usize, WriteError> {
    let mut end = TrailerWriter::new(buf)?;
    for (name, value) in fields {
        end.header(name, value)?;
    }
    end.finish()
}
