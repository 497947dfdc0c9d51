use super::*;
use std::string::String;
use std::vec::Vec;

/// A reported line in offsets of the whole body: start, digits, ext_len, eol_len, size.
type Line = (usize, u8, u32, u8, u64);

/// Decodes `body` fed in pieces of `step` bytes, with [`ChunkedDecoder::decode_lines`] if
/// `lines`; returns the data, the bytes after the last-chunk line and the lines, or the
/// error.
fn decode_reporting(
    body: &[u8],
    step: usize,
    limits: &Limits,
    lines: bool,
) -> Result<(Vec<u8>, usize, Vec<Line>), Error> {
    let mut decoder = ChunkedDecoder::new();
    let (mut data, mut found) = (Vec::new(), Vec::new());
    let mut offset = 0;
    while offset < body.len() {
        let piece = &body[offset..(offset + step).min(body.len())];
        let mut input = piece;
        let mut base = offset;
        loop {
            let step = match lines {
                true => decoder.decode_lines(input, limits),
                false => decoder.decode(input, limits),
            };
            let (used, chunk) = step.map_err(|e| e.shifted(base as u64))?;
            match chunk {
                Chunk::Data(r) => data.extend_from_slice(&input[r]),
                Chunk::TrailerSection => return Ok((data, base + used, found)),
                Chunk::NeedMore => break,
                Chunk::Line(line) => {
                    let start = base + used - line.line_len() as usize;
                    found.push((start, line.digits, line.ext_len, line.eol_len, line.size));
                }
            }
            input = &input[used..];
            base += used;
        }
        offset += step;
    }
    Err(Error::new(ErrorKind::InvalidChunkSize, usize::MAX))
}

/// Decodes `body` fed in pieces of `step` bytes; returns the data and the bytes after the
/// last-chunk line, or the error. With lines reported the outcome must be the same.
fn decode(body: &[u8], step: usize, limits: &Limits) -> Result<(Vec<u8>, usize), Error> {
    let plain = decode_reporting(body, step, limits, false).map(|(d, end, _)| (d, end));
    let with_lines = decode_reporting(body, step, limits, true).map(|(d, end, _)| (d, end));
    assert_eq!(plain, with_lines, "with lines, step {step}");
    plain
}

fn all_steps(body: &[u8]) -> Result<(Vec<u8>, usize), Error> {
    let limits = Limits::DEFAULT;
    let whole = decode(body, body.len().max(1), &limits);
    for step in 1..body.len() {
        assert_eq!(decode(body, step, &limits), whole, "step {step}");
    }
    whole
}

#[test]
fn state_fits_in_16_bytes() {
    assert!(core::mem::size_of::<ChunkedDecoder>() <= 24);
}

/// On 64-bit targets a line takes no more room than a data range, so what `decode` returns
/// stays as large. (On 32-bit ones a range is 8 bytes and the line's u64 size is not.)
#[cfg(target_pointer_width = "64")]
#[test]
fn a_line_is_no_larger_than_a_range() {
    assert!(core::mem::size_of::<Chunk>() <= core::mem::size_of::<Option<Range<usize>>>());
}

#[test]
fn decodes_data_and_extensions_in_any_split() {
    let body = b"5\r\nhello\r\nA; a = b ;c=\"x\\\"y\"\r\n0123456789\r\n000\r\nrest";
    assert_eq!(
        all_steps(body),
        Ok((b"hello0123456789".to_vec(), body.len() - 4))
    );
}

