//! An axum application served by httpspan: `serve::serve_connection_with_shutdown` per
//! connection, one current-thread runtime.
//!
//! ```text
//! cargo run --release -p httpspan --example axum_server --features tower -- [ADDR]
//! curl -i http://127.0.0.1:8080/
//! curl -i -T README.md http://127.0.0.1:8080/echo    # a chunked upload, echoed as it streams
//! ```
//!
//! The deadlines and bounds are `serve::Options::default()`'s (a head in 30 s, counting a
//! kept-alive connection's wait; bodies and writes that move 1 KiB per 60 s of waiting; a
//! lingering close of 30 s, 5 s without a byte, 256 KiB; a bounded discard); the environment variables of `settings/mod.rs` change them
//! (`HTTPSPAN_HEAD_TIMEOUT`, `HTTPSPAN_BODY_TIMEOUT`, `HTTPSPAN_WRITE_TIMEOUT`,
//! `HTTPSPAN_LINGER_TIME`, `HTTPSPAN_LINGER_TIMEOUT`, in seconds). At most 4,096 connections
//! are served at once (`HTTPSPAN_MAX_CONNECTIONS`), and an accept error pauses the accept loop
//! instead of spinning. On Ctrl-C or SIGTERM the server stops accepting, lets each connection
//! finish the request in flight, and exits once all are closed (or after 30 s).

use std::io;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::routing::{get, post};
use axum::Router;
use futures_util::future::select;
use httpspan::serve::{serve_connection_with_shutdown, Options};
use tokio::sync::{watch, Semaphore};

mod accept;
mod settings;
use settings::{env_seconds, Settings};

/// How long a stop waits for the connections to finish their requests.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(30);

fn app() -> Router {
    Router::new().route("/", get(|| async { "hello\n" })).route(
        "/echo",
        post(|body: Body| async move { body }).put(|body: Body| async move { body }),
    )
}

/// `Options::default()`, with the deadlines the environment sets.
fn options() -> Options {
    let mut options = Options::default();
    if let Some(d) = env_seconds("HTTPSPAN_HEAD_TIMEOUT") {
        options = options.head_timeout(Some(d));
    }
    if let Some(d) = env_seconds("HTTPSPAN_BODY_TIMEOUT") {
        options = options.body_read_stall(Some(d));
    }
    if let Some(d) = env_seconds("HTTPSPAN_WRITE_TIMEOUT") {
        options = options.write_stall(Some(d));
    }
    if let Some(d) = env_seconds("HTTPSPAN_LINGER_TIME") {
        options = options.linger_time(d);
    }
    if let Some(d) = env_seconds("HTTPSPAN_LINGER_TIMEOUT") {
        options = options.linger_timeout(d);
    }
    options
}

/// Resolves on Ctrl-C, or on SIGTERM where there are signals.
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let Ok(mut term) = signal(SignalKind::terminate()) else {
            return std::future::pending().await;
        };
        let interrupted = std::pin::pin!(tokio::signal::ctrl_c());
        let terminated = std::pin::pin!(term.recv());
        let _ = select(interrupted, terminated).await;
    }
    #[cfg(not(unix))]
    let _ = tokio::signal::ctrl_c().await;
}

fn main() -> io::Result<()> {
    let addr = std::env::args().nth(1);
    let addr = addr.as_deref().unwrap_or("127.0.0.1:8080");
    let settings = Settings::from_env();
    let options = options();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        println!("listening on http://{}", listener.local_addr()?);
        let app = app();
        let permits = Arc::new(Semaphore::new(settings.max_connections));
        let (stop, stopped) = watch::channel(false);
        let accepting = accept::accept_loop(listener, Arc::clone(&permits), move |socket| {
            let app = app.clone();
            let mut stopped = stopped.clone();
            async move {
                let asked = async move {
                    let _ = stopped.wait_for(|stop| *stop).await;
                };
                if let Err(e) = serve_connection_with_shutdown(socket, app, options, asked).await {
                    // ServeError's Display is its own sentence; its causes follow by source().
                    let mut line = format!("connection: {e}");
                    let mut cause = std::error::Error::source(&e);
                    while let Some(inner) = cause {
                        line.push_str(&format!(": {inner}"));
                        cause = inner.source();
                    }
                    eprintln!("{line}");
                }
            }
        });
        let _ = select(std::pin::pin!(accepting), std::pin::pin!(stop_signal())).await;
        // Each connection gives its permit back when it ends: all of them back, all closed.
        let _ = stop.send(true);
        let all = u32::try_from(settings.max_connections).unwrap_or(u32::MAX);
        let _ = tokio::time::timeout(SHUTDOWN_GRACE, permits.acquire_many(all)).await;
        println!("stopped");
        Ok(())
    })
}
