//! [`OnUpgrade`]: the hand-over of a switched connection to the service that answered the
//! switch, as hyper's `upgrade::on` does.

use core::fmt;
use core::future::Future;
use core::pin::Pin;
use core::task::{Context, Poll, Waker};
use std::boxed::Box;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::io::{AsyncRead, AsyncWrite};

use super::Upgraded;

/// A connection handed to a service: any `AsyncRead + AsyncWrite` that can move to another
/// task.
pub trait UpgradedIo: AsyncRead + AsyncWrite + Send + Unpin {}

impl<T: AsyncRead + AsyncWrite + Send + Unpin> UpgradedIo for T {}

/// Why an [`OnUpgrade`] gave no connection: the response did not switch protocols, or the
/// connection ended before it could.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoUpgrade;

impl fmt::Display for NoUpgrade {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the connection did not switch protocols")
    }
}

impl std::error::Error for NoUpgrade {}

#[derive(Default)]
struct Slot {
    upgraded: Option<Upgraded<Box<dyn UpgradedIo>>>,
    /// No connection will come.
    closed: bool,
    waker: Option<Waker>,
}

fn lock(slot: &Mutex<Slot>) -> MutexGuard<'_, Slot> {
    // A panic while the lock is held leaves a slot that is still consistent.
    slot.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The connection after this request's response, once it switches protocols: found in the
/// extensions of a request that asks for an upgrade (`Upgrade` field) or is a CONNECT, when the
/// connection is served by
/// [`serve_connection_with_upgrades`](super::serve_connection_with_upgrades). Take it out of
/// the request (`req.extensions_mut().remove::<OnUpgrade>()`), answer 101 (or 2xx to
/// CONNECT), and await it in a task of its own: it gives the connection with the bytes read
/// past the request, once the response head is flushed, or [`NoUpgrade`].
#[derive(Clone)]
pub struct OnUpgrade {
    slot: Arc<Mutex<Slot>>,
}

impl fmt::Debug for OnUpgrade {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OnUpgrade").finish_non_exhaustive()
    }
}

impl Future for OnUpgrade {
    type Output = Result<Upgraded<Box<dyn UpgradedIo>>, NoUpgrade>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let mut slot = lock(&self.slot);
        if let Some(upgraded) = slot.upgraded.take() {
            slot.closed = true;
            return Poll::Ready(Ok(upgraded));
        }
        if slot.closed {
            return Poll::Ready(Err(NoUpgrade));
        }
        slot.waker = Some(cx.waker().clone());
        Poll::Pending
    }
}

/// The connection's end of an [`OnUpgrade`]; dropping it unfulfilled tells the service no
/// connection comes.
pub(super) struct Pending {
    slot: Arc<Mutex<Slot>>,
}

/// A new hand-over: the half for the request's extensions, and the connection's.
pub(super) fn pair() -> (OnUpgrade, Pending) {
    let slot = Arc::new(Mutex::new(Slot::default()));
    (OnUpgrade { slot: slot.clone() }, Pending { slot })
}

impl Pending {
    /// Whether the service kept the [`OnUpgrade`] to await the connection.
    pub(super) fn is_awaited(&self) -> bool {
        Arc::strong_count(&self.slot) > 1
    }

    /// Hands the connection over.
    pub(super) fn fulfil(self, upgraded: Upgraded<Box<dyn UpgradedIo>>) {
        let mut slot = lock(&self.slot);
        slot.upgraded = Some(upgraded);
        if let Some(waker) = slot.waker.take() {
            waker.wake();
        }
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        let mut slot = lock(&self.slot);
        if slot.upgraded.is_none() {
            slot.closed = true;
            if let Some(waker) = slot.waker.take() {
                waker.wake();
            }
        }
    }
}
