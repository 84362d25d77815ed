//! A global allocator that measures the heap use of each thread, for tests that check a hot
//! path allocates nothing, that a refused output never asked for a buffer of its size, or that
//! a reader's peak stays in proportion to what it builds. The figures are per thread because the
//! tests of one binary run in parallel threads and must not see each other's allocations; one
//! allocator serves all of them because a binary has one.
//!
//! ```
//! use test_corpus::alloc::{allocations, largest_allocation, CountingAllocator};
//!
//! #[global_allocator]
//! static GLOBAL: CountingAllocator = CountingAllocator;
//!
//! let keys = vec![3, 1, 2];
//! let before = allocations();
//! let last = keys.iter().max();
//! assert_eq!(allocations() - before, 0);
//! assert_eq!(last, Some(&3));
//! drop(vec![0u8; 16]);
//! assert_eq!(allocations() - before, 1);
//! let (_, largest) = largest_allocation(|| vec![0u8; 1 << 20]);
//! assert!(largest >= 1 << 20);
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, counting each allocation and reallocation on the calling thread and,
/// while a measure below runs on it, the thread's largest single allocation and its peak of
/// live bytes. Install it with `#[global_allocator]`.
pub struct CountingAllocator;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
    static MEASURING: Cell<bool> = const { Cell::new(false) };
    static LARGEST: Cell<usize> = const { Cell::new(0) };
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

/// The largest single allocation of any thread since [`largest_in_process`] last reset it.
static PROCESS_LARGEST: AtomicUsize = AtomicUsize::new(0);

/// Records an allocation of `size` bytes that also frees `freed` (a reallocation's old block).
fn note(size: usize, freed: usize) {
    // Read first: most allocations are not the largest, and a plain load keeps the threads of
    // other tests from contending for the cache line.
    if size > PROCESS_LARGEST.load(Ordering::Relaxed) {
        PROCESS_LARGEST.fetch_max(size, Ordering::Relaxed);
    }
    // `try_with`: the thread-locals are gone while a thread's destructors run, and allocations
    // made then must still succeed.
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
    if MEASURING.try_with(Cell::get) == Ok(true) {
        let _ = LARGEST.try_with(|l| l.set(l.get().max(size)));
        // A reallocation counts as a move: the new block is live before the old one is freed.
        live(size as isize);
        live(-(freed as isize));
    }
}

/// Adds `delta` to the live bytes of a measured thread and keeps their peak.
fn live(delta: isize) {
    let _ = LIVE.try_with(|l| {
        l.set(l.get() + delta);
        let _ = PEAK.try_with(|p| p.set(p.get().max(l.get())));
    });
}

// SAFETY: forwards to the system allocator; the figures are plain thread-locals and an atomic.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size(), 0);
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(layout.size(), 0);
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if MEASURING.try_with(Cell::get) == Ok(true) {
            live(-(layout.size() as isize));
        }
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size, layout.size());
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// How many allocations and reallocations [`CountingAllocator`] has seen on this thread.
pub fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

/// Runs `f` and returns its result with the figures of this thread while it ran.
fn measure<T>(f: impl FnOnce() -> T) -> (T, usize, usize) {
    LARGEST.with(|l| l.set(0));
    LIVE.with(|l| l.set(0));
    PEAK.with(|p| p.set(0));
    MEASURING.with(|m| m.set(true));
    let result = f();
    MEASURING.with(|m| m.set(false));
    (result, LARGEST.with(Cell::get), PEAK.with(Cell::get).max(0) as usize)
}

/// Runs `f` and returns its result with the largest single allocation it made on this thread.
pub fn largest_allocation<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let (result, largest, _) = measure(f);
    (result, largest)
}

/// Runs `f` and returns its result with the most heap bytes it held at once on this thread
/// (what it returns included; blocks it frees that were allocated before count as negative).
pub fn peak_heap<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let (result, _, peak) = measure(f);
    (result, peak)
}

/// Runs `f` and returns its result with the largest single allocation of the whole process
/// while it ran, threads `f` starts included. Only meaningful when nothing else runs: call it
/// from a test run in a process of its own (see `run_alone` in the tests that use it).
pub fn largest_in_process<T>(f: impl FnOnce() -> T) -> (T, usize) {
    PROCESS_LARGEST.store(0, Ordering::Relaxed);
    let result = f();
    (result, PROCESS_LARGEST.load(Ordering::Relaxed))
}
