//! `vmdkit mirror`: left ⇄ right (see `vmdkit::edit::mirror`).

use super::InOut;
use crate::shared::messages::list;

const AFTER_HELP: &str = "\
Mirrors across the model's X = 0 plane: bone translations (x negated), rotations (quaternion
(x, y, z, w) -> (x, -y, -z, w)), the camera (target x, yaw and roll negated) and the light's
direction. Names swap sides: 左 <-> 右 anywhere in a name (full- or half-width IK alike),
Left/Right and _L/_R in ASCII names, and the wink pairs ウィンク/ウィンク右. Names without a side
(センター) keep their name and are mirrored in place. A swapped name that would not fit its
field (15 bytes for bones and morphs) keeps its old name and is reported. Curves are kept;
mirroring twice gives back the same file.

Examples:
  vmdkit mirror dance.vmd dance_mirrored.vmd
  vmdkit mirror dance.vmd -o - | vmdkit info -";

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct MirrorArgs {
    #[command(flatten)]
    pub io: InOut,
}

pub fn run(args: &MirrorArgs) -> anyhow::Result<()> {
    let motion = args.io.read()?;
    let (mirrored, report) = vmdkit::edit::mirror(&motion);
    args.io.write(&mirrored)?;
    let pairs: Vec<String> = report.swapped.iter().map(|(a, b)| format!("{a} -> {b}")).collect();
    say!("{}: swapped {} names ({})", args.io.out_label(), pairs.len(), list(&pairs, 6));
    if !report.unsided.is_empty() {
        say!(
            "{} names have no left/right counterpart and keep their names, mirrored in place: {}",
            report.unsided.len(),
            list(&report.unsided, 8)
        );
    }
    for (name, why) in &report.not_swapped {
        say!("warning: {name} keeps its name: {why}");
    }
    Ok(())
}
