//! `vmdkit bake --model MODEL --physics -o OUT.vmd`: the model's physics baked into keys (see
//! `vmdkit::bake::bake_physics`).

use super::BakeArgs;
use crate::args::ik::IkMode;
use crate::args::physics::PhysicsArgs;
use crate::input::Format;
use crate::output;
use crate::shared::messages::{counts, errors};
use crate::shared::physics::bake;
use std::path::Path;
use vmdkit::bake::PhysicsBakeOptions;

/// Bakes the physics of the model at `model_path` playing `args.file` (posed with `ik`) into
/// `args.output`, a .vmd.
pub fn run(
    args: &BakeArgs,
    model_path: &Path,
    ik: IkMode,
    physics: &PhysicsArgs,
) -> anyhow::Result<()> {
    let reduce = args.reduce_options()?;
    let settings = physics.settings()?.unwrap_or_default();
    let (model, loaded, skeleton) = super::load_on_model(args, model_path)?;
    if model.rigid_bodies.is_empty() {
        say!(
            "warning: {}: the model has no rigid bodies; --physics moves nothing, and the motion \
             is written as it is",
            model_path.display()
        );
    }

    let options = PhysicsBakeOptions {
        physics: settings,
        pose: ik.options(),
        reduce,
        max_output_bytes: args.limit.bytes(),
    };
    let (out, report) = bake(&loaded.label, &loaded.motion, &model, &skeleton, &options)?;
    output::save_motion(&args.output, &out, Format::Vmd, false, output::TEXT_TRAILING_CAP)?;
    say!("{}: {}", args.output.display(), counts(&out));
    say!(
        "with physics off, every bone is within {:.1e} units and {:.1e}° of the physics play",
        report.max_position_error,
        report.max_rotation_error_degrees,
    );
    if let Some(reduced) = &report.reduce {
        say!(
            "reduced {} baked keys to {}; largest error at any frame: {}",
            reduced.before.bones,
            reduced.after.bones,
            errors(&reduced.errors)
        );
    }
    Ok(())
}
