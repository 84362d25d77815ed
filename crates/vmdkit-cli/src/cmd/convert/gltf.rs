//! `vmdkit convert … OUT.glb`: a model, its mesh, a motion and a camera as one glTF binary
//! (`vmdkit::gltf`). `convert` hands every `.glb` output here.

use crate::args::ik::IkMode;
use crate::args::limit::{too_large, OutputLimit};
use crate::args::physics::PhysicsArgs;
use crate::error::usage;
use crate::input::{self, read_model};
use crate::output;
use crate::output::{print_export_summary, ExportSummary};
use crate::shared::eval::{bind, warn_duplicates};
use crate::shared::physics::{with_physics, PhysicsRun};
use std::path::{Path, PathBuf};
use vmdkit::eval::MotionSampler;
use vmdkit::gltf::{
    model_dir, to_glb, GltfError, GltfInput, GltfNote, GltfOptions, TextureAccess, Textures,
    DEFAULT_MAX_TEXTURE_BYTES,
};
use vmdkit::limit::sample_count;
use vmdkit::limit::ByteSize;
use vmdkit::model::Mesh;
use vmdkit::skeleton::Skeleton;

/// The flags of `convert` that only `.glb` outputs use.
#[derive(clap::Args)]
pub struct GltfArgs {
    /// glTF: a camera motion (VMD) to add as an animated camera node
    #[arg(long, value_name = "CAMERA")]
    camera: Option<PathBuf>,
    /// glTF: leave the mesh out, writing the skeleton (and its animation) alone
    #[arg(long)]
    skeleton_only: bool,
    /// glTF: copy textures into the GLB instead of referring to them by relative path
    #[arg(long)]
    embed_textures: bool,
    /// glTF: also read textures whose paths leave the model's folder (.., absolute paths,
    /// links out of it), which are left out by default: a model's paths are not trusted
    #[arg(long)]
    allow_outside_textures: bool,
    /// glTF: leave out embedded textures larger than SIZE (512K, 64M, 1GiB or bytes)
    #[arg(long, value_name = "SIZE", default_value_t = ByteSize(DEFAULT_MAX_TEXTURE_BYTES))]
    max_texture_size: ByteSize,
    /// glTF: the CCD solver the motion is posed with
    #[arg(long, value_enum, default_value_t = IkMode::Mmd)]
    ik: IkMode,
}

impl GltfArgs {
    /// A usage error when glTF flags are given for another output.
    pub fn refuse_unless_glb(&self, output: &Path) -> anyhow::Result<()> {
        let given = [
            (self.camera.is_some(), "--camera"),
            (self.skeleton_only, "--skeleton-only"),
            (self.embed_textures, "--embed-textures"),
            (self.allow_outside_textures, "--allow-outside-textures"),
            (self.max_texture_size.0 != DEFAULT_MAX_TEXTURE_BYTES, "--max-texture-size"),
        ];
        match given.iter().find(|(on, _)| *on) {
            Some((_, flag)) => Err(usage(format!(
                "{flag} is for a .glb output, and {} is not one",
                output.display()
            ))),
            None => Ok(()),
        }
    }
}

/// Whether `path` names a `.glb` output.
pub fn is_glb(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case("glb"))
}

fn is_model(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("pmx") || e.eq_ignore_ascii_case("pmd"))
}

