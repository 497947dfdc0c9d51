//! Running a test on tokio's paused clock, for the deadline tests.

use std::future::Future;
use std::time::Duration;

/// Runs `test` on a current-thread runtime whose clock is paused (it jumps to the next timer
/// whenever every task waits), failing it if it has not ended after an hour of that clock: a
/// missing deadline fails the test instead of hanging it.
pub fn paused<F: Future<Output = ()>>(test: F) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .start_paused(true)
        .build()
        .unwrap();
    runtime.block_on(async {
        tokio::time::timeout(Duration::from_secs(3600), test)
            .await
            .expect("a wait outlived every deadline");
    });
}
