//! `vmdkit merge`: several motions into one (see `vmdkit::edit::merge`).

use super::{counts, load, save};
use crate::io::Format;
use std::path::PathBuf;
use vmdkit::Section;

const AFTER_HELP: &str = "\
Keys are appended in the order the files are given. When two files have a key for the same
bone or morph (or the camera, light, self-shadow or property section) at the same frame, the
later file wins; each file's collisions are counted on stderr. The output carries the first
non-camera file's model name. Curves are unchanged.

Example:
  vmdkit merge dance.vmd facial.vmd camera.vmd -o all.vmd";

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
    // Fail on a bad OUT before doing the work.
    Format::of_output(&args.output)?;
    let motions =
        args.inputs.iter().map(|p| load(p, args.lenient)).collect::<anyhow::Result<Vec<_>>>()?;
    let (merged, report) = vmdkit::edit::merge(&motions);
    save(&args.output, &merged)?;
    eprintln!("{}: {}", args.output.display(), counts(&merged));
    for (path, hits) in args.inputs.iter().zip(&report.collisions) {
        let parts: Vec<String> = Section::ALL
            .iter()
            .zip(hits)
            .filter(|(_, &n)| n > 0)
            .map(|(s, n)| format!("{n} {}", s.name()))
            .collect();
        if !parts.is_empty() {
            eprintln!(
                "{}: {} keys replaced keys of earlier files at the same name and frame",
                path.display(),
                parts.join(", ")
            );
        }
    }
    if !report.other_model_names.is_empty() {
        eprintln!(
            "warning: the inputs name different models; the output keeps {:?} (also seen: {})",
            report.model_name,
            report.other_model_names.join(", ")
        );
    }
    Ok(())
}
