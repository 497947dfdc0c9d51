//! An error-chain printer (anyhow, eyre: the error's Display, then each `source()` in turn)
//! shows every line of the codec's and the server's errors once: a layer whose Display says
//! its inner error does not also return it as its source.

use std::error::Error as StdError;
use std::io;

use bytes::BytesMut;
use httpspan::codec::{CodecError, Misuse, ServerCodec};
use httpspan::{Limits, WriteError};
use tokio_util::codec::Decoder;

/// The lines an error-chain printer shows for `e`: its Display, then each source's.
fn chain(e: &(dyn StdError + 'static)) -> Vec<String> {
    let mut lines = vec![e.to_string()];
    let mut cause = e.source();
    while let Some(inner) = cause {
        lines.push(inner.to_string());
        cause = inner.source();
    }
    lines
}

/// Fails when a line of the chain repeats the line after it (or any later one), and when
/// `detail` (the innermost fact) is missing from the printed chain.
fn assert_each_line_once(e: &(dyn StdError + 'static), detail: &str) {
    let lines = chain(e);
    for (i, line) in lines.iter().enumerate() {
        for later in &lines[i + 1..] {
            assert!(
                !line.contains(later.as_str()),
                "{line:?} repeats its source {later:?} (chain {lines:?})"
            );
        }
    }
    assert!(
        lines.iter().any(|line| line.contains(detail)),
        "{detail:?} is not in the chain {lines:?}"
    );
}

/// A parse error from the codec itself: a field line without a colon.
fn parse_error() -> CodecError {
    let mut buf = BytesMut::from(&b"GET / HTTP/1.1\r\nHost x\r\n\r\n"[..]);
    ServerCodec::new(Limits::default())
        .decode(&mut buf)
        .unwrap_err()
}

/// An I/O error that wraps another error, as a TLS or proxy layer makes them.
fn wrapped_io_error() -> io::Error {
    io::Error::other(io::Error::new(io::ErrorKind::ConnectionReset, "peer reset"))
}

#[test]
fn codec_errors_print_each_line_once() {
    let parse = parse_error();
    assert!(matches!(parse, CodecError::Parse(_)), "{parse:?}");
    let parse_text = parse.to_string();
    assert_each_line_once(&parse, &parse_text);
    assert_each_line_once(&CodecError::Incomplete, "inside a message");
    let write = WriteError::FramingField;
    assert_each_line_once(&CodecError::Write(write), &write.to_string());
    let misuse = Misuse::BodyTooShort { missing: 7 };
    assert_each_line_once(&CodecError::Misuse(misuse), "7 bytes short");
    assert_each_line_once(&CodecError::Io(wrapped_io_error()), "peer reset");
}

#[test]
fn misuse_is_a_std_error_without_a_source() {
    let misuse: &(dyn StdError + 'static) = &Misuse::OutOfOrder;
    assert!(misuse.source().is_none());
    assert_eq!(chain(misuse), ["a message part out of order"]);
}

#[cfg(feature = "tower")]
#[test]
fn serve_errors_print_each_line_once() {
    use httpspan::from_http::FromHttpError;
    use httpspan::serve::{ServeError, Timeout};

    let refused = ServeError::Request(parse_error());
    let parse_text = parse_error().to_string();
    assert_each_line_once(&refused, &parse_text);
    assert_eq!(chain(&refused).len(), 2, "{:?}", chain(&refused));
    let misuse = ServeError::Request(CodecError::Misuse(Misuse::NotHttp));
    assert_each_line_once(&misuse, "no longer carries HTTP/1.1");
    assert_eq!(chain(&misuse).len(), 3, "{:?}", chain(&misuse));
    let convert = http::Request::builder()
        .uri("http://[::1")
        .body(())
        .unwrap_err();
    let convert_text = convert.to_string();
    assert_each_line_once(&ServeError::Convert(convert), &convert_text);
    let service = ServeError::Service(Box::new(io::Error::other("database down")));
    assert_each_line_once(&service, "database down");
    let response = ServeError::Response(FromHttpError::Version);
    assert_each_line_once(&response, "only HTTP/1.0 and HTTP/1.1");
    let body = ServeError::Body(Box::new(io::Error::other("stream cut")));
    assert_each_line_once(&body, "stream cut");
    assert_each_line_once(&ServeError::BodyLength, "Content-Length");
    assert_each_line_once(&ServeError::Timeout(Timeout::Head), "head timeout");
    assert_each_line_once(&ServeError::Io(wrapped_io_error()), "peer reset");
}
