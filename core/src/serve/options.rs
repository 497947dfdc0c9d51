//! [`Options`]: every limit and deadline of [`serve_connection`](super::serve_connection), with
//! defaults safe on the open internet.

use core::time::Duration;

use crate::limits::Limits;

/// How [`serve_connection`](super::serve_connection) serves: the parser's [`Limits`], the
/// deadlines and the bounds of the work a client can cause. `Options::default()` has them all
/// on; each setter returns the options, as with hyper's `http1::Builder`.
///
/// | setting | default | hyper 1.x | Go `http.Server` | nginx |
/// | --- | --- | --- | --- | --- |
/// | [`head_timeout`](Self::head_timeout): a whole head, from the end of the previous request (or the accept) | 30 s | `header_read_timeout`, 30 s with a timer | `ReadHeaderTimeout` (none), `IdleTimeout` | `client_header_timeout` 60 s, `keepalive_timeout` 75 s |
/// | [`body_read_stall`](Self::body_read_stall): a window of waiting for request body bytes | 60 s | none | `ReadTimeout`: head and body in all, from the request's start (none) | `client_body_timeout` 60 s, between two reads |
/// | [`body_read_min_bytes`](Self::body_read_min_bytes): body bytes each window must bring | 1 KiB | — | — | — (one byte restarts the timer) |
/// | [`write_stall`](Self::write_stall): a window of waiting for the client to take output | 60 s | none | `WriteTimeout`: the whole response, from the end of the head (none) | `send_timeout` 60 s, between two writes |
/// | [`write_min_bytes`](Self::write_min_bytes): output bytes each window must move | 1 KiB | — | — | — (one byte restarts the timer) |
/// | [`linger_time`](Self::linger_time): reading and dropping after an error's answer, in all | 30 s | none (closes) | half-close, then 500 ms (`rstAvoidanceDelay`) | `lingering_time` 30 s |
/// | [`linger_timeout`](Self::linger_timeout): one wait for more bytes while lingering | 5 s | — | — | `lingering_timeout` 5 s |
/// | [`linger_bytes`](Self::linger_bytes): bytes dropped while lingering | 256 KiB | — | — | — |
/// | [`max_discard_bytes`](Self::max_discard_bytes): request body the service left unread, discarded to reuse the connection | 256 KiB | what one read holds | 256 KiB (`maxPostHandlerReadBytes`) | `discard_body` with `lingering_*` |
/// | [`read_buffer_bytes`](Self::read_buffer_bytes): room reserved for each read | 8 KiB | 8 KiB initial, 400 KiB max | 4 KiB | `client_header_buffer_size` 1 KiB |
/// | [`write_high_water`](Self::write_high_water): response bytes buffered before the body waits for the socket | 64 KiB | `max_buf_size` 400 KiB | 4 KiB | `postpone_output` 1460 |
/// | [`Limits`]: head bytes, field lines, chunk extensions, trailers, body | 8 KiB head, 64 field lines, ... | 400 KiB buffer, 100 fields | `MaxHeaderBytes` 1 MiB | `large_client_header_buffers` 4 × 8 KiB |
///
/// A deadline set to `None` is off. The stall timeouts are deadlines on progress, neither
/// Go's totals nor nginx's timers between two reads: they count only the time the connection
/// waits on the socket, and that time must not add up to a whole window before the window's
/// minimum of bytes has moved; then a new window starts. A client that sends or reads a byte
/// now and then is cut within one window of waiting, a long upload or download that moves at
/// least the minimum per window is never cut, and time the service spends (computing a
/// response, or not reading its body) does not count. A deadline needs tokio's time driver:
/// run `serve_connection` on a runtime built with `enable_time` or `enable_all`.
///
/// Field lines are bounded by [`Limits::max_field_lines`] and by the 64 slots of the codec's
/// parser, whichever is smaller; head bytes by [`Limits::max_head_bytes`].
///
/// ```
/// use std::time::Duration;
/// use httpspan::serve::Options;
///
/// let mut limits = httpspan::Limits::default();
/// limits.max_head_bytes = 4096;
/// limits.max_field_lines = 32;
/// let options = Options::new(limits)
///     .head_timeout(Some(Duration::from_secs(10)))
///     .write_stall(Some(Duration::from_secs(20)))
///     .body_read_min_bytes(4096)
///     .max_discard_bytes(64 * 1024);
/// # let _ = options;
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub(super) limits: Limits,
    pub(super) keep_names: bool,
    pub(super) head_timeout: Option<Duration>,
    pub(super) body_read_stall: Option<Duration>,
    pub(super) body_read_min_bytes: usize,
    pub(super) write_stall: Option<Duration>,
    pub(super) write_min_bytes: usize,
    pub(super) linger_time: Duration,
    pub(super) linger_timeout: Duration,
    pub(super) linger_bytes: usize,
    pub(super) max_discard_bytes: u64,
    pub(super) read_buffer_bytes: usize,
    pub(super) write_high_water: usize,
}

impl Default for Options {
    /// The default [`Limits`], names lower-case, and the defaults in the table above.
    fn default() -> Self {
        Options::new(Limits::DEFAULT)
    }
}

