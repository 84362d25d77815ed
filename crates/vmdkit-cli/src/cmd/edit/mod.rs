//! The editing commands (`vmdkit mirror`, `retime`, `trim`, `shift`, `merge`, `rename`,
//! `filter`, `scale`, `reduce`), one file each, on top of `vmdkit::edit`.
//!
//! Each reads IN completely (a .vmd, or a .json/.csv written by `vmdkit convert`; `-` is
//! stdin, its format told by its bytes), edits it in memory and writes OUT (`-o OUT`, or OUT
//! after IN; `-` is stdout, VMD unless `--format` says otherwise) through a temporary file and a
//! rename, so a failure never leaves a partial OUT and never touches IN. OUT may not be IN (nor
//! any other input): that is refused as bad usage, as in every command.
//! What the edit had to approximate, shorten or drop is reported on stderr.

use crate::input::{self, Format};
use crate::output;
use crate::output::OutArg;
use crate::shared::messages::counts;
use std::path::{Path, PathBuf};
use vmdkit::Motion;

mod append;
mod filter;
mod merge;
mod mirror;
mod reduce;
mod rename;
mod retime;
mod scale;
mod shift;
mod trim;

pub use append::AppendArgs;
pub use filter::FilterArgs;
pub use merge::MergeArgs;
pub use mirror::MirrorArgs;
pub use reduce::ReduceArgs;
pub use rename::RenameArgs;
pub use retime::RetimeArgs;
pub use scale::ScaleArgs;
pub use shift::ShiftArgs;
pub use trim::TrimArgs;

#[derive(clap::Subcommand)]
pub enum EditCommand {
    /// Swap left and right: bone and morph names, translations, rotations and the camera
    Mirror(MirrorArgs),
    /// Change the frame rate or speed, keeping curves (refitted where keys must round)
    Retime(RetimeArgs),
    /// Keep a range of frames, with exact keys and split curves at the cuts
    Trim(TrimArgs),
    /// Move every key in time, or the whole motion in space through its root bone
    Shift(ShiftArgs),
    /// Merge several motions (dance, facial, camera) into one; later files win collisions
    Merge(MergeArgs),
    /// Play motions one after another: each starts after the previous one's last frame
    Append(AppendArgs),
    /// Rename bones and morphs (map file, pairs, or the standard Japanese/English names)
    Rename(RenameArgs),
    /// Keep or drop bones and morphs by name
    Filter(FilterArgs),
    /// Scale translations (and the camera's position) to fit another model size
    Scale(ScaleArgs),
    /// Turn dense keys into few keys with fitted curves, within stated errors
    Reduce(ReduceArgs),
}

pub fn run(cmd: &EditCommand) -> anyhow::Result<()> {
    match cmd {
        EditCommand::Mirror(args) => mirror::run(args),
        EditCommand::Retime(args) => retime::run(args),
        EditCommand::Trim(args) => trim::run(args),
        EditCommand::Shift(args) => shift::run(args),
        EditCommand::Merge(args) => merge::run(args),
        EditCommand::Append(args) => append::run(args),
        EditCommand::Rename(args) => rename::run(args),
        EditCommand::Filter(args) => filter::run(args),
        EditCommand::Scale(args) => scale::run(args),
        EditCommand::Reduce(args) => reduce::run(args),
    }
}

/// IN, OUT and how to read IN: shared by every one-input edit.
#[derive(clap::Args)]
pub struct InOut {
    /// The motion to edit: .vmd, or a .json/.csv written by `vmdkit convert`; - for stdin
    #[arg(value_name = "IN")]
    pub input: PathBuf,
    #[command(flatten)]
    pub out: OutArg,
    /// The output's format (default: OUT's extension, .vmd, .json or .csv; VMD for -)
    // Not `--to` as in convert: that is trim's last frame.
    #[arg(long = "format", value_enum, value_name = "FORMAT")]
    pub format: Option<Format>,
    /// Read a damaged VMD leniently, keeping every complete record
    #[arg(long)]
    pub lenient: bool,
}

impl InOut {
    /// Reads IN, after checking OUT's format so that a bad OUT fails before the work.
    pub fn read(&self) -> anyhow::Result<Motion> {
        self.check_output()?;
        self.load()
    }

