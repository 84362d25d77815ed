//! A BVH as `vmdkit retarget`'s input: its joints' world positions by FK, mapped to roles by
//! name or by a mapping file (see `vmdkit::bvh`).

use crate::error::usage;
use anyhow::Context;
use std::path::Path;
use vmdkit::bvh::{detect_layout, to_keypoints, Bvh, FkOptions, PositionOffset};
use vmdkit::keypoints::{JointLayout, Keypoints};

/// A BVH as the retargeting's keypoints: every joint's world position per frame, with the
/// layout that says which joint is which, and how that layout was chosen.
pub struct BvhInput {
    /// The joints' positions, in the file's units, Y up, right-handed, at the file's rate.
    pub keypoints: Keypoints,
    /// Roles by joint name.
    pub layout: JointLayout,
    /// How the layout was chosen.
    pub layout_from: &'static str,
}

/// Reads `bytes` (from `path`) as a BVH and maps its joints: by name (`layout` is `auto`) or
/// by a mapping file of `joint = role` lines.
pub fn keypoints(path: &Path, bytes: &[u8], layout: &str) -> anyhow::Result<BvhInput> {
    let bvh = Bvh::parse(bytes).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let (layout, layout_from) = if layout.eq_ignore_ascii_case("auto") {
        let layout = detect_layout(&bvh).map_err(|e| {
            let hint = if e.a_mapping_file_may_help() {
                "; pass a mapping file (`joint = role` lines) with --layout"
            } else {
                ""
            };
            anyhow::anyhow!("{}: {e}{hint}", path.display())
        })?;
        (layout, "joint names")
    } else {
        let file = Path::new(layout);
        if !file.is_file() {
            return Err(usage(format!(
                "--layout {layout}: a BVH's joints are mapped by name (auto) or by a mapping \
                 file of `joint = role` lines, not by a keypoint layout"
            )));
        }
        crate::input::note_input(file);
        let layout = JointLayout::from_file(file).with_context(|| file.display().to_string())?;
        (layout, "mapping file")
    };
    let fk = FkOptions { position_offset: PositionOffset::Replace };
    let keypoints =
        to_keypoints(&bvh, &layout, fk).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    Ok(BvhInput { keypoints, layout, layout_from })
}
