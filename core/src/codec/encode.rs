//! What both codecs' encoders share: appending a head to a `BytesMut`, all or nothing,
//! and the state of a streamed body, which refuses any part that would frame it wrong.

use bytes::BytesMut;

use super::{BodyLength, BodyPart, CodecError, Misuse};
use crate::writer::{write_chunk_header_in, TrailerWriter, WriteError, CHUNK_END, LAST_CHUNK};

/// Appends what `write` writes to `dst` (the writers append to a `BytesMut` and grow it as
/// needed), all or nothing: a write refused after some of its lines leaves `dst` as it was.
pub(super) fn append(
    dst: &mut BytesMut,
    write: impl FnOnce(&mut BytesMut) -> Result<usize, WriteError>,
) -> Result<(), WriteError> {
    let start = dst.len();
    let written = write(dst);
    if written.is_err() {
        dst.truncate(start);
    }
    written.map(|_| ())
}

/// The framing field a head is written with.
#[derive(Clone, Copy, Debug)]
pub(super) enum Declared {
    /// None: no body, or one that ends with the connection.
    Nothing,
    Length(u64),
    Chunked,
}

/// Where a connection's outgoing message is. Also the body encoder of
/// the `serve` module, which writes its heads from `http` types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outgoing {
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
    pub(crate) fn after_head(has_body: bool, length: BodyLength) -> Outgoing {
        match (has_body, length) {
            (false, _) => Outgoing::NoBody,
            (true, BodyLength::Fixed(0)) => Outgoing::NoBody,
            (true, BodyLength::Fixed(n)) => Outgoing::Length(n),
            (true, BodyLength::Chunked) => Outgoing::Chunked,
            (true, BodyLength::UntilClose) => Outgoing::UntilClose,
        }
    }

    /// Writes the body of a whole message, after the head that declared its length: the bytes
    /// where the head allows a body, then the end. After an interim head (or one that ends
    /// HTTP) there is nothing to end.
    pub(super) fn finish_whole(&mut self, body: &[u8], dst: &mut BytesMut) {
        match *self {
            Outgoing::Length(_) => dst.extend_from_slice(body),
            Outgoing::NoBody => {}
            _ => return,
        }
        *self = Outgoing::Idle;
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
    pub(crate) fn encode(
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
                write_chunk_header_in(dst, data.len() as u64)?;
                dst.extend_from_slice(data);
                dst.extend_from_slice(CHUNK_END);
                Ok(())
            }
            (BodyPart::Data(data), Outgoing::UntilClose) => {
                dst.extend_from_slice(data);
                Ok(())
            }
            (BodyPart::Trailers(fields), Outgoing::Chunked) => {
                append(dst, |dst| write_trailers(dst, fields))?;
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

/// Appends the last chunk, `fields` as a trailer section and its empty line to `dst`; returns
/// the length. The writer refuses what a trailer section must not carry.
fn write_trailers(dst: &mut BytesMut, fields: &[(&[u8], &[u8])]) -> Result<usize, WriteError> {
    let mut end = TrailerWriter::new_in(dst)?;
    for (name, value) in fields {
        end.header(name, value)?;
    }
    end.finish()
}
