//! How the tokio examples run: one current-thread runtime per CPU (or `HTTPSPAN_THREADS`), each
//! accepting on its own SO_REUSEPORT listener, so that no task moves between threads. Without
//! SO_REUSEPORT (Windows) one thread accepts.

use std::future::Future;
use std::io;
use std::net::SocketAddr;

use tokio::net::{TcpListener, TcpSocket};

/// Binds `addr` once per thread (port 0 picks a free port for all of them), runs
/// `accept(listener)` on each thread's runtime, and returns the address bound.
pub fn start<F, Fut>(addr: SocketAddr, accept: F) -> io::Result<SocketAddr>
where
    F: Fn(TcpListener) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let threads = match std::env::var("HTTPSPAN_THREADS") {
        _ if cfg!(not(unix)) => 1,
        Ok(n) => n.parse().map_err(io::Error::other)?,
        Err(_) => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let mut bound = addr;
    for _ in 0..threads {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        // The first listener picks the port; the others share it.
        let listener = runtime.block_on(async { listener(bound) })?;
        bound = listener.local_addr()?;
        let task = accept(listener);
        std::thread::spawn(move || runtime.block_on(task));
    }
    Ok(bound)
}

/// A listener on `addr` with SO_REUSEPORT, so that each thread can have its own.
fn listener(addr: SocketAddr) -> io::Result<TcpListener> {
    let socket = match addr {
        SocketAddr::V4(_) => TcpSocket::new_v4()?,
        SocketAddr::V6(_) => TcpSocket::new_v6()?,
    };
    socket.set_reuseaddr(true)?;
    #[cfg(unix)]
    socket.set_reuseport(true)?;
    socket.bind(addr)?;
    socket.listen(1024)
}
