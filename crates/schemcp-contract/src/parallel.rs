//! Work spread over the machine's cores, for the loader and the generator: the steps that
//! handle each file or schema on its own ([`map`], [`for_each_mut`]), and two independent steps
//! side by side ([`both`]). A build script runs on one thread by default; on a set of a
//! thousand tools those steps are a fifth of the generator's time. Not a stable API: it is
//! public for `schemcp-build` only.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::{panic, thread};

/// Stack of each worker: the schema passes recurse once per level of nesting, and a spawned
/// thread gets 2 MiB where a build script's main thread has 8.
const WORKER_STACK: usize = 64 << 20;

/// `items.iter().map(f).collect()`, with the items shared out among up to one thread per core.
/// The results are in the order of `items` whatever thread made them, and a panic in `f` is
/// resumed on the caller's thread.
///
/// ```
/// let doubled = schemcp_contract::parallel::map(&[1, 2, 3], |n| n * 2);
/// assert_eq!(doubled, [2, 4, 6]);
/// ```
pub fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(items.len());
    if threads <= 1 {
        return items.iter().map(f).collect();
    }
    // Items are taken one at a time, so a thread that drew large schemas does not hold up the
    // rest.
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(i) else {
                return done;
            };
            done.push((i, f(item)));
        }
    };
    let mut results: Vec<(usize, R)> = thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads)
            .map(|_| {
                thread::Builder::new()
                    .stack_size(WORKER_STACK)
                    .spawn_scoped(scope, work)
                    .expect("a thread for the generator")
            })
            .collect();
        let mut results = work();
        for helper in helpers {
            match helper.join() {
                Ok(done) => results.extend(done),
                Err(payload) => panic::resume_unwind(payload),
            }
        }
        results
    });
    results.sort_unstable_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}

/// `items.iter_mut().for_each(f)`, with the items shared out among up to one thread per core
/// as [`map`] does; a panic in `f` is resumed on the caller's thread.
///
/// ```
/// let mut items = [1, 2, 3];
/// schemcp_contract::parallel::for_each_mut(&mut items, |n| *n += 1);
/// assert_eq!(items, [2, 3, 4]);
/// ```
pub fn for_each_mut<T: Send>(items: &mut [T], f: impl Fn(&mut T) + Sync) {
    // Each item is locked once, by the one thread that takes it: the locks only carry the
    // `&mut` across threads.
    let cells: Vec<Mutex<&mut T>> = items.iter_mut().map(Mutex::new).collect();
    map(&cells, |cell| {
        let mut item = cell.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        f(&mut item)
    });
}

/// `(a(), b())`, with `a` on another thread (with a worker's stack) while `b` runs on this
/// one; a panic in `a` is resumed on the caller's thread.
///
/// ```
/// let (a, b) = schemcp_contract::parallel::both(|| 1 + 1, || "two");
/// assert_eq!((a, b), (2, "two"));
/// ```
pub fn both<A: Send, B>(a: impl FnOnce() -> A + Send, b: impl FnOnce() -> B) -> (A, B) {
    thread::scope(|scope| {
        let a = thread::Builder::new()
            .stack_size(WORKER_STACK)
            .spawn_scoped(scope, a)
            .expect("a thread for the generator");
        let b = b();
        let a = a
            .join()
            .unwrap_or_else(|payload| panic::resume_unwind(payload));
        (a, b)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_the_order_of_the_items() {
        let items: Vec<u64> = (0..1000).collect();
        let doubled = map(&items, |n| {
            // Uneven work, so the threads finish out of order.
            if n % 7 == 0 {
                thread::yield_now();
            }
            n * 2
        });
        assert_eq!(doubled, (0..1000).map(|n| n * 2).collect::<Vec<_>>());
        assert!(map(&[] as &[u8], |n| *n).is_empty());
    }

    #[test]
    fn every_item_is_changed_once() {
        let mut items: Vec<u64> = (0..1000).collect();
        for_each_mut(&mut items, |n| *n *= 3);
        assert_eq!(items, (0..1000).map(|n| n * 3).collect::<Vec<_>>());
        for_each_mut(&mut [] as &mut [u8], |n| *n += 1);
    }

    #[test]
    fn both_gives_both_results_and_resumes_a_panic() {
        assert_eq!(both(|| 1, || "b"), (1, "b"));
        let caught = panic::catch_unwind(|| both(|| panic!("in a"), || ()));
        let payload = caught.expect_err("the panic is resumed");
        assert_eq!(payload.downcast_ref::<&str>(), Some(&"in a"));
    }

    #[test]
    fn a_panic_in_a_worker_reaches_the_caller() {
        let items: Vec<u32> = (0..64).collect();
        let caught = panic::catch_unwind(|| {
            map(&items, |&n| {
                assert!(n != 63, "item {n}");
                n
            })
        });
        let payload = caught.expect_err("the panic is resumed");
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .unwrap_or_default();
        assert_eq!(message, "item 63");
    }
}
