//! Prints the outcomes of every vector under the directories given, fed all at once, as one
//! JSON object per line: `{"id", "outcomes", "cuts"}`. The wasm package's parity test compares
//! them with what the wasm build produces, field by field, errors with their code and offset.
//! `cuts` are the random split points of seed 0, so the test can check that both runners split
//! the same way.
//!
//! Usage: `cargo run --release -p conformance --example outcomes -- DIR...`

use conformance::{decode_stream, load_dir, random_cuts, Outcome};
use serde_json::{json, Value};

fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

fn pairs(fields: &[(Vec<u8>, Vec<u8>)]) -> Value {
    fields
        .iter()
        .map(|(n, v)| json!([latin1(n), latin1(v)]))
        .collect()
}

fn outcome(outcome: &Outcome) -> Value {
    match outcome {
        Outcome::Reject { code, offset } => json!({"reject": {"code": code, "offset": offset}}),
        Outcome::Incomplete => json!("incomplete"),
        Outcome::Message(m) => json!({
            "method": latin1(&m.method),
            "target": latin1(&m.target),
            "version": m.version,
            "status": m.status,
            "reason": latin1(&m.reason),
            "headers": pairs(&m.headers),
            "body": latin1(&m.body),
            "trailers": pairs(&m.trailers),
            // As text: a JSON number loses digits above 2^53 in JavaScript.
            "content_length": m.content_length.map(|n| n.to_string()),
            "chunked": m.chunked,
            "keep_alive": m.keep_alive,
            "interim": m.interim,
        }),
    }
}

fn main() {
    for dir in std::env::args().skip(1) {
        for case in load_dir(std::path::Path::new(&dir)).into_iter().flatten() {
            let outcomes = match decode_stream(&case, &[]) {
                Ok(outcomes) => outcomes.iter().map(outcome).collect(),
                Err(problem) => json!({ "decoder_error": problem }),
            };
            let cuts = random_cuts(&case.id, 0, case.input.len());
            println!(
                "{}",
                json!({"id": case.id, "outcomes": outcomes, "cuts": cuts})
            );
        }
    }
}