/// Writes `output` from `input`: a motion with `--model`, or a model (its rest pose).
/// `--model`, `--max-output-size` and `--physics` are `convert`'s own, shared with BVH outputs.
#[allow(clippy::too_many_arguments)]
pub fn run(
    input: &Path,
    output: &Path,
    lenient: bool,
    model: Option<&Path>,
    limit: OutputLimit,
    physics: &PhysicsArgs,
    args: &GltfArgs,
    quiet: bool,
) -> anyhow::Result<()> {
    if input::is_stdio(output) {
        return Err(usage("a .glb output must be a file (its textures are relative to it)"));
    }
    let (model_path, motion_path) = match (model, is_model(input)) {
        (Some(model), false) => (model, Some(input)),
        (None, true) if physics.physics => {
            return Err(usage(
                "--physics plays a motion's physics, and IN is a model alone (its rest pose): \
                 give the motion as IN and the model with --model",
            ))
        }
        (None, true) => (input, None),
        (Some(_), true) => {
            return Err(usage("IN is a model already; --model is for playing a motion on one"))
        }
        (None, false) => {
            return Err(usage(
                "a motion to .glb needs --model MODEL (the PMX or PMD to play it on)",
            ))
        }
    };
    let model = read_model(model_path)?;
    let mesh = if args.skeleton_only {
        None
    } else {
        Some(
            Mesh::read_file(model_path)
                .map_err(|e| anyhow::anyhow!("cannot read the model's mesh: {e}"))?,
        )
    };
    let skeleton = Skeleton::new(&model);
    // A model alone is its rest pose: no animation.
    let mut frames = 0;
    let motion = match motion_path {
        Some(path) => {
            let loaded = input::load_motion(path, lenient, input::NO_TRAILING)?;
            loaded.warn_repairs();
            // What will not move: tracks no bone or morph of the model has.
            let sampler = MotionSampler::new(&loaded.motion);
            warn_duplicates(&loaded.label, &sampler);
            bind(&loaded.label, &skeleton, &sampler);
            // The samples the export takes: frame 0 through the last key at glTF's rate.
            frames = sample_count(sampler.last_frame().unwrap_or(0), vmdkit::gltf::FPS);
            let run = PhysicsRun {
                settings: physics.settings()?,
                pose: args.ik.options(),
                max_output_bytes: limit.bytes(),
            };
            let model_label = model_path.display().to_string();
            let motion =
                with_physics(&loaded.label, &loaded.motion, &model_label, &model, &skeleton, run)?
                    .into_owned();
            Some(input::Loaded { motion, ..loaded })
        }
        None => None,
    };
    let camera = match &args.camera {
        Some(path) => Some(input::load_motion(path, lenient, input::NO_TRAILING)?),
        None => None,
    };
    let textures_from = model_dir(model_path);
    let textures = if args.embed_textures {
        Textures::Embed { model_dir: textures_from }
    } else {
        Textures::Reference { model_dir: textures_from, output_dir: model_dir(output) }
    };
    let options = GltfOptions {
        pose: args.ik.options(),
        textures,
        texture_access: TextureAccess {
            allow_outside: args.allow_outside_textures,
            max_bytes: args.max_texture_size.0,
        },
        max_output_bytes: limit.bytes(),
        ..GltfOptions::default()
    };
    let input = GltfInput {
        model: &model,
        mesh: mesh.as_ref(),
        motion: motion.as_ref().map(|m| &m.motion),
        camera: camera.as_ref().map(|c| &c.motion),
    };
    let export = to_glb(&input, &options).map_err(|e| match e {
        GltfError::TooLarge(e) => {
            too_large(&motion.as_ref().map_or(String::new(), |m| m.label.clone()), &e)
        }
        e @ GltfError::CameraTooLarge { .. } => {
            let camera = args.camera.as_deref().unwrap_or(output);
            anyhow::anyhow!("{}: {e} (--max-output-size)", camera.display())
        }
        e => anyhow::anyhow!("{}: {e}", output.display()),
    })?;
    for note in &export.notes {
        let about = match (note, &args.camera, &motion) {
            (GltfNote::FixedFieldOfView { .. } | GltfNote::OrthographicCamera, Some(c), _) => {
                c.display().to_string()
            }
            (
                GltfNote::UnboundMorphTracks { .. } | GltfNote::PmdBaseMorphTrack { .. },
                _,
                Some(m),
            ) => m.label.clone(),
            _ => model_path.display().to_string(),
        };
        // The library names no flag: the hint that lifts each refusal is ours.
        let hint = match note {
            GltfNote::TextureOutside { .. } => " (--allow-outside-textures reads it)",
            GltfNote::TextureTooLarge { .. } => " (--max-texture-size)",
            _ => "",
        };
        say!("warning: {about}: {note}{hint}");
    }
    output::write_output(output, |w| w.write_all(&export.glb))?;
    if !quiet {
        let joints = skeleton.bone_count();
        let (fps, bytes) = (vmdkit::gltf::FPS, export.glb.len() as u64);
        print_export_summary(output, &ExportSummary { frames, fps, joints, bytes });
    }
    Ok(())
}
