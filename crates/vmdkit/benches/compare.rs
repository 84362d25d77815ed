//! vmdkit against mmd-anim-format 0.5.3 and a plain copy of the same bytes (the physical
//! limit), side by side in one run:
//!
//! * `200MB`: a ~200 MB motion built in memory from a corpus dance (see `common`). glibc serves
//!   blocks this large with mmap, so every result lands in fresh pages from the kernel, which
//!   is what a program that parses one big file pays;
//! * `largest`: the largest corpus VMD (2.6 MB). Blocks this size are reused from the heap after
//!   the first iteration, so these results land in memory the process already owns;
//! * `200MB_warmheap`: the 200 MB motion again, after telling glibc's malloc to keep freed
//!   memory (no mmap, no trimming), so results land in pages the process already owns. This
//!   separates the library's cost from the kernel's page-fault cost.
//!
//! `scripts/bench-compare.sh` also reruns the `200MB` parse and write groups in a second process
//! with glibc's transparent-huge-page tunable, and prints a table.
//!
//! Groups: `parse_*` (bytes -> owned motion), `write_*` (owned motion -> bytes), `view_*`
//! (zero-copy validation, and a walk reading every bone key in place). Throughput is the file's
//! size (criterion prints GiB/s). Results are dropped outside the timed region, for every
//! contender alike. Run: `cargo bench -p vmdkit --bench compare -- [criterion options]`.

mod common;

use criterion::{black_box, criterion_group, criterion_main, BatchSize, BenchmarkGroup, Criterion};
use criterion::{measurement::WallTime, SamplingMode, Throughput};
use vmdkit::{Motion, MotionView};

/// Times `f` once per iteration, dropping its result outside the timed region.
fn time<O>(b: &mut criterion::Bencher<'_>, mut f: impl FnMut() -> O) {
    b.iter_batched(|| (), |()| f(), BatchSize::PerIteration);
}

fn group<'a>(c: &'a mut Criterion, name: &str, bytes: &[u8]) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    if bytes.len() > 50_000_000 {
        // Iterations take 0.05-2 s: a few flat samples keep the run to minutes.
        g.sample_size(10).sampling_mode(SamplingMode::Flat);
    } else {
        g.sample_size(30);
    }
    g
}

fn compare(c: &mut Criterion, label: &str, bytes: &[u8]) {
    // Both readers must accept the input and agree on it; vmdkit must write it back exactly.
    let motion = Motion::parse(bytes).expect("vmdkit parses");
    let peer = mmd_anim_format::parse_vmd_animation(bytes).expect("mmd-anim-format parses");
    assert_eq!(
        (peer.bone_frames.len(), peer.morph_frames.len()),
        (motion.bones.len(), motion.morphs.len())
    );
    assert!(motion.to_bytes() == bytes, "vmdkit round trip");
    eprintln!(
        "{label}: {} bytes, {} bone keys, {} morph keys",
        bytes.len(),
        motion.bones.len(),
        motion.morphs.len()
    );

    let mut g = group(c, &format!("parse_{label}"), bytes);
    g.bench_function("vmdkit", |b| time(b, || Motion::parse(black_box(bytes)).unwrap()));
    g.bench_function("mmd-anim-format", |b| {
        time(b, || mmd_anim_format::parse_vmd_animation(black_box(bytes)).unwrap())
    });
    g.bench_function("memcpy", |b| time(b, || black_box(bytes).to_vec()));
    g.finish();

    let mut g = group(c, &format!("write_{label}"), bytes);
    g.bench_function("vmdkit", |b| time(b, || black_box(&motion).to_bytes()));
    let mut reused = Vec::new();
    g.bench_function("vmdkit_encode_into_reused", |b| {
        b.iter(|| {
            reused.clear();
            black_box(&motion).encode_into(&mut reused);
        })
    });
    g.bench_function("mmd-anim-format", |b| {
        time(b, || mmd_anim_format::export_vmd_animation(black_box(&peer)))
    });
    g.bench_function("memcpy", |b| time(b, || black_box(bytes).to_vec()));
    let mut reused = vec![0; bytes.len()];
    g.bench_function("memcpy_reused", |b| b.iter(|| reused.copy_from_slice(black_box(bytes))));
    g.finish();
    drop((motion, peer, reused));
    if label.ends_with("warmheap") {
        return; // the view allocates nothing: measured in the fresh-memory pass
    }

    let mut g = group(c, &format!("view_{label}"), bytes);
    g.bench_function("vmdkit_new", |b| b.iter(|| MotionView::new(black_box(bytes)).unwrap()));
    g.bench_function("vmdkit_walk_bones", |b| {
        b.iter(|| {
            let view = MotionView::new(black_box(bytes)).unwrap();
            view.bones().fold(0u32, |acc, k| acc ^ k.frame() ^ k.rotation().w.to_bits())
        })
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    if let Some(large) = common::large_motion() {
        compare(c, "200MB", &large);
    }
    if let Some((_name, bytes)) = common::largest_corpus_vmd() {
        compare(c, "largest", &bytes);
    }
    if let Some(large) = common::large_motion() {
        if keep_freed_memory() {
            compare(c, "200MB_warmheap", &large);
        }
    }
}

/// Makes glibc's malloc serve every block from its heap and never give freed memory back, so
/// that a freed result's pages are reused by the next iteration instead of faulted in afresh.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn keep_freed_memory() -> bool {
    extern "C" {
        fn mallopt(param: i32, value: i32) -> i32;
    }
    const M_TRIM_THRESHOLD: i32 = -1;
    const M_MMAP_MAX: i32 = -4;
    // SAFETY: mallopt only tunes the allocator; glibc allows calling it at any time.
    unsafe { mallopt(M_MMAP_MAX, 0) == 1 && mallopt(M_TRIM_THRESHOLD, i32::MAX) == 1 }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn keep_freed_memory() -> bool {
    eprintln!("200MB_warmheap: skipped (needs glibc's mallopt)");
    false
}

criterion_group!(compare_group, benches);
criterion_main!(compare_group);
