//! `check_truncated` never rejects what could still become valid: every prefix of every head
//! that a conformance vector accepts is a valid beginning (with the lenient options the case
//! names).

use std::path::PathBuf;

use conformance::{load_dir, Case, Expected};
use httpspan::stream::MessageKind;
use httpspan::{Error, Request, Response, Status};

/// Parses `buf` with a fresh parser of the case's kind and limits: the status, and
/// `check_truncated` on the same buffer.
fn parse_fresh(case: &Case, buf: &[u8]) -> (Result<Status, Error>, Result<(), Error>) {
    match case.kind {
        MessageKind::Request => {
            let mut req = Request::with_limits(case.limits());
            (req.parse(buf), req.check_truncated(buf))
        }
        MessageKind::Response => {
            let mut res = Response::with_limits(case.limits());
            (res.parse(buf), res.check_truncated(buf))
        }
    }
}

#[test]
fn no_prefix_of_an_accepted_head_is_rejected() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("vectors");
    let mut heads = 0;
    let mut prefixes = 0;
    for case in load_dir(&dir).into_iter().map(|c| c.expect("vectors load")) {
        if !matches!(case.expect.first(), Some(Expected::Message(_))) {
            continue;
        }
        let Ok(Status::Complete { head_len }) = parse_fresh(&case, &case.input).0 else {
            panic!(
                "{}: the first head of an accepted case does not parse",
                case.id
            );
        };
        heads += 1;
        for end in 1..head_len {
            let prefix = &case.input[..end];
            let (status, truncated) = parse_fresh(&case, prefix);
            assert_eq!(status, Ok(Status::Partial), "{} cut at {end}", case.id);
            assert_eq!(
                truncated,
                Ok(()),
                "{} cut at {end} is a valid beginning",
                case.id
            );
            prefixes += 1;
        }
    }
    assert!(
        heads > 500,
        "only {heads} accepted heads found in {}",
        dir.display()
    );
    assert!(prefixes > heads);
}
