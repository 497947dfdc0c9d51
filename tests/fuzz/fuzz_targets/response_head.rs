//! Response heads: every invariant of `httpspan_fuzz::check_head`, answering GET, HEAD and
//! CONNECT; the three parses differ only in framing.
#![no_main]

use httpspan_fuzz::{check_head, HeadOutcome, ResponseTo};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let get = check_head(data, || ResponseTo::new(b"GET"));
    for method in [&b"HEAD"[..], b"CONNECT"] {
        let other = check_head(data, || ResponseTo::new(method));
        match (&get, &other) {
            (HeadOutcome::Complete(a), HeadOutcome::Complete(b)) => {
                assert_eq!(a.fields, b.fields);
                assert_eq!(
                    (a.status, a.start, a.head_len),
                    (b.status, b.start, b.head_len)
                );
            }
            _ => assert_eq!(get, other, "the method changed more than framing"),
        }
    }
});
