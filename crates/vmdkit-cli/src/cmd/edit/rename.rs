//! `vmdkit rename`: rename bones and morphs (see `vmdkit::edit::rename`).

use super::InOut;
use crate::error::usage;
use crate::shared::messages::list;
use anyhow::Context;
use std::path::PathBuf;
use vmdkit::edit::RenameMap;
use vmdkit::names::EnglishStyle;
use vmdkit::Motion;

const AFTER_HELP: &str = "\
A map file is CSV: rows old,new (bones and morphs alike) or bone,old,new / morph,old,new;
lines starting with # are comments. --bone and --morph give pairs on the command line.
--to-english and --to-japanese use the built-in dictionary of standard and semi-standard
bone names, fingers included, in MMD's own English (センター <-> center, 右腕 <-> arm_R,
左人指１ <-> fore1_L, 右肩P <-> shoulderP_R, 左足ＩＫ <-> leg IK_L, as MMD's bundled models and
PmxEditor name them); --english-style mmd-tools gives CamelCase (RightArm, LeftIndex1,
LeftLegIK). Every dictionary name fits the 15-byte name field, so no two bones are cut into
one. --to-japanese also reads older spellings (foot_L, shoulder_raise_L, LeftIndexFinger1).
--map, --bone and --morph may be given with either, and take precedence over the dictionary.
IK names in property keys follow their bones.

A new name longer than the 15-byte field is stored cut, as MMD stores long names, with a
warning. A rename that would merge two tracks (two new names alike in their first 15 bytes,
or a new name another track already has) is an error naming the tracks and the names asked
for; give each its own name with --bone OLD=NEW or a --map file.

Examples:
  vmdkit rename dance.vmd out.vmd --bone 右腕=RightArm --morph まばたき=blink
  vmdkit rename dance.vmd out.vmd --map names.csv
  vmdkit rename dance.vmd english.vmd --to-english
  vmdkit rename english.vmd dance.vmd --to-japanese
  vmdkit rename dance.vmd english.vmd --to-english --bone 右髪１=hair1_R";

#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Style {
    /// arm_R, fore1_L, leg IK_L (MMD's own English names)
    #[value(alias = "nuthouse")]
    Mmd,
    /// RightArm, LeftIndex1, LeftLegIK (CamelCase, after mmd_tools)
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
    #[arg(long, conflicts_with = "to_japanese")]
    pub to_english: bool,
    /// English standard bone names (either spelling, or an older one) to Japanese
    #[arg(long)]
    pub to_japanese: bool,
    /// The English spelling --to-english writes
    #[arg(long, value_enum, default_value = "mmd", requires = "to_english")]
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
    let (out, report) = vmdkit::edit::rename(&motion, &map).map_err(with_hint)?;
    args.io.write(&out)?;
    let done: Vec<String> =
        report.renamed.iter().map(|r| format!("{} -> {}", r.old, r.new)).collect();
    say!("{}: renamed {} names ({})", args.io.out_label(), done.len(), list(&done, 6));
    for r in report.renamed.iter().filter(|r| r.shortened.is_some()) {
        let (bytes, stored) = r.shortened.as_ref().unwrap();
        let field = if r.kind == "IK" { 20 } else { 15 };
        // The map is a file: its names are shown cut, as values from files are.
        let (new, stored) = (vmdkit::shown::shown(&r.new), vmdkit::shown::shown(stored));
        say!(
            "warning: {} name {new} needs {bytes} bytes but the field holds {field}; stored as \
             {stored}",
            r.kind
        );
    }
    let unused: Vec<String> =
        report.unused.iter().map(|(kind, old)| format!("{kind} {old}")).collect();
    // The dictionary maps only names present, so only given entries can be unused.
    if !unused.is_empty() {
        say!("warning: not in the motion: {}", list(&unused, 8));
    }
    Ok(())
}

/// A collision error, with how to resolve it on this command line.
fn with_hint(err: vmdkit::edit::EditError) -> anyhow::Error {
    match err {
        vmdkit::edit::EditError::NameCollision { .. } => anyhow::anyhow!(
            "{err}; give each its own name with --bone OLD=NEW (--morph for morphs) or a --map \
             file, which also work with --to-english and --to-japanese"
        ),
        other => other.into(),
    }
}

/// The renames asked for: the built-in dictionary, then the map file and pairs given, which
/// replace the dictionary's entries for the same names.
fn rename_map(args: &RenameArgs, motion: &Motion) -> anyhow::Result<RenameMap> {
    let mut map = if args.to_english {
        let style = match args.english_style {
            Style::Mmd => EnglishStyle::Mmd,
            Style::MmdTools => EnglishStyle::MmdTools,
        };
        RenameMap::to_english(motion, style)
    } else if args.to_japanese {
        RenameMap::to_japanese(motion)
    } else {
        RenameMap::new()
    };
    if let Some(path) = &args.map {
        crate::input::note_input(path);
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let given = RenameMap::from_csv(&text).with_context(|| path.display().to_string())?;
        map.extend(&given);
    }
    for s in &args.bone {
        let (old, new) = pair(s, "--bone")?;
        map.bone(old, new);
    }
    for s in &args.morph {
        let (old, new) = pair(s, "--morph")?;
        map.morph(old, new);
    }
    Ok(map)
}
