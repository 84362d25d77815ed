//! `vmdkit rename`: rename bones and morphs (see `vmdkit::edit::rename`).

use super::{list, InOut};
use crate::error::usage;
use anyhow::Context;
use std::path::PathBuf;
use vmdkit::edit::EnglishStyle;
use vmdkit::edit::RenameMap;
use vmdkit::Motion;

const AFTER_HELP: &str = "\
A map file is CSV: rows old,new (bones and morphs alike) or bone,old,new / morph,old,new;
lines starting with # are comments. --bone and --morph give pairs on the command line.
--to-english and --to-japanese use the built-in dictionary of standard and semi-standard
bone names (センター <-> center, 右腕 <-> arm_R, 左足ＩＫ <-> leg IK_L, ...); --english-style
mmd-tools gives mmd_tools' spelling (RightArm, LeftLegIK). IK names in property keys follow
their bones. A new name longer than the 15-byte field is stored cut, as MMD stores long names,
with a warning; a rename that would merge two tracks is an error.

Examples:
  vmdkit rename dance.vmd out.vmd --bone 右腕=RightArm --morph まばたき=blink
  vmdkit rename dance.vmd out.vmd --map names.csv
  vmdkit rename dance.vmd english.vmd --to-english";

#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Style {
    /// arm_R, leg IK_L (nuthouse01)
    Nuthouse,
    /// RightArm, LeftLegIK (mmd_tools)
    MmdTools,
}

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
#[command(group(clap::ArgGroup::new("source").required(true).multiple(true).args(["map", "bone", "morph", "to_english", "to_japanese"])))]
pub struct RenameArgs {
    #[command(flatten)]
    pub io: InOut,
    /// A CSV map: old,new or kind,old,new per line
    #[arg(long, value_name = "FILE.csv")]
    pub map: Option<PathBuf>,
    /// Rename a bone (and IK entries naming it)
    #[arg(long, value_name = "OLD=NEW")]
    pub bone: Vec<String>,
    /// Rename a morph
    #[arg(long, value_name = "OLD=NEW")]
    pub morph: Vec<String>,
    /// Standard bone names to English
    #[arg(long, conflicts_with_all = ["map", "bone", "morph", "to_japanese"])]
    pub to_english: bool,
    /// English standard bone names (either spelling) to Japanese
    #[arg(long, conflicts_with_all = ["map", "bone", "morph"])]
    pub to_japanese: bool,
    /// The English spelling --to-english writes
    #[arg(long, value_enum, default_value = "nuthouse", requires = "to_english")]
    pub english_style: Style,
}

fn pair(s: &str, flag: &str) -> anyhow::Result<(String, String)> {
    match s.split_once('=') {
        Some((old, new)) if !old.is_empty() && !new.is_empty() => {
            Ok((old.to_string(), new.to_string()))
        }
        _ => Err(usage(format!("{flag} takes OLD=NEW, not {s:?}"))),
    }
}

pub fn run(args: &RenameArgs) -> anyhow::Result<()> {
    let motion = args.io.read()?;
    let map = rename_map(args, &motion)?;
    let (out, report) = vmdkit::edit::rename(&motion, &map)?;
    args.io.write(&out)?;
    let done: Vec<String> =
        report.renamed.iter().map(|r| format!("{} -> {}", r.old, r.new)).collect();
    eprintln!("{}: renamed {} names ({})", args.io.out_label(), done.len(), list(&done, 6));
    for r in report.renamed.iter().filter(|r| r.shortened.is_some()) {
        let (bytes, stored) = r.shortened.as_ref().unwrap();
        let field = if r.kind == "IK" { 20 } else { 15 };
        eprintln!("warning: {} name {} needs {bytes} bytes but the field holds {field}; stored as {stored}", r.kind, r.new);
    }
    let unused: Vec<String> =
        report.unused.iter().map(|(kind, old)| format!("{kind} {old}")).collect();
    // The dictionary maps only names present, so only given maps can have unused entries.
    let given = !(args.to_english || args.to_japanese);
    if given && !unused.is_empty() {
        eprintln!("warning: not in the motion: {}", list(&unused, 8));
    }
    Ok(())
}

/// The renames asked for: the built-in dictionary, or the map file and pairs given.
fn rename_map(args: &RenameArgs, motion: &Motion) -> anyhow::Result<RenameMap> {
    Ok(if args.to_english {
        let style = match args.english_style {
            Style::Nuthouse => EnglishStyle::Nuthouse,
            Style::MmdTools => EnglishStyle::MmdTools,
        };
        RenameMap::to_english(motion, style)
    } else if args.to_japanese {
        RenameMap::to_japanese(motion)
    } else {
        let mut map = match &args.map {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                RenameMap::from_csv(&text).with_context(|| path.display().to_string())?
            }
            None => RenameMap::new(),
        };
        for s in &args.bone {
            let (old, new) = pair(s, "--bone")?;
            map.bone(old, new);
        }
        for s in &args.morph {
            let (old, new) = pair(s, "--morph")?;
            map.morph(old, new);
        }
        map
    })
}
