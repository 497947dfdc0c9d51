//! The deadlines and bounds of the example servers and the proxy, with their defaults; each
//! can be changed through an environment variable (seconds, fractions allowed), so that a test
//! or the fault suite can shorten them. docs/server.md lists them next to hyper's, Go's and
//! nginx's.

use std::time::Duration;

/// The deadlines and bounds one server applies to each of its connections.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// The whole head of a request, counted from the end of the previous request (or from the
    /// accept): a kept-alive connection that sends no new request is closed after this too.
    /// `HTTPSPAN_HEAD_TIMEOUT`, 30 s.
    pub head: Duration,
    /// A request body must bring at least [`MIN_PROGRESS`] bytes in each window this long (or
    /// end). `HTTPSPAN_BODY_TIMEOUT`, 30 s.
    pub body: Duration,
    /// A write that the client does not take must move [`MIN_PROGRESS`] bytes in each window
    /// this long (or finish). `HTTPSPAN_WRITE_TIMEOUT`, 30 s.
    pub write: Duration,
    /// After the last answer, what the client still sends is read and dropped (so that a reset
    /// does not destroy the answer) for at most this long in all. `HTTPSPAN_LINGER_TIME`, 30 s
    /// (nginx's `lingering_time`, and `serve::Options`' default).
    pub linger_time: Duration,
    /// ... and for at most this long without a byte. `HTTPSPAN_LINGER_TIMEOUT`, 5 s (nginx's
    /// `lingering_timeout`).
    pub linger_timeout: Duration,
    /// Connections served at once by one process; the next ones wait in the listen backlog.
    /// `HTTPSPAN_MAX_CONNECTIONS`, 4,096.
    pub max_connections: usize,
    /// The proxy's connect to its upstream (504 after it). `HTTPSPAN_UPSTREAM_CONNECT_TIMEOUT`,
    /// 10 s.
    pub upstream_connect: Duration,
    /// The proxy's wait for the upstream's answer head (504 after it), and the progress window
    /// of the upstream's body. `HTTPSPAN_UPSTREAM_TIMEOUT`, 60 s.
    pub upstream: Duration,
}

/// The bytes a body or a write must move in each window for the window to start again: a
/// client that sends or reads a byte now and then does not hold a connection for ever.
#[allow(dead_code)] // the axum example has serve's own bounds
pub const MIN_PROGRESS: usize = 1024;

/// What the client may still send after the last answer, read and dropped before closing:
/// 256 KiB, as `serve::Options::linger_bytes` by default.
#[allow(dead_code)] // the axum example has serve's own bounds
pub const LINGER_BYTES: usize = 256 * 1024;

impl Settings {
    /// The defaults.
    pub const DEFAULT: Settings = Settings {
        head: Duration::from_secs(30),
        body: Duration::from_secs(30),
        write: Duration::from_secs(30),
        linger_time: Duration::from_secs(30),
        linger_timeout: Duration::from_secs(5),
        max_connections: 4096,
        upstream_connect: Duration::from_secs(10),
        upstream: Duration::from_secs(60),
    };

    /// The defaults, with what the environment variables set.
    pub fn from_env() -> Settings {
        let seconds = |name: &str, default: Duration| env_seconds(name).unwrap_or(default);
        let d = Settings::DEFAULT;
        Settings {
            head: seconds("HTTPSPAN_HEAD_TIMEOUT", d.head),
            body: seconds("HTTPSPAN_BODY_TIMEOUT", d.body),
            write: seconds("HTTPSPAN_WRITE_TIMEOUT", d.write),
            linger_time: seconds("HTTPSPAN_LINGER_TIME", d.linger_time),
            linger_timeout: seconds("HTTPSPAN_LINGER_TIMEOUT", d.linger_timeout),
            max_connections: match std::env::var("HTTPSPAN_MAX_CONNECTIONS") {
                Ok(text) => text
                    .parse()
                    .unwrap_or_else(|_| panic!("HTTPSPAN_MAX_CONNECTIONS={text}: a count")),
                Err(_) => d.max_connections,
            },
            upstream_connect: seconds("HTTPSPAN_UPSTREAM_CONNECT_TIMEOUT", d.upstream_connect),
            upstream: seconds("HTTPSPAN_UPSTREAM_TIMEOUT", d.upstream),
        }
    }

    /// The same deadlines, all shortened to `d` (for tests).
    #[allow(dead_code)] // not every file that includes this module has tests
    pub fn all(d: Duration) -> Settings {
        Settings {
            head: d,
            body: d,
            write: d,
            linger_time: d,
            linger_timeout: d,
            upstream_connect: d,
            upstream: d,
            ..Settings::DEFAULT
        }
    }
}

/// The duration the environment variable `name` gives in seconds, if it is set.
pub fn env_seconds(name: &str) -> Option<Duration> {
    let text = std::env::var(name).ok()?;
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 => Some(Duration::from_secs_f64(s)),
        _ => panic!("{name}={text}: a positive number of seconds is needed"),
    }
}

/// Whether an accept error concerns only the connection being accepted (the client gave up
/// in the backlog), so that the next accept may follow at once; any other (out of
/// descriptors, out of memory) calls for a pause, or the loop spins.
pub fn is_connection_error(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::*;
    matches!(
        e.kind(),
        ConnectionRefused | ConnectionAborted | ConnectionReset | Interrupted
    )
}

/// The pause after the `n`th accept failure in a row: 10 ms doubling up to 1 s.
pub fn accept_backoff(failures: u32) -> Duration {
    Duration::from_millis(10u64 << failures.min(7)).min(Duration::from_secs(1))
}
