//! What a message's fields and start line mean for its body and its connection: the one home of
//! the framing rules (RFC 9112 6.1, 6.3 and 9.3; RFC 9110 7.2 and 15).
//!
//! The parser applies each Content-Length, Transfer-Encoding, Connection and Host line it reads
//! to a [`FramingFields`]; the writers apply each such line they write to one too, so a rule
//! such as "Content-Length with Transfer-Encoding is an error" is written once and whatever the
//! writers produce is read back as written. Whether a message has a body at all (by method,
//! status and the request a response answers) is decided here as well.

use crate::error::{Error, ErrorKind};
use crate::head_kind::HeadKind;
use crate::known::{Folded, KnownHeader};
use crate::limits::Leniency;
use crate::syntax::{self, ListItems, MethodClass, Version};

/// How the body of a message is delimited (RFC 9112 6.3).
///
/// Exhaustive for good: these are all the ways HTTP/1.1 delimits a body, and code that reads
/// a body must handle each one, never a wildcard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framing {
    /// The message has no body.
    NoBody,
    /// The body is exactly this many bytes (Content-Length).
    Length(u64),
    /// The body is chunked (Transfer-Encoding whose last coding is chunked).
    Chunked,
    /// The body runs until the connection closes (responses only).
    UntilClose,
}

mod flag {
    pub(super) const CONTENT_LENGTH: u16 = 1;
    pub(super) const TRANSFER_ENCODING: u16 = 2;
    /// The last transfer coding seen so far is chunked.
    pub(super) const CHUNKED_LAST: u16 = 4;
    pub(super) const CHUNKED_SEEN: u16 = 8;
    pub(super) const CLOSE: u16 = 16;
    pub(super) const KEEP_ALIVE: u16 = 32;
    pub(super) const HOST: u16 = 64;
    /// Transfer-Encoding lists a coding other than chunked.
    pub(super) const OTHER_CODING: u16 = 128;
}

/// The known headers that [`FramingFields::apply`] interprets come first in slot order, so that
/// one compare tells a caller whether to call it at all.
pub(crate) const LAST_WITH_MEANING: KnownHeader = KnownHeader::Connection;
const _: () = assert!(
    KnownHeader::Host as u8 <= LAST_WITH_MEANING as u8
        && KnownHeader::ContentLength as u8 <= LAST_WITH_MEANING as u8
        && KnownHeader::TransferEncoding as u8 <= LAST_WITH_MEANING as u8
);

/// The values list items are compared with, case-insensitively.
const CHUNKED: Folded = Folded::of(b"chunked");
const CLOSE: Folded = Folded::of(b"close");
const KEEP_ALIVE: Folded = Folded::of(b"keep-alive");

/// The framing facts of the field lines applied so far.
// Aligned to 4, not 8, so that no padding follows the two u16s in a head's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, packed(4))]
pub(crate) struct FramingFields {
    content_length: u64,
    flags: u16,
    /// Offset of the last Transfer-Encoding line, where a request whose codings do not end in
    /// chunked is wrong.
    te_line: u16,
}

impl FramingFields {
    /// No field applied yet.
    pub(crate) const NONE: FramingFields = FramingFields {
        content_length: 0,
        flags: 0,
        te_line: 0,
    };

