//! What `render` and `view` both take to draw a stick figure: the model (or the built-in
//! standard one), which bones, the IK solver, physics, and lenient reading.

use crate::args::ik::IkMode;
use crate::args::physics::PhysicsArgs;
use std::path::PathBuf;
use vmdkit::model::Model;
use vmdkit_draw::{BoneSet, View};

/// `--model` of the commands that draw: the model, or the built-in standard skeleton.
#[derive(clap::Args)]
pub struct FigureModel {
    /// The model (.pmx, .pmd); the built-in standard skeleton when not given
    #[arg(long, value_name = "MODEL")]
    pub model: Option<PathBuf>,
}

impl FigureModel {
    /// The model read, or the built-in standard model.
    pub fn read(&self) -> anyhow::Result<Model> {
        match &self.model {
            Some(path) => crate::input::read_model(path),
            None => Ok(vmdkit::example::standard_model()),
        }
    }
}

/// `--bones`, `--ik`, `--lenient` and `--physics` of the commands that draw.
#[derive(clap::Args)]
pub struct FigureOptions {
    /// Which bones to draw: body (standard and semi-standard bones), visible (every bone
    /// MMD shows), all (hidden helpers too)
    #[arg(long, value_name = "SET", default_value = "body", value_parser = parse_bones)]
    pub bones: BoneSet,
    /// IK solver
    #[arg(long, value_enum, value_name = "MODE", default_value_t)]
    pub ik: IkMode,
    /// Read a damaged VMD leniently, keeping every complete record
    #[arg(long)]
    pub lenient: bool,
    #[command(flatten)]
    pub physics: PhysicsArgs,
}

/// `--view`: front, side, top or degrees.
pub fn parse_view(text: &str) -> Result<View, String> {
    View::parse(text)
        .ok_or_else(|| format!("{text:?} is not front, side, top or an angle in degrees"))
}

/// `--bones`: body, visible or all.
pub fn parse_bones(text: &str) -> Result<BoneSet, String> {
    BoneSet::parse(text).ok_or_else(|| format!("{text:?} is not body, visible or all"))
}
