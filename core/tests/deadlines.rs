//! `httpspan::codec::Deadlines` on tokio's paused clock: the stall timers run only while a read
//! or a write waits and restart once the floor of bytes has moved (one byte unless raised);
//! the read deadline holds however much arrives.

#[path = "support/paused_clock.rs"]
mod paused_clock;

use std::time::Duration;

use httpspan::codec::{Deadlines, Expired};
use paused_clock::paused;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::time::{sleep, Instant};

const STALL: Duration = Duration::from_secs(60);

#[test]
fn a_read_stall_restarts_with_each_byte_and_fails_a_silent_peer() {
    paused(async {
        let (mut peer, io) = tokio::io::duplex(64);
        let mut io = Deadlines::new(io, Some(STALL), None);
        let feeder = tokio::spawn(async move {
            for _ in 0..5 {
                sleep(STALL - Duration::from_secs(1)).await;
                peer.write_all(b"x").await.unwrap();
            }
            peer
        });
        let mut byte = [0u8; 1];
        for _ in 0..5 {
            assert_eq!(io.read(&mut byte).await.unwrap(), 1);
        }
        let _peer = feeder.await.unwrap();
        let started = Instant::now();
        let error = io.read(&mut byte).await.unwrap_err();
        assert_eq!(Expired::of(&error), Some(Expired::ReadStalled));
        assert_eq!(error.kind(), std::io::ErrorKind::TimedOut);
        assert_eq!(started.elapsed(), STALL);
    });
}

#[test]
fn time_spent_not_reading_does_not_count() {
    paused(async {
        let (mut peer, io) = tokio::io::duplex(64);
        let mut io = Deadlines::new(io, Some(STALL), None);
        peer.write_all(b"x").await.unwrap();
        sleep(STALL * 3).await;
        let mut byte = [0u8; 1];
        assert_eq!(io.read(&mut byte).await.unwrap(), 1);
    });
}

#[test]
fn the_read_deadline_holds_however_much_arrives() {
    paused(async {
        let (mut peer, io) = tokio::io::duplex(64);
        let mut io = Deadlines::new(io, Some(STALL), None);
        let started = Instant::now();
        io.set_read_deadline(Some(started + Duration::from_secs(30)));
        let trickle = tokio::spawn(async move {
            for _ in 0..100 {
                sleep(Duration::from_secs(2)).await;
                if peer.write_all(b"x").await.is_err() {
                    break;
                }
            }
            peer
        });
        let mut sink = Vec::new();
        let error = io.read_to_end(&mut sink).await.unwrap_err();
        assert_eq!(Expired::of(&error), Some(Expired::ReadDeadline));
        assert_eq!(started.elapsed(), Duration::from_secs(30));
        assert_eq!(sink.len(), 14);
        io.set_read_deadline(None);
        trickle.abort();
    });
}

#[test]
fn a_write_stall_fails_a_peer_that_stops_reading() {
    paused(async {
        let (mut peer, io) = tokio::io::duplex(64);
        let mut io = Deadlines::new(io, None, Some(STALL));
        // A slow reader keeps the writer going well past the stall timeout.
        let reader = tokio::spawn(async move {
            let mut piece = [0u8; 64];
            for _ in 0..10 {
                sleep(STALL / 2).await;
                peer.read_exact(&mut piece).await.unwrap();
            }
            peer
        });
        io.write_all(&[b'w'; 64 * 10]).await.unwrap();
        let _peer = reader.await.unwrap();
        let started = Instant::now();
        let error = io.write_all(&[b'w'; 65]).await.unwrap_err();
        assert_eq!(Expired::of(&error), Some(Expired::WriteStalled));
        assert_eq!(started.elapsed(), STALL);
    });
}

#[test]
fn a_read_floor_counts_only_the_time_spent_waiting() {
    paused(async {
        let (mut peer, io) = tokio::io::duplex(4096);
        let mut io = Deadlines::new(io, Some(STALL), None);
        io.set_read_min_bytes(1024);
        // 100 bytes, short of the floor, taken only after three windows of wall time.
        peer.write_all(&[b'x'; 100]).await.unwrap();
        sleep(STALL * 3).await;
        let mut piece = [0u8; 1024];
        assert_eq!(io.read(&mut piece).await.unwrap(), 100);
        // The window's waiting starts now: a byte every 2 s adds no time to it.
        let started = Instant::now();
        let trickle = tokio::spawn(async move {
            loop {
                sleep(Duration::from_secs(2)).await;
                if peer.write_all(b"x").await.is_err() {
                    break;
                }
            }
        });
        let error = loop {
            match io.read(&mut piece).await {
                Ok(n) => assert_eq!(n, 1),
                Err(e) => break e,
            }
        };
        assert_eq!(Expired::of(&error), Some(Expired::ReadStalled));
        assert_eq!(started.elapsed(), STALL);
        trickle.abort();
    });
}
