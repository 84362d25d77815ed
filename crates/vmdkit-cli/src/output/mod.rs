//! Writing outputs, shared by every command: one job per file.
//!
//! - [`out_arg`] — OUT (`-o OUT` or OUT after the input) and what every OUT is checked for;
//! - [`write`] — writing a file atomically, a device in place, or stdout;
//! - [`motion`] — a motion in VMD, JSON or CSV;
//! - [`summary`] — what commands print of what they wrote.
//!
//! Outputs read from `crate::input` (`-`, the formats, the files read), never the other way.

pub mod motion;
pub mod out_arg;
pub mod summary;
pub mod write;

pub use motion::{save_motion, save_motion_styled, TextStyle, TEXT_TRAILING_CAP};
pub use out_arg::{output_label, require_extension, OutArg};
pub use summary::{print_export_summary, CountingWriter, ExportSummary, Num};
pub use write::{write_json_line, write_output, write_seekable_output};
