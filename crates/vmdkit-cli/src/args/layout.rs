//! `--layout` by name or mapping file, `--hand` for a lone hand whose names do not say which,
//! and the model keypoints are placed on or read off (`retarget`, `keypoints`).

use std::path::Path;
use vmdkit::keypoints::{JointLayout, JointLayoutError};
use vmdkit::model::Model;
use vmdkit::roles::Side;

/// `--hand`: the side of a lone hand whose joint names do not say it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum HandArg {
    /// The subject's left hand
    Left,
    /// The subject's right hand
    Right,
}

impl HandArg {
    /// The library's side.
    pub fn side(self) -> Side {
        match self {
            HandArg::Left => Side::Left,
            HandArg::Right => Side::Right,
        }
    }
}

/// The model at `path`, or the built-in standard model; with a label for messages.
pub fn target_model(path: Option<&Path>) -> anyhow::Result<(Model, String)> {
    match path {
        Some(path) => Ok((crate::input::read_model(path)?, path.display().to_string())),
        None => Ok((vmdkit::example::standard_model(), "the built-in standard model".to_string())),
    }
}

/// A layout error with the flag that resolves it, where one does.
pub fn layout_message(e: &JointLayoutError) -> String {
    let hint = if e.choosing_a_layout_may_help() {
        "; pass --layout to name one (a built-in name or a mapping file)"
    } else if e.giving_the_hand_side_may_help() {
        "; pass --hand left|right"
    } else {
        ""
    };
    format!("{e}{hint}")
}

/// A layout by name or mapping file (the `auto` choice is the caller's), for a lone hand on
/// `hand`'s side and, when known, a file of `joint_count` joints (which picks a face layout's
/// iris variant).
pub fn named_layout(
    text: &str,
    hand: Option<HandArg>,
    joint_count: Option<usize>,
) -> anyhow::Result<JointLayout> {
    let path = Path::new(text);
    if path.is_file() {
        crate::input::note_input(path);
        return JointLayout::from_file(path)
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()));
    }
    JointLayout::builtin_for(text, hand.map(HandArg::side), joint_count)
        .map_err(|e| crate::error::usage(layout_message(&e)))
}
