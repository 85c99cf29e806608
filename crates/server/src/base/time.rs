//! Time as the server reads it: milliseconds since the Unix epoch, from a [`Clock`].
//!
//! The games' time (event times, players' clocks, their deadlines, the expiry of waiting games, idle
//! rooms) is read from the [`Clock`] the server is given: the wall clock ([`SystemClock`]) when it
//! serves, a [`ManualClock`] that moves only when a test moves it, so clock tests neither sleep nor
//! depend on the machine's speed.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Milliseconds since the Unix epoch, by the wall clock.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// A waiting future of a [`Clock`].
pub type Wait<'a> = Pin<Box<dyn Future<Output = ()> + Send + 'a>>;

/// Where the server reads the time.
pub trait Clock: Send + Sync + 'static {
    /// Milliseconds since the Unix epoch.
    fn now_ms(&self) -> i64;
    /// Waits until the clock reads `at_ms` or later — or less, never longer: a caller checks the time
    /// again when it returns (the wall clock may be set back or forth meanwhile).
    fn until(&self, at_ms: i64) -> Wait<'_>;
}

/// The wall clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

/// The longest a [`SystemClock`] waits at once: a wall clock set forward is noticed within it.
const LONGEST_WAIT: Duration = Duration::from_secs(60);

impl Clock for SystemClock {
    fn now_ms(&self) -> i64 {
        now_ms()
    }
    fn until(&self, at_ms: i64) -> Wait<'_> {
        let wait = Duration::from_millis(at_ms.saturating_sub(now_ms()).max(0) as u64);
        Box::pin(tokio::time::sleep(wait.min(LONGEST_WAIT)))
    }
}

/// A clock that stands still until it is moved ([`ManualClock::advance`]): for tests of clocks and
/// expiry, which then run at once and the same way on every machine.
#[derive(Debug)]
pub struct ManualClock {
    now: AtomicI64,
    moved: tokio::sync::Notify,
}

impl ManualClock {
    /// A clock reading `start_ms`.
    pub fn new(start_ms: i64) -> ManualClock {
        ManualClock {
            now: AtomicI64::new(start_ms),
            moved: tokio::sync::Notify::new(),
        }
    }
    /// Moves the clock forward by `by`, waking whoever waits for a time now reached.
    pub fn advance(&self, by: Duration) {
        self.now.fetch_add(by.as_millis() as i64, Ordering::SeqCst);
        self.moved.notify_waiters();
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> i64 {
        self.now.load(Ordering::SeqCst)
    }
    fn until(&self, at_ms: i64) -> Wait<'_> {
        Box::pin(async move {
            loop {
                let moved = self.moved.notified();
                tokio::pin!(moved);
                // Registered before the check, so a move between the check and the wait wakes it.
                moved.as_mut().enable();
                if self.now_ms() >= at_ms {
                    return;
                }
                moved.await;
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[tokio::test]
    async fn a_manual_clock_wakes_its_waiters_only_once_it_reads_their_time() {
        let clock = Arc::new(ManualClock::new(1_000));
        let waiter = tokio::spawn({
            let clock = clock.clone();
            async move { clock.until(3_000).await }
        });
        clock.advance(Duration::from_millis(1_000));
        tokio::task::yield_now().await;
        assert!(!waiter.is_finished(), "woke at 2,000 for 3,000");
        clock.advance(Duration::from_millis(1_000));
        tokio::time::timeout(Duration::from_secs(10), waiter)
            .await
            .expect("woke once the clock read 3,000")
            .expect("the waiter ran");
        assert_eq!(clock.now_ms(), 3_000);
    }

    #[tokio::test(start_paused = true)]
    async fn the_system_clock_waits_until_the_time_or_a_minute_at_most() {
        let start = tokio::time::Instant::now();
        SystemClock.until(now_ms() + 500).await;
        assert!(start.elapsed() >= Duration::from_millis(400));
        let start = tokio::time::Instant::now();
        SystemClock.until(now_ms() + 3_600_000).await;
        assert_eq!(start.elapsed(), LONGEST_WAIT);
    }
}