    /// Applies one field line of a `kind` head in `version`: what Content-Length,
    /// Transfer-Encoding, Connection and (in requests) Host mean, or the error that makes the
    /// message unreadable. `value` is the trimmed value at `value_pos` of the line that starts
    /// at `line`; `host_checked` says the caller has already found a Host value valid. Nothing
    /// changes when it fails. Trailer fields mean nothing for framing: the caller skips them.
    ///
    /// The common values (a plain Content-Length, `chunked`, `close` or `keep-alive`, a Host
    /// checked already) are decided inline; lists and the other grammars are calls, so most
    /// heads make none.
    // One copy where the module's size counts (`httpspan_size_first`), inlined elsewhere.
    #[allow(clippy::too_many_arguments)]
    #[cfg_attr(not(httpspan_size_first), inline(always))]
    pub(crate) fn apply(
        &mut self,
        kind: HeadKind,
        version: Version,
        lenient: &Leniency,
        known: KnownHeader,
        value: &[u8],
        line: usize,
        value_pos: usize,
        host_checked: bool,
    ) -> Result<(), Error> {
        let at = |(kind, i): (ErrorKind, usize)| Error::new(kind, value_pos + i);
        match known {
            KnownHeader::ContentLength => {
                if self.flags & flag::TRANSFER_ENCODING != 0 {
                    return Err(Error::new(
                        ErrorKind::ContentLengthWithTransferEncoding,
                        line,
                    ));
                }
                // The length of an earlier Content-Length line, which this one must repeat.
                let seen = (self.flags & flag::CONTENT_LENGTH != 0).then_some(self.content_length);
                self.content_length = if !lenient.duplicate_content_length {
                    if seen.is_some() {
                        return Err(Error::new(ErrorKind::DuplicateContentLength, line));
                    }
                    match syntax::few_digits(value) {
                        Some(n) => n,
                        None => syntax::content_length(value).map_err(at)?,
                    }
                } else {
                    syntax::content_length_list(value, seen).map_err(|e| match e {
                        Some(e) => at(e),
                        None => Error::new(ErrorKind::DuplicateContentLength, line),
                    })?
                };
                self.flags |= flag::CONTENT_LENGTH;
            }
            KnownHeader::TransferEncoding => {
                if self.flags & flag::CONTENT_LENGTH != 0 {
                    return Err(Error::new(
                        ErrorKind::ContentLengthWithTransferEncoding,
                        line,
                    ));
                }
                if version == Version::Http10 {
                    return Err(Error::new(ErrorKind::TransferEncodingInHttp10, line));
                }
                // The common case: exactly `chunked`, the first Transfer-Encoding line.
                if self.flags & flag::TRANSFER_ENCODING == 0 && CHUNKED.matches(value) {
                    self.flags |= flag::TRANSFER_ENCODING | flag::CHUNKED_SEEN | flag::CHUNKED_LAST;
                    self.te_line = line as u16;
                    return Ok(());
                }
                self.flags = transfer_codings(value, self.flags, value_pos)?;
                self.te_line = line as u16;
            }
            KnownHeader::Connection => {
                // The commonest values whole: each is one token, the list's only item.
                self.flags |= match connection_option(value) {
                    0 => connection_options(value, value_pos)?,
                    common => common,
                };
            }
            KnownHeader::Host if kind == HeadKind::Request => {
                if self.flags & flag::HOST != 0 {
                    return Err(Error::new(ErrorKind::DuplicateHost, line));
                }
                if !host_checked {
                    syntax::host(value).map_err(at)?;
                }
                self.flags |= flag::HOST;
            }
            _ => {}
        }
        Ok(())
    }

    /// The rules that need every field line: a request's codings must end in chunked, and an
    /// HTTP/1.1 request needs a Host. `pos` is where the head's empty line starts.
    pub(crate) fn check_complete(
        &self,
        kind: HeadKind,
        version: Version,
        lenient: &Leniency,
        pos: usize,
    ) -> Result<(), Error> {
        if kind == HeadKind::Request {
            if self.flags & (flag::TRANSFER_ENCODING | flag::CHUNKED_LAST)
                == flag::TRANSFER_ENCODING
            {
                return Err(Error::new(ErrorKind::ChunkedNotLast, self.te_line as usize));
            }
            if version == Version::Http11 && self.flags & flag::HOST == 0 && !lenient.missing_host {
                return Err(Error::new(ErrorKind::MissingHost, pos));
            }
        }
        Ok(())
    }

    /// The declared Content-Length.
    #[inline]
    pub(crate) fn content_length(&self) -> Option<u64> {
        (self.flags & flag::CONTENT_LENGTH != 0).then_some(self.content_length)
    }

    /// Whether the last transfer coding is chunked.
    #[inline]
    pub(crate) fn is_chunked(&self) -> bool {
        self.flags & flag::CHUNKED_LAST != 0
    }

    /// Whether Transfer-Encoding lists a coding other than chunked.
    #[inline]
    pub(crate) fn has_other_codings(&self) -> bool {
        self.flags & flag::OTHER_CODING != 0
    }

    /// Keep-alive by version and Connection (RFC 9112 9.3); `close` wins.
    #[inline]
    pub(crate) fn keep_alive(&self, version: Version) -> bool {
        if self.flags & flag::CLOSE != 0 {
            return false;
        }
        match version {
            Version::Http11 => true,
            Version::Http10 => self.flags & flag::KEEP_ALIVE != 0,
        }
    }

    /// Body framing from the fields alone, for a message that may have a body.
    #[inline]
    fn framing(&self) -> Framing {
        if self.flags & flag::TRANSFER_ENCODING != 0 {
            match self.is_chunked() {
                true => Framing::Chunked,
                false => Framing::UntilClose,
            }
        } else if let Some(n) = self.content_length() {
            Framing::Length(n)
        } else {
            Framing::UntilClose
        }
    }

