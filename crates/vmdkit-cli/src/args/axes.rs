//! `--units` and `--up`: the units and up axis of keypoints (`retarget`, `keypoints`), read by
//! the library's `FromStr` and worded with its names.

use vmdkit::keypoints::{Units, UpAxis};

/// `--units`: mm, cm, m, or metres per unit.
pub fn parse_units(text: &str) -> Result<Units, String> {
    text.parse().map_err(|_| {
        format!("expected {} or metres per unit, not `{text}`", Units::NAMES.join(", "))
    })
}

/// `--up`: y, -y, z or -z.
pub fn parse_up(text: &str) -> Result<UpAxis, String> {
    text.parse().map_err(|_| format!("expected {}, not `{text}`", either(UpAxis::NAMES)))
}

/// `a, b or c`.
fn either(names: &[&str]) -> String {
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.concat(),
    }
}
