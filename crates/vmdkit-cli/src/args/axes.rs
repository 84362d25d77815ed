//! `--units` and `--up`: the units and up axis of keypoints (`retarget`, `keypoints`).

use vmdkit::keypoints::{Units, UpAxis};

/// `--units`: mm, cm, m, or metres per unit.
pub fn parse_units(text: &str) -> Result<Units, String> {
    Units::parse(text).ok_or_else(|| format!("expected mm, cm, m or metres per unit, not `{text}`"))
}

/// `--up`: y, -y, z or -z.
pub fn parse_up(text: &str) -> Result<UpAxis, String> {
    UpAxis::parse(text).ok_or_else(|| format!("expected y, -y, z or -z, not `{text}`"))
}