    /// A request's framing: chunked, a Content-Length, or no body (a request never runs until
    /// the connection closes; codings not ending in chunked are an error at the head's end).
    #[inline]
    pub(crate) fn request_framing(&self) -> Framing {
        match self.framing() {
            Framing::UntilClose => Framing::NoBody,
            framing => framing,
        }
    }

    /// A response's framing: none where its status or the request it answers rules a body out
    /// (see [`response_content`] and [`Answering`]), else from its fields.
    #[inline]
    pub(crate) fn response_framing(&self, status: u16, answering: Answering) -> Framing {
        if response_content(status) != Content::Allowed
            || answering == Answering::Head
            || switches_protocols(status, answering)
        {
            return Framing::NoBody;
        }
        self.framing()
    }
}

/// The flag of a Connection option the parser acts on, `close` or `keep-alive` (any case), or 0.
#[inline(always)]
fn connection_option(item: &[u8]) -> u16 {
    if CLOSE.matches(item) {
        flag::CLOSE
    } else if KEEP_ALIVE.matches(item) {
        flag::KEEP_ALIVE
    } else {
        0
    }
}

/// The Transfer-Encoding list `value` (at `value_pos`) applied to `flags`, the flags of the
/// lines before it: the flags after it, or the error of its first wrong coding. Out of line: a
/// value other than exactly `chunked` is rare.
#[inline(never)]
fn transfer_codings(value: &[u8], flags: u16, value_pos: usize) -> Result<u16, Error> {
    let at = |kind, i: usize| Error::new(kind, value_pos + i);
    let mut flags = flags | flag::TRANSFER_ENCODING;
    for (item, off) in ListItems::new(value) {
        let coding = syntax::transfer_coding(item).map_err(|(k, i)| at(k, off + i))?;
        if coding.eq_ignore_ascii_case(b"chunked") {
            // chunked takes no parameters; peers disagree on `chunked;x=y`.
            if coding.len() != item.len() {
                return Err(at(ErrorKind::InvalidTransferEncoding, off + coding.len()));
            }
            if flags & flag::CHUNKED_SEEN != 0 {
                return Err(at(ErrorKind::ChunkedTwice, off));
            }
            flags |= flag::CHUNKED_SEEN | flag::CHUNKED_LAST;
        } else {
            flags &= !flag::CHUNKED_LAST;
            flags |= flag::OTHER_CODING;
        }
    }
    Ok(flags)
}

/// The flags of the Connection options in the list `value` (at `value_pos`), or the error of
/// its first item that is not a token. Out of line: a value other than exactly `close` or
/// `keep-alive` is rare.
#[inline(never)]
fn connection_options(value: &[u8], value_pos: usize) -> Result<u16, Error> {
    let mut flags = 0;
    for option in syntax::ConnectionOptions::new(value) {
        let option =
            option.map_err(|at| Error::new(ErrorKind::InvalidConnection, value_pos + at))?;
        flags |= connection_option(option);
    }
    Ok(flags)
}

/// What a response's status allows after its head (RFC 9110 15.2, 15.3.5, 15.4.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Content {
    /// A body, framed by the fields.
    Allowed,
    /// 304: Content-Length or Transfer-Encoding may describe the selected representation, but no
    /// body follows.
    FieldsOnly,
    /// 1xx and 204: no body, and no framing fields either.
    None,
}

/// What a response with `status` may carry.
#[inline]
pub(crate) const fn response_content(status: u16) -> Content {
    match status {
        100..=199 | 204 => Content::None,
        304 => Content::FieldsOnly,
        _ => Content::Allowed,
    }
}

/// What the request a response answers means for the response's framing (RFC 9112 6.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Answering {
    #[default]
    Other,
    /// A response to HEAD has no body.
    Head,
    /// A 2xx response to CONNECT turns the connection into a tunnel.
    Connect,
}

impl Answering {
    /// The request method, case-sensitive as methods are.
    pub(crate) fn of(method: &[u8]) -> Answering {
        match MethodClass::of(method) {
            MethodClass::Head => Answering::Head,
            MethodClass::Connect => Answering::Connect,
            _ => Answering::Other,
        }
    }
}

/// A 101, or a 2xx answer to CONNECT: after the head the connection no longer carries HTTP/1.1
/// (RFC 9112 6.3 rules 1 and 2).
#[inline]
pub(crate) fn switches_protocols(status: u16, answering: Answering) -> bool {
    status == 101 || (answering == Answering::Connect && (200..300).contains(&status))
}
