//! `vmdkit check`: validate and lint motion files; the exit status says whether all are sound.

use crate::batch::for_each_ordered;
use crate::error::{usage, Outcome};
use crate::input::{expand_inputs, read_model, read_motion, read_pose, InputKind, LoadError};
use std::collections::BTreeSet;
use std::io::Write;
use std::path::PathBuf;
use vmdkit::lint::{lint, Warning, WarningKind, TRAILING_PREVIEW};

const AFTER_HELP: &str = "\
Motions are read and linted; PMX/PMD models and VPD poses (by extension or first bytes) are
read, which checks every count, index and record, and have no warnings. Folders are searched
for *.vmd only.

Prints one line per file: `ok`, or `FAIL` with the reason (file, section, record and byte
offset) or the denied warning kinds, then the file's warnings indented, then a summary line.

Warning kinds (as `vmdkit info --help` describes them): repaired, name_cut_mid_character,
name_undecodable, duplicate_keys, identical_keys, unsorted_keys, physics_off,
non_unit_quaternion, zero_quaternion, non_finite, out_of_range, trailing_bytes, far_frames.

Exit status: 1 when any file is damaged or unreadable, or has a warning of a denied kind.
Without options no kind is denied. --strict-warnings denies every kind that changes how a
motion plays or may mean damage, and allows the harmless ones, which are about how the file
is written: unsorted_keys (players sort keys), identical_keys (any of the repeated keys gives
the same motion), physics_off (a setting MMD's own panel writes), trailing_bytes (ignored by
players) and name_cut_mid_character (MMD cuts long names so; they still bind by bytes).
--deny KIND denies a kind, with or without --strict-warnings (harmless ones too); --allow
KIND allows a kind --strict-warnings would deny. Both repeat, or take a comma-separated list.
With --lenient a file whose damage lenient reading can repair passes, and each repair is
reported as a `repaired` warning (denied by --strict-warnings).

Examples:
  vmdkit check dance.vmd
  vmdkit check --strict-warnings motions/
  vmdkit check --strict-warnings --allow duplicate_keys motions/
  vmdkit check --strict-warnings --deny unsorted_keys motions/
  vmdkit check --deny far_frames,non_finite motions/
  vmdkit check --lenient broken.vmd
  vmdkit check miku.pmx pose.vpd";

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Accept damage that lenient reading repairs; the repairs become warnings
    #[arg(long)]
    lenient: bool,
    /// Exit 1 when a file has warnings of kinds that change how it plays (not the harmless
    /// kinds; see below)
    #[arg(long)]
    strict_warnings: bool,
    /// With --strict-warnings, do not fail on this warning kind (repeatable)
    #[arg(long, value_name = "KIND", value_delimiter = ',', requires = "strict_warnings")]
    allow: Vec<String>,
    /// Fail on this warning kind, harmless or not (repeatable)
    #[arg(long, value_name = "KIND", value_delimiter = ',')]
    deny: Vec<String>,
    /// Print only files that fail or have warnings, and the summary
    #[arg(long, short)]
    quiet: bool,
    /// Motion files (.vmd, or .json/.csv from `vmdkit convert`; - for stdin), PMX/PMD models,
    /// VPD poses, or folders searched recursively for *.vmd
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
}

/// The warning kinds that fail a file: `--deny`, and with `--strict-warnings` every kind that
/// is not harmless and not `--allow`ed.
fn denied_kinds(args: &Args) -> anyhow::Result<BTreeSet<WarningKind>> {
    let parse = |names: &[String], flag: &str| -> anyhow::Result<BTreeSet<WarningKind>> {
        names
            .iter()
            .map(|name| {
                WarningKind::from_name(name.trim()).ok_or_else(|| {
                    let kinds: Vec<&str> = WarningKind::ALL.iter().map(|k| k.name()).collect();
                    usage(format!(
                        "{flag}: unknown warning kind {name:?}; the kinds are {}",
                        kinds.join(", ")
                    ))
                })
            })
            .collect()
    };
    let allow = parse(&args.allow, "--allow")?;
    let deny = parse(&args.deny, "--deny")?;
    if let Some(both) = allow.intersection(&deny).next() {
        return Err(usage(format!("{} is both allowed and denied", both.name())));
    }
    let strict = WarningKind::ALL
        .into_iter()
        .filter(|k| args.strict_warnings && !k.is_harmless() && !allow.contains(k));
    Ok(strict.chain(deny).collect())
}

/// Reads one file and lints it; a model or pose is checked by reading it (the readers check
/// every count, index and record), and has no warnings.
fn check_one(path: &std::path::Path, lenient: bool) -> Result<Vec<Warning>, LoadError> {
    let unreadable =
        |e: anyhow::Error| LoadError { message: e.to_string(), suggest_lenient: false };
    match InputKind::of(path) {
        InputKind::Model => read_model(path).map(|_| Vec::new()).map_err(unreadable),
        InputKind::Pose => read_pose(path).map(|_| Vec::new()).map_err(unreadable),
        InputKind::Motion => read_motion(path, None, lenient, TRAILING_PREVIEW)
            .map(|loaded| lint(&loaded.motion, &loaded.repairs)),
    }
}

pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let denied = denied_kinds(&args)?;
    let files = expand_inputs(&args.files)?;
    // Warnings name bones and morphs as the file does: escaped for the terminal.
    let mut out = crate::terminal::Escaping::new(std::io::stdout().lock());
    let (mut ok, mut failed, mut warned, mut refused) = (0usize, 0usize, 0usize, 0usize);
    for_each_ordered(
        &files,
        |path| check_one(path, args.lenient),
        |path, result: Result<Vec<Warning>, LoadError>| {
            match result {
                Ok(warnings) => {
                    if !warnings.is_empty() {
                        warned += 1;
                    }
                    let note = match warnings.len() {
                        0 => String::new(),
                        1 => " (1 warning)".to_string(),
                        n => format!(" ({n} warnings)"),
                    };
                    let failing: BTreeSet<&str> = warnings
                        .iter()
                        .filter(|w| denied.contains(&w.kind))
                        .map(|w| w.kind.name())
                        .collect();
                    if !failing.is_empty() {
                        refused += 1;
                        let kinds = failing.into_iter().collect::<Vec<_>>().join(", ");
                        writeln!(out, "FAIL  {}{note}: denied warnings: {kinds}", path.display())?;
                    } else {
                        ok += 1;
                        if !(args.quiet && warnings.is_empty()) {
                            writeln!(out, "ok    {}{note}", path.display())?;
                        }
                    }
                    for w in &warnings {
                        writeln!(out, "      warning: {}: {}", w.kind.name(), w.message)?;
                    }
                }
                Err(err) => {
                    failed += 1;
                    // The message starts with the file's path.
                    writeln!(out, "FAIL  {err}")?;
                }
            }
            out.flush()?;
            Ok(())
        },
    )?;
    let refusals =
        if denied.is_empty() { String::new() } else { format!(", {refused} with denied warnings") };
    writeln!(
        out,
        "{} checked: {ok} ok, {failed} damaged or unreadable{refusals}, {warned} with warnings",
        if files.len() == 1 { "1 file".to_string() } else { format!("{} files", files.len()) }
    )?;
    out.flush()?;
    let fails = failed > 0 || refused > 0;
    Ok(if fails { Outcome::Failed } else { Outcome::Success })
}
