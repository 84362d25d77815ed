//! `--layout` by name or mapping file, and the model keypoints are placed on or read off
//! (`retarget`, `keypoints`).

use std::path::Path;
use vmdkit::keypoints::JointLayout;
use vmdkit::model::Model;

/// The model at `path`, or the built-in standard model; with a label for messages.
pub fn target_model(path: Option<&Path>) -> anyhow::Result<(Model, String)> {
    match path {
        Some(path) => Ok((crate::input::read_model(path)?, path.display().to_string())),
        None => Ok((vmdkit::example::standard_model(), "the built-in standard model".to_string())),
    }
}

/// A layout by name or mapping file (the `auto` choice is the caller's).
pub fn named_layout(text: &str) -> anyhow::Result<JointLayout> {
    let path = Path::new(text);
    if path.is_file() {
        crate::input::note_input(path);
        return JointLayout::from_file(path)
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()));
    }
    JointLayout::builtin_or_error(text).map_err(|e| crate::error::usage(e.to_string()))
}