#[test]
fn reports_the_parts_of_each_line_in_any_split() {
    let body = b"5\r\nhello\r\nA; a = b ;c=\"x\\\"y\"\r\n0123456789\r\n000\r\nrest";
    let limits = Limits::DEFAULT;
    let whole = decode_reporting(body, body.len(), &limits, true);
    for step in 1..body.len() {
        assert_eq!(
            decode_reporting(body, step, &limits, true),
            whole,
            "step {step}"
        );
    }
    let lines = [
        (0, 1, 0, 2, 5),
        // `A`, then `; a = b ;c="x\"y"`: 17 bytes of chunk-ext.
        (10, 1, 17, 2, 10),
        (42, 3, 0, 2, 0),
    ];
    assert_eq!(
        whole,
        Ok((b"hello0123456789".to_vec(), body.len() - 4, lines.to_vec()))
    );
    let mut lenient = Limits::DEFAULT;
    lenient.lenient.bare_lf = true;
    let body = b"1;x\nq\n0\n";
    let lines = [(0, 1, 2, 1, 1), (6, 1, 0, 1, 0)];
    for step in 1..=body.len() {
        let found = decode_reporting(body, step, &lenient, true);
        assert_eq!(found, Ok((b"q".to_vec(), body.len(), lines.to_vec())));
    }
}

#[test]
fn rejects_bad_sizes_and_extensions() {
    let cases: &[(&[u8], ErrorKind, usize)] = &[
        (b"x\r\n", ErrorKind::InvalidChunkSize, 0),
        (b"-1\r\n", ErrorKind::InvalidChunkSize, 0),
        (b"0x5\r\n", ErrorKind::InvalidChunkSize, 1),
        (b"5 \r\nhello\r\n", ErrorKind::InvalidChunkExtension, 2),
        (b"5\nhello", ErrorKind::BareLf, 1),
        (b"5\rhello", ErrorKind::BareCr, 2),
        (b"11111111111111111\r\n", ErrorKind::ChunkSizeTooLong, 16),
        (b"5;\r\n", ErrorKind::InvalidChunkExtension, 2),
        (b"5;a=\r\n", ErrorKind::InvalidChunkExtension, 4),
        (b"5;a=b \r\n", ErrorKind::InvalidChunkExtension, 6),
        (b"5;a\n", ErrorKind::BareLf, 3),
        (b"5;a=\"x\r\n", ErrorKind::InvalidChunkExtension, 6),
        (b"5\r\nhelloX", ErrorKind::MissingChunkCrlf, 8),
        (b"5\r\nhello\rX", ErrorKind::BareCr, 9),
        (b"5\r\nhello\n", ErrorKind::MissingChunkCrlf, 8),
    ];
    for (body, kind, offset) in cases {
        let err = all_steps(body).unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (*kind, *offset),
            "{}",
            String::from_utf8_lossy(body)
        );
    }
}

#[test]
fn sixteen_digit_sizes_do_not_overflow() {
    let (used, chunk) = ChunkedDecoder::new()
        .decode(b"FFFFFFFFFFFFFFFF\r\nab", &Limits::DEFAULT)
        .unwrap();
    assert_eq!((used, chunk), (20, Chunk::Data(18..20)));
}

/// The one-step paths (a plain size line, the CRLF after data) against the states alone:
/// fed a byte at a time, no line is ever whole in one input, so every byte goes through the
/// states. Every size line built from the pieces below, valid or not, must give the same
/// data, end, error kind and offset both ways, strict, with a small chunk-ext limit and
/// with bare LF.
#[test]
fn whole_lines_decode_as_the_states_do() {
    const SIZES: [&[u8]; 9] = [
        b"",
        b"0",
        b"5",
        b"aB",
        b"fFfFfF",
        b"1000000",
        b"0000000000000003",
        b"00000000000000003",
        b"x",
    ];
    const PIECES: [&[u8]; 16] = [
        b";", b" ", b"\t", b"=", b"\"", b"\\", b"a", b"Z9", b"\r", b"\n", b"\r\n", b"/", b"\x7f",
        b"\x80", b"\0", b"0",
    ];
    let mut lenient = Limits::DEFAULT;
    lenient.lenient.bare_lf = true;
    let mut small = Limits::DEFAULT;
    small.max_chunk_ext_bytes = 3;
    let mut body = Vec::new();
    // Under Miri, lines of up to one piece.
    let most = if cfg!(miri) { 1 } else { 3 };
    let mut lines = 0;
    for size in SIZES {
        for n in 0..=most {
            for mut k in 0..PIECES.len().pow(n) {
                body.clear();
                // A chunk before, so that the line also follows the CRLF after data.
                body.extend_from_slice(b"1\r\nq\r\n");
                body.extend_from_slice(size);
                for _ in 0..n {
                    body.extend_from_slice(PIECES[k % PIECES.len()]);
                    k /= PIECES.len();
                }
                body.extend_from_slice(b"\r\nabcde\r\n0\r\n\r\n");
                for limits in [&Limits::DEFAULT, &small, &lenient] {
                    let whole = decode(&body, body.len(), limits);
                    let bytewise = decode(&body, 1, limits);
                    assert_eq!(whole, bytewise, "{}", String::from_utf8_lossy(&body));
                    let whole = decode_reporting(&body, body.len(), limits, true);
                    let bytewise = decode_reporting(&body, 1, limits, true);
                    assert_eq!(whole, bytewise, "{}", String::from_utf8_lossy(&body));
                }
                lines += 1;
            }
        }
    }
    let per_size: usize = (0..=most).map(|n| PIECES.len().pow(n)).sum();
    assert_eq!(lines, SIZES.len() * per_size);
}

