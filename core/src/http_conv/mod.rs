//! Conversions between parsed heads and the [`http`] crate's types (feature `http`): into
//! `Parts` ([`to_http`](crate::to_http)) and back to wire bytes
//! ([`from_http`](crate::from_http)), with the original field-name spellings kept on request
//! ([`OriginalNames`](crate::to_http::OriginalNames)).

pub mod from_http;
mod names;
pub mod to_http;

use crate::syntax::Version;

/// The `http` version of a parsed version.
fn to_http_version(version: Version) -> http::Version {
    match version {
        Version::Http10 => http::Version::HTTP_10,
        Version::Http11 => http::Version::HTTP_11,
    }
}

/// The HTTP/1.x version of an `http` version, or `None` for HTTP/0.9, 2 and 3.
fn from_http_version(version: http::Version) -> Option<Version> {
    match version {
        http::Version::HTTP_10 => Some(Version::Http10),
        http::Version::HTTP_11 => Some(Version::Http11),
        _ => None,
    }
}
