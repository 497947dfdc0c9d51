//! The accept loop of the tokio examples: a bound on the connections served at once, and a
//! pause after an accept error, so that a server out of descriptors waits instead of spinning.

use std::future::Future;
use std::sync::Arc;

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;

use super::settings::{accept_backoff, is_connection_error};

/// Accepts connections on `listener` for ever, each served by `serve` as a task of this
/// thread's runtime while it holds one of `permits` (shared by all the threads of a server).
pub async fn accept_loop<F, Fut>(listener: TcpListener, permits: Arc<Semaphore>, serve: F)
where
    F: Fn(TcpStream) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let mut failures = 0;
    loop {
        // At the limit, connections wait in the listen backlog, not in our memory.
        let permit = Arc::clone(&permits)
            .acquire_owned()
            .await
            .expect("the semaphore is never closed");
        match listener.accept().await {
            Ok((stream, _)) => {
                failures = 0;
                let _ = stream.set_nodelay(true);
                let task = serve(stream);
                tokio::spawn(async move {
                    task.await;
                    drop(permit);
                });
            }
            // A client that gave up in the backlog: the next one may be accepted at once.
            Err(e) if is_connection_error(&e) => {}
            // Out of descriptors (EMFILE, ENFILE) or memory: the listener stays readable, so
            // retrying at once would spin; wait for connections to close.
            Err(e) => {
                if failures == 0 {
                    eprintln!("accept: {e}; pausing");
                }
                tokio::time::sleep(accept_backoff(failures)).await;
                failures += 1;
            }
        }
    }
}