#[test]
fn chunk_ext_limit_is_inclusive() {
    let mut limits = Limits::DEFAULT;
    limits.max_chunk_ext_bytes = 6;
    assert!(decode(b"1;abcde\r\nx\r\n0\r\n", 100, &limits).is_ok());
    let err = decode(b"1;abcdef\r\nx\r\n0\r\n", 100, &limits).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (ErrorKind::ChunkExtensionTooLong, 7)
    );
    let err = decode(b"1;abcdef\r\nx\r\n0\r\n", 1, &limits).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (ErrorKind::ChunkExtensionTooLong, 7)
    );
}

#[test]
fn body_chunk_ext_limit_counts_every_line_and_is_inclusive() {
    let mut limits = Limits::DEFAULT;
    limits.max_body_chunk_ext_bytes = 12;
    // Three lines of 4 extension bytes each (`;abc`): 12 in all, accepted.
    let at_limit = b"1;abc\r\nx\r\n1;abc\r\ny\r\n0;abc\r\n\r\n";
    // One byte more on the last line: refused at that byte, the 13th of extensions.
    let over = b"1;abc\r\nx\r\n1;abc\r\ny\r\n0;abcd\r\n\r\n";
    for step in 1..=over.len() {
        assert!(decode(at_limit, step, &limits).is_ok(), "step {step}");
        let err = decode(over, step, &limits).unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (ErrorKind::ChunkExtensionsTooLarge, 25),
            "step {step}"
        );
        let err = decode_reporting(over, step, &limits, true).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::ChunkExtensionsTooLarge);
    }
    // A line over its own limit reports that limit, even when the body's is passed too.
    limits.max_chunk_ext_bytes = 3;
    let err = decode(over, over.len(), &limits).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ChunkExtensionTooLong);
}

#[test]
fn body_chunk_ext_limit_stops_a_flood_of_tiny_chunks() {
    // Many one-byte chunks, each with a 100-byte extension: the default total (256 KiB) stops
    // the body at its 262145th extension byte, however long it would go on. Under Miri, which
    // runs this about a hundred times slower, a 4 KiB total stands in for it.
    let mut limits = Limits::DEFAULT;
    if cfg!(miri) {
        limits.max_body_chunk_ext_bytes = 4096;
    }
    let total = limits.max_body_chunk_ext_bytes as usize;
    let line: Vec<u8> = [&b"1;"[..], &[b'e'; 99], b"\r\nx\r\n"].concat();
    let lines = total / 100 + 10;
    let body: Vec<u8> = line
        .iter()
        .copied()
        .cycle()
        .take(line.len() * lines)
        .collect();
    let err = decode(&body, body.len(), &limits).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ChunkExtensionsTooLarge);
    // `total / 100` whole lines of 100 extension bytes, then the extension byte past the total
    // in the next line (its extension starts one byte into the line, after the size).
    assert_eq!(err.offset(), total / 100 * line.len() + 1 + total % 100);
}