    /// A usage error unless `--to` or OUT's extension names a format.
    pub fn check_output(&self) -> anyhow::Result<()> {
        self.format().map(drop)
    }

    fn format(&self) -> anyhow::Result<Format> {
        Format::of_output_to(self.output(), self.format, "--format")
    }

    /// OUT.
    pub fn output(&self) -> &Path {
        self.out.path()
    }

    /// OUT as messages name it (`stdout` for `-`).
    pub fn out_label(&self) -> String {
        self.out.label()
    }

    /// Reads IN, reporting lenient repairs.
    pub fn load(&self) -> anyhow::Result<Motion> {
        load(&self.input, self.lenient)
    }

    /// Writes `motion` to OUT atomically.
    pub fn write(&self, motion: &Motion) -> anyhow::Result<()> {
        output::save_motion(self.output(), motion, self.format()?, false, output::TEXT_TRAILING_CAP)
    }

    /// The start of most edits' summary line: "OUT: <counts of `motion`>".
    pub fn summary(&self, motion: &Motion) -> String {
        format!("{}: {}", self.out_label(), counts(motion))
    }
}

/// Reads a motion, reporting lenient repairs.
/// Warns when the motions a command joined name other models than the one the output keeps.
pub fn warn_model_names(kept: &str, others: &[String]) {
    if !others.is_empty() {
        say!(
            "warning: the inputs name different models; the output keeps {:?} (also seen: {})",
            vmdkit::shown::shown(kept),
            vmdkit::shown::shown_list(others)
        );
    }
}

/// The motions of a command that joins several (`merge`, `append`), read after checking that
/// `output` names a format, so a bad OUT fails before any work.
pub fn load_all(inputs: &[PathBuf], lenient: bool, output: &Path) -> anyhow::Result<Vec<Motion>> {
    Format::of_output(output)?;
    inputs.iter().map(|p| load(p, lenient)).collect()
}

pub fn load(path: &Path, lenient: bool) -> anyhow::Result<Motion> {
    Ok(input::load_motion(path, lenient, input::ALL_TRAILING)?.motion)
}

/// Writes `motion` to `path` atomically (temporary file, then rename); `-` is stdout (VMD).
pub fn save(path: &Path, motion: &Motion) -> anyhow::Result<()> {
    let format = Format::of_output(path)?;
    output::save_motion(path, motion, format, false, output::TEXT_TRAILING_CAP)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{CommandFactory, Parser};

    #[derive(Parser)]
    struct Cli {
        #[command(subcommand)]
        command: EditCommand,
    }

    #[test]
    fn the_commands_are_well_formed() {
        Cli::command().debug_assert();
        let parse = |args: &[&str]| {
            Cli::try_parse_from(std::iter::once("vmdkit").chain(args.iter().copied())).map(|_| ())
        };
        assert!(parse(&["shift", "a.vmd", "b.vmd", "--frames", "-10"]).is_ok());
        assert!(parse(&["retime", "a.vmd", "b.vmd", "--fps", "60"]).is_ok());
        assert!(parse(&["retime", "a.vmd", "b.vmd", "--fps", "60", "--speed", "2"]).is_err());
        assert!(parse(&["retime", "a.vmd", "b.vmd"]).is_err());
        assert!(parse(&["filter", "a.vmd", "b.vmd", "--keep", "右*", "左*"]).is_ok());
        assert!(parse(&["filter", "a.vmd", "b.vmd", "--keep", "a", "--drop", "b"]).is_err());
        assert!(parse(&["merge", "a.vmd", "b.vmd", "-o", "c.vmd"]).is_ok());
        assert!(parse(&[
            "rename",
            "a.vmd",
            "b.vmd",
            "--bone",
            "右腕=RightArm",
            "--morph",
            "まばたき=blink"
        ])
        .is_ok());
        assert!(parse(&["rename", "a.vmd", "b.vmd", "--to-english", "--to-japanese"]).is_err());
        assert!(parse(&["rename", "a.vmd", "b.vmd"]).is_err());
        assert!(parse(&["reduce", "a.vmd", "b.vmd", "--max-angle-error", "1"]).is_ok());
    }
}
