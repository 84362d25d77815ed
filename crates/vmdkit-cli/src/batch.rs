//! Many files at once: read in parallel, reported in input order; and the progress bars of
//! every long operation, on stderr when it is a terminal (scripts' stderr stays clean).

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};

/// Above this many inputs a progress bar is worth its flicker.
const PROGRESS_MIN_INPUTS: usize = 4;

/// Runs `work` on every input in parallel (rayon) and passes each result to `emit` in input
/// order, as soon as it and every result before it are ready, so output streams instead of
/// waiting for the slowest file. A progress bar runs on stderr when it is a terminal and there
/// are more than a few inputs; `emit` runs with the bar hidden so lines never mix with it.
/// An error from `emit` (say, a closed pipe) stops the remaining work.
pub fn for_each_ordered<T, R>(
    inputs: &[T],
    work: impl Fn(&T) -> R + Sync,
    mut emit: impl FnMut(&T, R) -> anyhow::Result<()>,
) -> anyhow::Result<()>
where
    T: Sync,
    R: Send,
{
    let bar = progress_bar(inputs.len(), inputs.len() > PROGRESS_MIN_INPUTS, "files");
    let stop = AtomicBool::new(false);
    let (tx, rx) = std::sync::mpsc::channel::<(usize, R)>();
    let result = std::thread::scope(|scope| {
        let (work, stop) = (&work, &stop);
        scope.spawn(move || {
            inputs.par_iter().enumerate().for_each_with(tx, |tx, (i, input)| {
                if !stop.load(Ordering::Relaxed) {
                    let _ = tx.send((i, work(input)));
                }
            });
        });
        let mut pending = BTreeMap::new();
        let mut next = 0;
        for (i, result) in rx.iter() {
            pending.insert(i, result);
            while let Some(result) = pending.remove(&next) {
                bar.inc(1);
                if let Err(err) = bar.suspend(|| emit(&inputs[next], result)) {
                    stop.store(true, Ordering::Relaxed);
                    return Err(err);
                }
                next += 1;
            }
        }
        Ok(())
    });
    bar.finish_and_clear();
    result
}

/// Whether to show progress: only on a terminal, and there for work `worth_showing`, unless
/// `VMDKIT_PROGRESS` is `always` (short work too) or `never`.
fn shown(worth_showing: bool) -> bool {
    let wanted = match std::env::var("VMDKIT_PROGRESS").as_deref() {
        Ok("always") => true,
        Ok("never") => false,
        _ => worth_showing,
    };
    wanted && std::io::stderr().is_terminal()
}

/// A progress bar on stderr counting `len` `unit`s, or a hidden one when the work is too
/// short to be `worth_showing` or stderr is not a terminal.
pub fn progress_bar(len: usize, worth_showing: bool, unit: &str) -> ProgressBar {
    if !shown(worth_showing) {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len as u64);
    let template = format!("{{bar:40}} {{pos}}/{{len}} {unit} {{elapsed_precise}} eta {{eta}}");
    let style =
        ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar
}

/// A progress bar over frames for a bake that learns its total from its first report: made
/// then, shown when the total is at least `min` frames (see [`progress_bar`]).
pub struct FrameProgress {
    bar: Option<ProgressBar>,
    min: u64,
}

impl FrameProgress {
    /// No bar yet; one is made on the first [`FrameProgress::set`].
    pub fn new(min: u64) -> Self {
        FrameProgress { bar: None, min }
    }

    /// `done` of `total` frames.
    pub fn set(&mut self, done: u64, total: u64) {
        let min = self.min;
        let bar =
            self.bar.get_or_insert_with(|| progress_bar(total as usize, total >= min, "frames"));
        bar.set_position(done);
    }

    /// Removes the bar.
    pub fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}

/// A spinner on stderr saying `message` while work without a measure of its own runs (a
/// retarget, a retime), or a hidden one when the work is not `worth_showing` or stderr is not
/// a terminal. `finish_and_clear` removes it.
pub fn spinner(message: &str, worth_showing: bool) -> ProgressBar {
    if !shown(worth_showing) {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner();
    let style = ProgressStyle::with_template("{spinner} {msg} {elapsed_precise}")
        .unwrap_or_else(|_| ProgressStyle::default_spinner());
    bar.set_style(style);
    bar.set_message(message.to_string());
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    bar
}

/// Whether a motion is big enough that working on it takes long enough to show progress.
pub fn is_long(motion: &vmdkit::Motion) -> bool {
    motion.bones.len() + motion.morphs.len() + motion.cameras.len() >= LONG_KEYS
}

/// Keys from which reduce, retime, keypoints and convert take long enough to want a bar
/// (BENCHMARKS.md, "Key reduction", has what reducing a bake costs).
const LONG_KEYS: usize = 50_000;
