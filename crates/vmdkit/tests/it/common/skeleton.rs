//! Shared by the `skeleton_*` tests and the posing benchmark (which includes this file by
//! path): the corpus's (model, motions) pairs and small helpers.
#![allow(dead_code)] // the fuzz targets and the posing benchmark use a subset

use mmd_anim_format::{build_mmd_registered_pair_clip, import_pmx_runtime, import_vmd_motion};
use mmd_anim_runtime::{AnimationClip, RuntimeInstance};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use test_corpus::Manifest;
use vmdkit::model::Model;
use vmdkit::Motion;

pub const MIKU: &str = "MMD-Blender__blender_mmd_tools/samples__pmx__初音ミク.pmx";
pub const MIKU_TEST: &str = "MMD-Blender__blender_mmd_tools/samples__vmd__test.vmd";
pub const MEI: &str = "mmdagent__mmdagent-mirror/MMDAgent_Example__Model__mei__mei.pmd";
pub const TRACE: &str = "miu200521358__mmd-auto-trace-3/data__pmx__trace_check_base_model.pmx";
pub const BONE_TREE: &str = "miu200521358__mmd_base/tests__resources__ボーンツリーテストモデル.pmx";
pub const WAVEFILE: &str = "takahirox__mmd-viewer-js/vmd__wavefile_v2.vmd";
pub const SAMPLE2: &str = "miu200521358__mmd_base/tests__resources__サンプルモーション2.vmd";

/// A model and the motions made for it (or for its skeleton).
pub struct Pair {
    pub model: PathBuf,
    pub motions: Vec<PathBuf>,
}

fn vmds(manifest: &Manifest, prefix: &str, contains: &str) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = manifest
        .of_kind("vmd")
        .filter(|e| e.local_path.starts_with(prefix) && e.local_path.contains(contains))
        .map(|e| e.path.clone())
        .collect();
    found.sort();
    found
}

/// The corpus pairs the issue names, those present in this manifest.
pub fn pairs(manifest: &Manifest) -> Vec<Pair> {
    let at = |p: &str| manifest.dir.join(p);
    // A model and the corpus motions made for it, each source a (folder, name part) of VMDs.
    let made_for = |model: &str, sources: &[(&str, &str)]| Pair {
        model: at(model),
        motions: sources.iter().flat_map(|&(prefix, part)| vmds(manifest, prefix, part)).collect(),
    };
    let mut pairs = vec![
        made_for(MEI, &[("mmdagent__mmdagent-mirror/", "mei_")]),
        made_for(
            TRACE,
            &[
                ("wayne931121__3d-pose-baseline-vmd/", "test_json_3d_"),
                ("miu200521358__mmd-auto-trace-4/", "IK_step"),
            ],
        ),
        made_for(
            BONE_TREE,
            &[
                ("miu200521358__mmd_base/", "サンプルモーション_"),
                ("miu200521358__mmd_base/", "ボーン_左腕"),
            ],
        ),
        made_for(
            "miu200521358__mmd_base/tests__resources__平面3つ.pmx",
            &[("miu200521358__mmd_base/", "平面3つ0")],
        ),
        made_for(
            "miu200521358__mmd_base/tests__resources__曲げ柱tex.pmx",
            &[("miu200521358__mmd_base/", "曲げ柱tex0")],
        ),
        Pair { model: at(MIKU), motions: vec![at(MIKU_TEST), at(WAVEFILE)] },
        made_for(
            "yohawing__three-mmd-loader/test__fixtures__test_append_bone.pmx",
            &[("yohawing__three-mmd-loader/", "test_append_bone")],
        ),
    ];
    for model in ["bone_flag_test", "matcap_sample", "uv_morph_test"] {
        pairs.push(made_for(
            &format!("noname0310__babylon-mmd/res__model__{model}.pmx"),
            &[("noname0310__babylon-mmd/", "physics_toggle")],
        ));
    }
    pairs.retain(|p| p.model.exists() && p.motions.iter().all(|m| m.exists()));
    pairs
}

pub fn model(path: &Path) -> Model {
    Model::read_file(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A motion, read leniently: one of Mei's expression files has a damaged self-shadow count
/// after its bone and morph sections, which lenient reading drops.
pub fn motion(path: &Path) -> Motion {
    Motion::read_file_with(path, vmdkit::ReadOptions::LENIENT)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .motion
}

pub fn short(path: &Path) -> String {
    path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// Up to `count` frames spread over 0..=last, with half frames, always including both ends.
pub fn frames(last: u32, count: usize) -> Vec<f64> {
    let last = f64::from(last);
    let step = (last / count.max(1) as f64).max(0.5);
    let mut out = Vec::new();
    let mut t = 0.0;
    while t <= last {
        out.push(t);
        t += step;
        // Alternate onto half frames so that interpolated samples are covered too.
        if out.len() % 2 == 1 {
            t = t.floor() + 0.5;
        }
    }
    out.push(last);
    out
}

/// The bone named `name`.
pub fn bone(model: &Model, name: &str) -> usize {
    model.bone_index(name).unwrap_or_else(|| panic!("{}: no bone {name}", model.name))
}

/// The peer (mmd-anim-runtime) set up by its own readers alone: its runtime for a PMX, its clip
/// for a VMD, and how many bones its PMX reader named.
pub fn peer_pipeline(pmx: &[u8], vmd: &[u8]) -> (RuntimeInstance, AnimationClip, usize) {
    let peer = import_pmx_runtime(pmx).unwrap();
    let import = import_vmd_motion(vmd).unwrap();
    let clip = build_mmd_registered_pair_clip(
        &peer.model,
        &import,
        &peer.bone_name_to_index,
        &peer.morph_name_to_index,
        &peer.ik_solver_bone_name_to_index,
        peer.model.ik_count(),
    )
    .unwrap();
    (RuntimeInstance::new(Arc::new(peer.model)), clip, peer.bone_names.len())
}
