//! What the glTF tests share: the corpus files they use, running the binary and the node
//! tools of tools/js (installed by scripts/js-tests.sh), and vmdkit's own pose to compare
//! readers against. Without node, the tools or Chromium the tests fail under CI and are
//! skipped, with a notice, elsewhere.

use crate::common::{assert_no_panic, vmdkit};
use serde_json::Value;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;
use vmdkit::eval::MotionSampler;
use vmdkit::model::Model;
use vmdkit::skeleton::{Axes, Binding, Pose, Poser, Skeleton, METRES_PER_UNIT};
use vmdkit::Motion;

pub const MIKU: &str = "MMD-Blender__blender_mmd_tools/samples__pmx__初音ミク.pmx";
pub const TRACE: &str = "miu200521358__mmd-auto-trace-3/data__pmx__trace_check_base_model.pmx";
pub const MEI: &str = "mmdagent__mmdagent-mirror/MMDAgent_Example__Model__mei__mei.pmd";
pub const TEXTURED: &str = "miu200521358__mmd_base/tests__resources__曲げ柱tex.pmx";
pub const DANCE: &str = "takahirox__mmd-viewer-js/vmd__wavefile_v2.vmd";
/// A camera motion with cuts (keys one frame apart).
pub const CUT_CAMERA: &str = "hashi4__vmdgadgets/sample__lookat__sm33590155__sm33590155_camera.vmd";
pub const CAMERA: &str =
    "olyutorskii__Vmd2XML/src__test__resources__testdata__vmd110820__camera__camera.vmd";

/// A 1×1 RGBA PNG.
pub const PNG: &[u8] = &[
    137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0,
    0, 0, 31, 21, 196, 137, 0, 0, 0, 13, 73, 68, 65, 84, 120, 156, 99, 248, 223, 224, 240, 31, 0,
    7, 0, 2, 191, 43, 215, 199, 226, 0, 0, 0, 0, 73, 69, 78, 68, 174, 66, 96, 130,
];

/// tools/js, when node and its installed packages are there; `None` (after a notice) when not,
/// outside CI. Panics under CI, where they must be present.
pub fn js_tools(test: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tools/js");
    let node = Command::new("node").arg("--version").output();
    let problem = match node {
        Err(e) => Some(format!("node cannot be run: {e}")),
        Ok(_) if !dir.join("node_modules/gltf-validator").is_dir() => {
            Some("tools/js/node_modules is not installed (scripts/js-tests.sh)".to_string())
        }
        Ok(_) => None,
    };
    match problem {
        None => Some(dir),
        Some(p) if std::env::var_os("CI").is_some() => panic!("{test}: required under CI: {p}"),
        Some(p) => {
            eprintln!("skipping {test}: {p}");
            None
        }
    }
}

/// The Chromium the browser test drives: `$CHROMIUM`, else /usr/bin/chromium.
pub fn chromium(test: &str) -> Option<PathBuf> {
    let path = std::env::var_os("CHROMIUM")
        .map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from);
    if path.exists() {
        return Some(path);
    }
    if std::env::var_os("CI").is_some() {
        panic!("{test}: Chromium is required under CI: {} is missing", path.display());
    }
    eprintln!("skipping {test}: no Chromium at {} (set CHROMIUM)", path.display());
    None
}

pub fn node(tools: &Path, script: &str, args: &[&OsStr]) -> std::process::Output {
    Command::new("node").arg(tools.join(script)).args(args).output().expect("node runs")
}

/// Runs `vmdkit convert ARGS`, asserting success; gives stderr.
pub fn convert(args: &[&OsStr]) -> String {
    let output = vmdkit().arg("convert").args(args).output().unwrap();
    assert_no_panic(&output);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{args:?}: {stderr}");
    stderr
}

/// Asserts the validator finds no errors and no warnings in any of `files`.
pub fn assert_valid(tools: &Path, files: &[PathBuf]) {
    let args: Vec<&OsStr> = files.iter().map(|f| f.as_os_str()).collect();
    let output = node(tools, "validate.mjs", &args);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let reports: Vec<Value> = stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(reports.len(), files.len(), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
    for report in &reports {
        assert_eq!(report["errors"], 0, "{report}");
        assert_eq!(report["warnings"], 0, "{report}");
    }
    assert!(output.status.success());
}

/// The JSON chunk of a GLB.
pub fn glb_json(path: &Path) -> Value {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(&bytes[..4], b"glTF");
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize, bytes.len());
    let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    assert_eq!(&bytes[16..20], b"JSON");
    serde_json::from_slice(&bytes[20..20 + len]).unwrap()
}

