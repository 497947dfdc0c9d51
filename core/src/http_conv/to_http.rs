//! Conversions of parsed heads into the [`http`] crate's types (feature `http`), for code built
//! on tower, axum, hyper's service types or reqwest.
//!
//! These conversions **allocate**: the `http` types own their data, so every field name and
//! value is copied into a [`HeaderMap`], and the target into a [`Uri`](http::Uri). Keep the
//! spans when you only need to read a head; convert at the boundary where `http` types are
//! required.
//!
//! Field values are copied as sent: httpspan has already checked them. A value folded over
//! several lines (accepted only with [`Leniency::obs_fold`](crate::Leniency::obs_fold)) is
//! unfolded, each fold becoming one SP, since `http` refuses CR and LF in values.
//!
//! ```
//! use httpspan::{Request, Status};
//!
//! let buf = b"GET /search?q=rust HTTP/1.1\r\nHost: example.com\r\nAccept: text/html\r\n\
//!             Accept: application/json\r\n\r\n";
//! let mut req = Request::new();
//! let Status::Complete { .. } = req.parse(buf)? else { panic!("partial") };
//! let parts = httpspan::to_http::request_parts(&req, buf)?;
//! assert_eq!(parts.method, http::Method::GET);
//! assert_eq!(parts.uri.path(), "/search");
//! assert_eq!(parts.version, http::Version::HTTP_11);
//! assert_eq!(parts.headers["host"], "example.com");
//! assert_eq!(parts.headers.get_all(http::header::ACCEPT).iter().count(), 2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! `http` keeps names lower-case and groups repeated names. Where the spelling and order on the
//! wire matter (a proxy, a recorder), [`request_parts_keeping_names`] and
//! [`response_parts_keeping_names`] also store an [`OriginalNames`] in `Parts::extensions`,
//! which [`from_http`](crate::from_http) uses when it writes the head back.

use std::vec::Vec;

use http::header::{HeaderMap, HeaderName, HeaderValue};

use super::to_http_version as version;
use crate::head::{unfold, Field};
use crate::request::Request;
use crate::response::Response;

pub use super::names::OriginalNames;

/// The field lines `fields`, whose spans index `head`, as a [`HeaderMap`] in their order
/// (repeated names keep every value). Allocates the map and a copy of each name and value.
///
/// # Errors
///
/// An [`http::Error`] for a name or value that `http` refuses.
pub fn header_map(fields: &[Field], head: &[u8]) -> Result<HeaderMap, http::Error> {
    let mut map = HeaderMap::with_capacity(fields.len());
    for field in fields {
        let name = HeaderName::from_bytes(field.name.as_bytes(head))?;
        let raw = field.value.as_bytes(head);
        let value = if raw.contains(&b'\n') {
            HeaderValue::from_bytes(&unfold(raw).flatten().copied().collect::<Vec<u8>>())?
        } else {
            HeaderValue::from_bytes(raw)?
        };
        map.append(name, value);
    }
    Ok(map)
}

/// A parsed request head, whose spans index `head`, as [`http::request::Parts`]: method,
/// target (as a [`Uri`](http::Uri)), version and fields. Allocates.
///
/// Fails where `http` is narrower than HTTP/1.1: a request-target that [`http::Uri`] refuses,
/// for instance.
///
/// # Errors
///
/// An [`http::Error`] where `http` is narrower than HTTP/1.1: a target [`http::Uri`] refuses,
/// a method, name or value it refuses.
pub fn request_parts<const N: usize>(
    req: &Request<N>,
    head: &[u8],
) -> Result<http::request::Parts, http::Error> {
    let (mut parts, ()) = http::Request::builder()
        .method(req.method().as_bytes(head))
        .uri(req.target().as_bytes(head))
        .version(version(req.version()))
        .body(())?
        .into_parts();
    parts.headers = header_map(req.fields(), head)?;
    Ok(parts)
}

/// A parsed response head, whose spans index `head`, as [`http::response::Parts`]: status,
/// version and fields (the reason phrase is not kept: `http` has none). Allocates.
///
/// ```
/// use httpspan::{Response, Status};
///
/// let buf = b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n";
/// let mut res = Response::new();
/// let Status::Complete { .. } = res.parse(buf)? else { panic!("partial") };
/// let parts = httpspan::to_http::response_parts(&res, buf)?;
/// assert_eq!(parts.status, http::StatusCode::NOT_FOUND);
/// assert_eq!(parts.headers[http::header::CONTENT_LENGTH], "0");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// An [`http::Error`] for a field name or value that `http` refuses.
pub fn response_parts<const N: usize>(
    res: &Response<N>,
    head: &[u8],
) -> Result<http::response::Parts, http::Error> {
    let (mut parts, ()) = http::Response::builder()
        .status(res.status())
        .version(version(res.version()))
        .body(())?
        .into_parts();
    parts.headers = header_map(res.fields(), head)?;
    Ok(parts)
}

/// [`request_parts`], with the field names' spelling and order recorded as an
/// [`OriginalNames`] in `Parts::extensions`, for [`from_http`](crate::from_http) to write them
/// back as received.
///
/// ```
/// use httpspan::{Request, Status};
/// use httpspan::to_http::OriginalNames;
///
/// let buf = b"GET / HTTP/1.1\r\nHost: a\r\nX-Trace-ID: 7\r\n\r\n";
/// let mut req = Request::new();
/// let Status::Complete { .. } = req.parse(buf)? else { panic!("partial") };
/// let parts = httpspan::to_http::request_parts_keeping_names(&req, buf)?;
/// assert_eq!(parts.headers["x-trace-id"], "7");
/// let names = parts.extensions.get::<OriginalNames>().unwrap();
/// assert_eq!(names.iter().collect::<Vec<_>>(), [&b"Host"[..], b"X-Trace-ID"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// As [`request_parts`]'s.
pub fn request_parts_keeping_names<const N: usize>(
    req: &Request<N>,
    head: &[u8],
) -> Result<http::request::Parts, http::Error> {
    let mut parts = request_parts(req, head)?;
    parts
        .extensions
        .insert(OriginalNames::from_fields(req.fields(), head));
    Ok(parts)
}

/// [`response_parts`], with the field names' spelling and order recorded as an
/// [`OriginalNames`] in `Parts::extensions` (see [`request_parts_keeping_names`]).
///
/// # Errors
///
/// As [`response_parts`]'s.
pub fn response_parts_keeping_names<const N: usize>(
    res: &Response<N>,
    head: &[u8],
) -> Result<http::response::Parts, http::Error> {
    let mut parts = response_parts(res, head)?;
    parts
        .extensions
        .insert(OriginalNames::from_fields(res.fields(), head));
    Ok(parts)
}
