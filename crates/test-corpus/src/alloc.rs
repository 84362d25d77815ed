//! A global allocator that counts the allocations of each thread, for tests that check a hot
//! path allocates nothing. The count is per thread because the tests of one binary run in
//! parallel threads and must not see each other's allocations.
//!
//! ```
//! use test_corpus::alloc::{allocations, CountingAllocator};
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
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, counting each allocation and reallocation on the calling thread.
/// Install it with `#[global_allocator]` and read the count with [`allocations`].
pub struct CountingAllocator;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn count() {
    // `try_with`: the thread-local is gone while a thread's destructors run, and allocations
    // made then must still succeed.
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

// SAFETY: forwards to the system allocator; the counter is a plain thread-local.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// How many allocations and reallocations [`CountingAllocator`] has seen on this thread.
pub fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}