/// vmdkit's world position of every bone at each of `frames` of `motion` on `model`, in the
/// glTF export's frame (right-handed Y up, metres).
pub fn expected_positions(model: &Model, motion: &Motion, frames: &[u32]) -> Vec<Vec<glam::DVec3>> {
    let skeleton = Skeleton::new(model);
    let sampler = MotionSampler::new(motion);
    let binding = Binding::new(&skeleton, &sampler);
    let mut poser = Poser::new(&skeleton, &sampler, &binding);
    let mut pose = Pose::new(&skeleton);
    frames
        .iter()
        .map(|&frame| {
            poser.pose_at(frame, &mut pose);
            pose.positions()
                .iter()
                .map(|&p| Axes::RightHandedYUp.position(p).as_dvec3() * METRES_PER_UNIT)
                .collect()
        })
        .collect()
}

/// The largest coordinate difference between `expected` and a reader's positions,
/// `read[k][node_of_bone[b]]` for frame k and bone b.
pub fn largest_difference(
    expected: &[Vec<glam::DVec3>],
    read: &Value,
    node_of_bone: &[usize],
) -> f64 {
    let mut worst = 0f64;
    for (k, bones) in expected.iter().enumerate() {
        for (bone, e) in bones.iter().enumerate() {
            let got = &read[k][node_of_bone[bone]];
            for axis in 0..3 {
                worst = worst.max((got[axis].as_f64().unwrap() - e[axis]).abs());
            }
        }
    }
    worst
}

/// A PMX made here (2.0, UTF-8, 4-byte indices): one bone, one triangle, one material whose
/// texture is `texture`, the path exactly as a model file would name it.
pub fn textured_pmx(texture: &str) -> Vec<u8> {
    let mut out = b"PMX ".to_vec();
    let f32s = |out: &mut Vec<u8>, vs: &[f32]| vs.iter().for_each(|v| out.extend(v.to_le_bytes()));
    let i32 = |out: &mut Vec<u8>, v: i32| out.extend(v.to_le_bytes());
    let text = |out: &mut Vec<u8>, s: &str| {
        out.extend((s.len() as i32).to_le_bytes());
        out.extend(s.as_bytes());
    };
    f32s(&mut out, &[2.0]);
    // 8 globals: UTF-8, no additional UVs, every index 4 bytes.
    out.extend([8, 1, 0, 4, 4, 4, 4, 4, 4]);
    for name in ["textured", "textured", "", ""] {
        text(&mut out, name);
    }
    i32(&mut out, 3);
    for x in [0.0, 1.0, 0.0] {
        // position, normal, UV; BDEF1 on bone 0; edge scale
        f32s(&mut out, &[x, x, 0.0, 0.0, 0.0, -1.0, x, 0.0]);
        out.push(0);
        i32(&mut out, 0);
        f32s(&mut out, &[1.0]);
    }
    i32(&mut out, 3);
    (0..3).for_each(|v| i32(&mut out, v));
    i32(&mut out, 1);
    text(&mut out, texture);
    i32(&mut out, 1);
    text(&mut out, "material");
    text(&mut out, "");
    // diffuse, specular, power, ambient; flags; edge colour and size
    f32s(&mut out, &[1.0; 11]);
    out.push(0);
    f32s(&mut out, &[0.0; 5]);
    // texture 0, no sphere map (mode 0), shared toon 0, no memo, 3 face indices
    i32(&mut out, 0);
    i32(&mut out, -1);
    out.extend([0, 1, 0]);
    text(&mut out, "");
    i32(&mut out, 3);
    i32(&mut out, 1);
    text(&mut out, "センター");
    text(&mut out, "center");
    f32s(&mut out, &[0.0, 8.0, 0.0]);
    i32(&mut out, -1);
    i32(&mut out, 0);
    // rotatable, movable, visible, operable; tail as an offset
    out.extend(0x001Eu16.to_le_bytes());
    f32s(&mut out, &[0.0, 1.0, 0.0]);
    // no morphs, display frames, rigid bodies or joints
    (0..4).for_each(|_| i32(&mut out, 0));
    out
}
