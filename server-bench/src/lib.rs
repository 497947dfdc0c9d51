//! What the competitor binaries share: the runtime settings of httpspan's example servers, one
//! current-thread tokio runtime per CPU, each with its own SO_REUSEPORT listener.

use std::future::Future;
use std::io;
use std::net::SocketAddr;

use tokio::net::{TcpListener, TcpSocket};

/// Binds `addr` once per thread (`HTTPSPAN_THREADS`, or one per CPU), prints
/// `listening on http://ADDR` (what bench.py waits for), and runs `serve(listener)` on each
/// thread's current-thread runtime until all of them return.
pub fn serve_per_cpu<F, Fut>(addr: SocketAddr, serve: F) -> io::Result<()>
where
    F: Fn(TcpListener) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let threads = match std::env::var("HTTPSPAN_THREADS") {
        Ok(n) => n.parse().map_err(io::Error::other)?,
        Err(_) => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let mut bound = addr;
    let mut handles = Vec::new();
    for _ in 0..threads {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        // The first listener picks the port; the others share it.
        let listener = runtime.block_on(async { listener(bound) })?;
        bound = listener.local_addr()?;
        let task = serve(listener);
        handles.push(std::thread::spawn(move || runtime.block_on(task)));
    }
    println!("listening on http://{bound}");
    for handle in handles {
        let _ = handle.join();
    }
    Ok(())
}

/// A listener on `addr` with SO_REUSEPORT, so that each thread can have its own.
fn listener(addr: SocketAddr) -> io::Result<TcpListener> {
    let socket = match addr {
        SocketAddr::V4(_) => TcpSocket::new_v4()?,
        SocketAddr::V6(_) => TcpSocket::new_v6()?,
    };
    socket.set_reuseaddr(true)?;
    socket.set_reuseport(true)?;
    socket.bind(addr)?;
    socket.listen(1024)
}
