//! `httpspan::serve::serve_connection_with_upgrades`: after a 101 or a 2xx answer to CONNECT the
//! connection comes back with the bytes read past the request; otherwise it closes as ever.

use std::future::pending;
use std::time::Duration;

use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::Router;
use httpspan::serve::{serve_connection_with_upgrades, Options, ServeError, Upgraded};
use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream};

/// What the service leaves in the response for the code that takes the connection over.
#[derive(Clone, Debug, PartialEq)]
struct Protocol(&'static str);

fn app() -> Router {
    let switch = || async {
        let mut response = axum::response::Response::new(axum::body::Body::empty());
        *response.status_mut() = StatusCode::SWITCHING_PROTOCOLS;
        response
            .headers_mut()
            .insert("upgrade", http::HeaderValue::from_static("echo"));
        response.extensions_mut().insert(Protocol("echo"));
        response
    };
    Router::new()
        .route("/", get(|| async { "hello" }))
        .route("/ws", get(switch))
        .route("/upload-then-switch", post(switch))
        // CONNECT's authority-form target has no path to route on.
        .fallback(|| async { (StatusCode::OK, [("x-tunnel", "yes")]) })
}

/// Runs `test` on a current-thread runtime of its own.
fn run<F: std::future::Future>(test: F) -> F::Output {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(test)
}

/// Serves `input` (then keeps the client's side open) and returns the server's outcome and the
/// client's end.
fn serve(
    input: &'static [u8],
) -> (
    Result<Option<Upgraded<DuplexStream>>, ServeError>,
    DuplexStream,
) {
    run(async {
        let (mut client, server) = tokio::io::duplex(64 * 1024);
        client.write_all(input).await.unwrap();
        let served = serve_connection_with_upgrades(server, app(), Options::default(), pending());
        let served = tokio::time::timeout(Duration::from_secs(10), served)
            .await
            .expect("served in time");
        (served, client)
    })
}

/// What the server wrote to `client` so far.
fn written(client: &mut DuplexStream) -> String {
    run(async {
        let mut out = vec![0u8; 64 * 1024];
        let read = tokio::time::timeout(Duration::from_millis(200), client.read(&mut out)).await;
        let n = read.map_or(0, |n| n.unwrap());
        String::from_utf8_lossy(&out[..n]).into_owned()
    })
}

#[test]
fn a_101_hands_over_the_connection_with_the_bytes_after_the_request() {
    let (served, mut client) = serve(
        b"GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: echo\r\nConnection: upgrade\r\n\r\n\x81\x05hello",
    );
    let upgraded = served.unwrap().expect("handed over");
    assert_eq!(&upgraded.read_buf[..], b"\x81\x05hello");
    assert_eq!(upgraded.response.status, StatusCode::SWITCHING_PROTOCOLS);
    assert_eq!(
        upgraded.response.extensions.get::<Protocol>(),
        Some(&Protocol("echo"))
    );
    let request = upgraded.request.request();
    assert_eq!(upgraded.request.bytes_of(request.target()), b"/ws");
    let head = written(&mut client);
    assert!(
        head.starts_with("HTTP/1.1 101 Switching Protocols\r\n"),
        "{head}"
    );
    assert!(
        head.ends_with("\r\n\r\n"),
        "nothing after the head: {head:?}"
    );
}

#[test]
fn a_2xx_to_connect_hands_over_the_tunnel() {
    let (served, mut client) =
        serve(b"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n\x16\x03\x01");
    let upgraded = served.unwrap().expect("handed over");
    assert_eq!(&upgraded.read_buf[..], b"\x16\x03\x01");
    let request = upgraded.request.request();
    assert_eq!(upgraded.request.bytes_of(request.method()), b"CONNECT");
    assert_eq!(
        upgraded.request.bytes_of(request.target()),
        b"example.com:443"
    );
    assert_eq!(
        written(&mut client),
        "HTTP/1.1 200 OK\r\nx-tunnel: yes\r\n\r\n"
    );
}

#[test]
fn a_switch_after_a_request_body_starts_after_the_body() {
    let (served, _client) = serve(
        b"POST /upload-then-switch HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhellonext",
    );
    let upgraded = served.unwrap().expect("handed over");
    assert_eq!(&upgraded.read_buf[..], b"next");
}

#[test]
fn without_a_switch_the_connection_ends_as_ever() {
    let (served, mut client) =
        serve(b"GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\nGET / HTTP/1.1\r\n");
    assert!(served.unwrap().is_none());
    let out = written(&mut client);
    assert!(
        out.starts_with("HTTP/1.1 200 OK\r\n") && out.ends_with("hello"),
        "{out}"
    );
}

#[test]
fn a_service_that_keeps_on_upgrade_gets_the_connection() {
    use httpspan::serve::OnUpgrade;
    run(async {
        let app = Router::new().route(
            "/ws",
            get(|mut request: axum::extract::Request| async move {
                let on_upgrade = request.extensions_mut().remove::<OnUpgrade>();
                let on_upgrade = on_upgrade.expect("an upgrade request carries OnUpgrade");
                // The echo protocol, in a task of its own.
                tokio::spawn(async move {
                    let mut upgraded = on_upgrade.await.expect("switched");
                    upgraded.io.write_all(&upgraded.read_buf).await.unwrap();
                    let mut piece = [0u8; 64];
                    loop {
                        let n = upgraded.io.read(&mut piece).await.unwrap();
                        if n == 0 {
                            break;
                        }
                        upgraded.io.write_all(&piece[..n]).await.unwrap();
                    }
                });
                (StatusCode::SWITCHING_PROTOCOLS, [("upgrade", "echo")])
            }),
        );
        let (mut client, server) = tokio::io::duplex(64 * 1024);
        client
            .write_all(b"GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: echo\r\nConnection: upgrade\r\n\r\nfirst ")
            .await
            .unwrap();
        let served = serve_connection_with_upgrades(server, app, Options::default(), pending());
        assert!(served.await.unwrap().is_none(), "handed to the service");
        client.write_all(b"second").await.unwrap();
        client.shutdown().await.unwrap();
        let mut out = Vec::new();
        let read = client.read_to_end(&mut out);
        tokio::time::timeout(Duration::from_secs(10), read)
            .await
            .expect("echoed in time")
            .unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(out.starts_with("HTTP/1.1 101 "), "{out}");
        assert!(out.ends_with("\r\n\r\nfirst second"), "{out}");
    });
}

#[test]
fn on_upgrade_says_no_when_the_response_does_not_switch() {
    use httpspan::serve::{NoUpgrade, OnUpgrade};
    run(async {
        let (told, outcome) = tokio::sync::oneshot::channel();
        let told = std::sync::Arc::new(std::sync::Mutex::new(Some(told)));
        let app = Router::new().route(
            "/ws",
            get(move |mut request: axum::extract::Request| async move {
                let on_upgrade = request.extensions_mut().remove::<OnUpgrade>().unwrap();
                let told = told.lock().unwrap().take().unwrap();
                tokio::spawn(async move {
                    let _ = told.send(on_upgrade.await.map(|_| ()));
                });
                "no switch"
            }),
        );
        let (mut client, server) = tokio::io::duplex(64 * 1024);
        client
            .write_all(b"GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: echo\r\nConnection: upgrade, close\r\n\r\n")
            .await
            .unwrap();
        let served = serve_connection_with_upgrades(server, app, Options::default(), pending());
        assert!(served.await.unwrap().is_none());
        assert_eq!(outcome.await.unwrap(), Err(NoUpgrade));
    });
}
