//! What the commands print of what they wrote: an export's one-line summary, the bytes
//! streamed to stdout, and numbers as the text outputs show them.

use std::path::Path;

/// What an export wrote, for its one-line summary on stderr ([`print_export_summary`]).
pub struct ExportSummary {
    /// Samples written.
    pub frames: usize,
    /// Samples per second.
    pub fps: f64,
    /// Joints (BVH) or skinned bones (glTF).
    pub joints: usize,
    /// The output's size.
    pub bytes: u64,
}

/// Prints `OUT: N frames at F fps (S s), J joints, SIZE` (`rest pose` for no frames) on stderr: what `convert` wrote to a
/// `.bvh` or `.glb`, worded like `bake`'s and `retarget`'s summaries.
pub fn print_export_summary(output: &Path, s: &ExportSummary) {
    let size = vmdkit::limit::ByteSize(s.bytes);
    let out = output.display();
    if s.frames == 0 {
        eprintln!("{out}: rest pose, {} joints, {size}", s.joints);
        return;
    }
    let span = (s.frames - 1) as f64 / s.fps;
    eprintln!(
        "{out}: {} frames at {} fps ({span:.3} s), {} joints, {size}",
        s.frames, s.fps, s.joints
    );
}

/// A writer that counts the bytes through it, for a summary of output streamed to stdout.
pub struct CountingWriter<'a> {
    /// Where the bytes go.
    pub inner: &'a mut dyn std::io::Write,
    /// Bytes written so far.
    pub count: u64,
}

impl std::io::Write for CountingWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.count += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// A number as the text outputs print it: the shortest digits that read back as the stored
/// value (Rust's `Display`), with negative zero printed as 0. A sign on zero is noise to a
/// reader (`rot (0, 0, -0, 1)`); the stored bits stay exact in the JSON outputs.
#[derive(Clone, Copy)]
pub struct Num<T>(pub T);

impl std::fmt::Display for Num<f32> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // −0 + 0 is +0; every other value is unchanged.
        std::fmt::Display::fmt(&(self.0 + 0.0), f)
    }
}

impl std::fmt::Display for Num<f64> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&(self.0 + 0.0), f)
    }
}
