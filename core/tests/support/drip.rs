//! A slow client for the deadline tests: it sends a prefix, then one byte at a time, and
//! times how long the server keeps the connection open.

use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// Sends `prefix` to `addr`, then `drip` one byte every `every` and then nothing, reading and
/// dropping what comes back, and returns how long the server took to close the connection
/// (`None`: still open after 5 s).
pub fn time_to_close(
    addr: SocketAddr,
    prefix: &[u8],
    drip: &[u8],
    every: Duration,
) -> Option<Duration> {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(every)).unwrap();
    stream.write_all(prefix).unwrap();
    let start = Instant::now();
    let mut next = drip.iter();
    let mut sink = [0u8; 4096];
    while start.elapsed() < Duration::from_secs(5) {
        if let Some(byte) = next.next() {
            if stream.write_all(&[*byte]).is_err() {
                return Some(start.elapsed());
            }
        }
        match stream.read(&mut sink) {
            Ok(0) => return Some(start.elapsed()),
            Ok(_) => {}
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => return Some(start.elapsed()),
        }
    }
    None
}
