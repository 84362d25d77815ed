//! `vmdkit merge`: several motions into one (see `vmdkit::edit::merge`).

use super::{load_all, save, warn_model_names};
use crate::shared::messages::counts;
use std::path::PathBuf;
use vmdkit::Section;

const AFTER_HELP: &str = "\
Keys are appended in the order the files are given. When two files have a key for the same
bone or morph (or the camera, light, self-shadow or property section) at the same frame:
identical keys (the same values and curves) are kept once, so merging a file with itself
gives it back; keys that differ are overridden by the later file. stderr counts, per file,
the identical keys dropped and the keys that overrode an earlier file's. Duplicates inside
one file are kept as they are. The output carries the first non-camera file's model name.
Curves are unchanged.

Examples:
  vmdkit merge dance.vmd facial.vmd camera.vmd -o all.vmd
  vmdkit merge dance.vmd dance-fixes.vmd -o fixed.vmd   the fixes override the dance's keys";

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct MergeArgs {
    /// The motions, in order (later files win collisions)
    #[arg(value_name = "FILE", required = true, num_args = 2..)]
    pub inputs: Vec<PathBuf>,
    /// The merged motion; its extension picks the format
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: PathBuf,
    /// Read damaged VMDs leniently
    #[arg(long)]
    pub lenient: bool,
}

pub fn run(args: &MergeArgs) -> anyhow::Result<()> {
    let motions = load_all(&args.inputs, args.lenient, &args.output)?;
    let (merged, report) = vmdkit::edit::merge(&motions);
    save(&args.output, &merged)?;
    say!("{}: {}", args.output.display(), counts(&merged));
    for (i, path) in args.inputs.iter().enumerate() {
        let dropped = per_section(&report.duplicates[i]);
        if !dropped.is_empty() {
            say!("{}: {dropped} keys dropped: identical to keys of earlier files", path.display());
        }
        let overrode = per_section(&report.collisions[i]);
        if !overrode.is_empty() {
            say!(
                "{}: {overrode} keys overrode different keys of earlier files at the same name \
                 and frame",
                path.display()
            );
        }
    }
    warn_model_names(&report.model_name, &report.other_model_names);
    Ok(())
}

/// "3 bone, 1 morph" for the sections with a count, or "" when all are 0.
fn per_section(counts: &[usize; 6]) -> String {
    let parts: Vec<String> = Section::ALL
        .iter()
        .zip(counts)
        .filter(|(_, &n)| n > 0)
        .map(|(s, n)| format!("{n} {}", s.name()))
        .collect();
    parts.join(", ")
}
