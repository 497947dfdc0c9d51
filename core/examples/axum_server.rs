//! An axum application served by httpspan: `serve::serve_connection` per connection, one
//! current-thread runtime.
//!
//! ```text
//! cargo run --release -p httpspan --example axum_server --features tower -- [ADDR]
//! curl -i http://127.0.0.1:8080/
//! curl -i -T README.md http://127.0.0.1:8080/echo    # a chunked upload, echoed as it streams
//! ```

use std::io;

use axum::body::Body;
use axum::routing::{get, post};
use axum::Router;
use httpspan::serve::{serve_connection, Options};

fn app() -> Router {
    Router::new().route("/", get(|| async { "hello\n" })).route(
        "/echo",
        post(|body: Body| async move { body }).put(|body: Body| async move { body }),
    )
}

fn main() -> io::Result<()> {
    let addr = std::env::args().nth(1);
    let addr = addr.as_deref().unwrap_or("127.0.0.1:8080");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        println!("listening on http://{}", listener.local_addr()?);
        let app = app();
        loop {
            // A failed accept (a client that gave up in the backlog) must not stop the server.
            let Ok((socket, _)) = listener.accept().await else {
                continue;
            };
            let _ = socket.set_nodelay(true);
            let app = app.clone();
            tokio::spawn(async move {
                if let Err(e) = serve_connection(socket, app, Options::default()).await {
                    eprintln!("connection: {e}");
                }
            });
        }
    })
}