impl Options {
    /// Serving with these limits for heads, bodies and trailers, and every other setting at
    /// its default.
    #[must_use]
    pub fn new(limits: Limits) -> Self {
        Options {
            limits,
            keep_names: false,
            head_timeout: Some(Duration::from_secs(30)),
            body_read_stall: Some(Duration::from_secs(60)),
            body_read_min_bytes: 1024,
            write_stall: Some(Duration::from_secs(60)),
            write_min_bytes: 1024,
            linger_time: Duration::from_secs(30),
            linger_timeout: Duration::from_secs(5),
            linger_bytes: 256 * 1024,
            max_discard_bytes: 256 * 1024,
            read_buffer_bytes: 8 * 1024,
            write_high_water: 64 * 1024,
        }
    }

    /// Whether each request carries its field names' spelling and order as an
    /// [`OriginalNames`](crate::to_http::OriginalNames) in its extensions; a response that
    /// carries one is written with it either way. Default `false`.
    #[must_use]
    pub fn keep_names(mut self, keep: bool) -> Self {
        self.keep_names = keep;
        self
    }

    /// The time a client has to send a whole request head, counted from the accept for the
    /// first request and from the end of the previous exchange (response written, its request
    /// read) for the next: it bounds a slow head (slowloris) and an idle kept-alive connection
    /// alike. A connection with no byte of a head is closed silently, one with part of a head
    /// is answered 408. Default 30 s.
    #[must_use]
    pub fn head_timeout(mut self, timeout: Option<Duration>) -> Self {
        self.head_timeout = timeout;
        self
    }

    /// The window of a request body's deadline on progress, while the body is read (for the
    /// service, or to discard it): the time spent waiting for body bytes must not reach it
    /// before [`body_read_min_bytes`](Self::body_read_min_bytes) have come. A client that stops
    /// sending its body, or sends it too slowly, is answered 408 if no response has started,
    /// and the connection closed. Default 60 s.
    #[must_use]
    pub fn body_read_stall(mut self, timeout: Option<Duration>) -> Self {
        self.body_read_stall = timeout;
        self
    }

    /// The request body bytes each [`body_read_stall`](Self::body_read_stall) window of
    /// waiting must bring: the slowest upload served, about this many bytes per window. 1
    /// cuts only a client that sends nothing for a window; 0 counts as 1. Default 1 KiB.
    #[must_use]
    pub fn body_read_min_bytes(mut self, bytes: usize) -> Self {
        self.body_read_min_bytes = bytes.max(1);
        self
    }

    /// The window of the output's deadline on progress: the time spent waiting for the client
    /// to take output must not reach it before [`write_min_bytes`](Self::write_min_bytes) have
    /// been taken. A client that stops reading, or reads too slowly, is cut off. Default 60 s.
    #[must_use]
    pub fn write_stall(mut self, timeout: Option<Duration>) -> Self {
        self.write_stall = timeout;
        self
    }

    /// The output bytes the client must take in each [`write_stall`](Self::write_stall)
    /// window of waiting: the slowest download served. 1 cuts only a client that takes
    /// nothing for a window; 0 counts as 1. Default 1 KiB.
    #[must_use]
    pub fn write_min_bytes(mut self, bytes: usize) -> Self {
        self.write_min_bytes = bytes.max(1);
        self
    }

    /// After an error's answer (or a body left unread past
    /// [`max_discard_bytes`](Self::max_discard_bytes)), the connection reads and drops what the
    /// client still sends before it closes, so that the close does not reset the connection
    /// and destroy the answer before the client reads it; this is the most time it spends so.
    /// Default 30 s.
    #[must_use]
    pub fn linger_time(mut self, time: Duration) -> Self {
        self.linger_time = time;
        self
    }

    /// While lingering, the longest wait for more bytes before closing. Default 5 s.
    #[must_use]
    pub fn linger_timeout(mut self, timeout: Duration) -> Self {
        self.linger_timeout = timeout;
        self
    }

    /// While lingering, the most bytes read and dropped before closing. Default 256 KiB.
    #[must_use]
    pub fn linger_bytes(mut self, bytes: usize) -> Self {
        self.linger_bytes = bytes;
        self
    }

    /// The most request body bytes discarded once the service has dropped the body (or
    /// answered without reading it), so that the connection can carry the next request; past
    /// it the connection closes after the response instead. Default 256 KiB.
    #[must_use]
    pub fn max_discard_bytes(mut self, bytes: u64) -> Self {
        self.max_discard_bytes = bytes;
        self
    }

    /// The room reserved in the read buffer before each read: the most one read takes from
    /// the socket. The buffer holds at most this plus an unfinished head or trailer section
    /// (bounded by the [`Limits`]), since body data is handed on as it is decoded. At least 1.
    /// Default 8 KiB.
    #[must_use]
    pub fn read_buffer_bytes(mut self, bytes: usize) -> Self {
        self.read_buffer_bytes = bytes.max(1);
        self
    }

    /// The response bytes buffered before the response body is polled again only once they are
    /// written: the back-pressure on a streamed response, and with one body frame more, the
    /// most output a connection holds. Default 64 KiB.
    #[must_use]
    pub fn write_high_water(mut self, bytes: usize) -> Self {
        self.write_high_water = bytes;
        self
    }
}
