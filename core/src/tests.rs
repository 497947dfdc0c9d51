//! Tests of the head engine through the public types, and of the promises that need the
//! crate's internals to observe (bytes scanned by the kernels). The helpers shared by the
//! modules below are here.

use std::format;
use std::vec::Vec;

use crate::scan::counter;
use crate::*;

/// Every byte value; under Miri, which runs the scalar path orders of magnitude slower, a sample
/// that keeps a byte of every class (the loops using it check values, which the native runs of
/// the suite check in full; Miri is there for memory access, which the sample exercises alike).
pub(crate) fn every_byte() -> impl Iterator<Item = u8> {
    (0..=255u8)
        .filter(|&b| !cfg!(miri) || b % 23 == 0 || b"\0\t\n\r \"%:;=@[]aZ\x7f\x80\xff".contains(&b))
}

const LARGE: &[u8] = include_bytes!("../testdata/request-large.http");

const MEDIUM: &[u8] = include_bytes!("../testdata/request-medium.http");

const RESPONSE_LARGE: &[u8] = include_bytes!("../testdata/response-large.http");

/// Parses `buf` one byte longer at a time, as a server reading a slow client would. Under
/// Miri, which runs each parse thousands of times slower, past the first 128 bytes the head
/// grows 61 bytes at a time (a prime, so the ends fall at every offset within a block).
fn parse_growing(req: &mut Request, buf: &[u8]) -> Result<Status, Error> {
    let ends = (1..buf.len()).filter(|&end| !cfg!(miri) || end <= 128 || end % 61 == 0);
    for end in ends {
        match req.parse(&buf[..end])? {
            Status::Partial => {}
            done => return Ok(done),
        }
    }
    req.parse(buf)
}

/// Everything a parsed head tells, as text to compare.
fn described(
    result: &Result<Status, Error>,
    fields: &[Field],
    facts: impl core::fmt::Debug,
    get: impl Fn(KnownHeader) -> Option<Span>,
) -> std::string::String {
    let index: Vec<_> = KnownHeader::ALL.iter().map(|&k| get(k)).collect();
    format!("{result:?} {fields:?} {facts:?} {index:?}")
}

/// A request parsed with `limits` by `parse` (the public one, or the precise path alone): its
/// result, and everything it tells as text (see `described`).
fn parsed_request(
    limits: Limits,
    buf: &[u8],
    parse: fn(&mut Request, &[u8]) -> Result<Status, Error>,
) -> (Result<Status, Error>, std::string::String) {
    let mut req = Request::with_limits(limits);
    let result = parse(&mut req, buf);
    let described = request_described(&req, &result);
    (result, described)
}

/// Everything `req`, which gave `result`, tells (see `described`).
fn request_described(req: &Request, result: &Result<Status, Error>) -> std::string::String {
    let facts = (req.method(), req.target(), req.version(), req.framing());
    let facts = (
        facts,
        req.content_length(),
        req.is_chunked(),
        req.keep_alive(),
        req.known_bitmap(),
    );
    described(result, req.fields(), facts, |k| req.value(k))
}

/// A response parsed with `limits` and `parse`, as [`parsed_request`].
fn parsed_response(
    limits: Limits,
    buf: &[u8],
    parse: fn(&mut Response, &[u8]) -> Result<Status, Error>,
) -> (Result<Status, Error>, std::string::String) {
    let mut res = Response::with_limits(limits);
    let result = parse(&mut res, buf);
    let facts = (
        res.status(),
        res.reason(),
        res.version(),
        res.content_length(),
    );
    let facts = (
        facts,
        res.is_chunked(),
        res.keep_alive(),
        res.known_bitmap(),
    );
    let described = described(&result, res.fields(), facts, |k| res.value(k));
    (result, described)
}

mod engine_paths;
mod heads;
mod leniency;
mod limits;
