//! Independent readers of `vmdkit convert … OUT.glb`: `@gltf-transform/core`
//! (tools/js/readback.mjs) computes the same world positions, morph weights and camera as
//! vmdkit from the file, and three.js's GLTFLoader loads and plays it in headless Chromium
//! (tools/js/browser.mjs).

use crate::common::gltf as gltf_common;

use gltf_common::*;
use serde_json::Value;
use std::ffi::OsStr;
use std::process::Command;
use test_corpus::{corpus_dir, corpus_or_skip};
use vmdkit::eval::MotionSampler;
use vmdkit::model::Model;
use vmdkit::skeleton::{Axes, METRES_PER_UNIT};
use vmdkit::Motion;

#[test]
fn an_independent_reader_sees_vmdkit_s_pose_and_morph_weights() {
    let Some(_) = corpus_or_skip("an_independent_reader_sees_vmdkit_s_pose") else { return };
    let Some(tools) = js_tools("an_independent_reader_sees_vmdkit_s_pose") else { return };
    let corpus = corpus_dir();
    let dir = tempfile::tempdir().unwrap();
    for model_name in [MIKU, TRACE, MEI] {
        let model_path = corpus.join(model_name);
        let glb = dir.path().join("out.glb");
        convert(&[
            corpus.join(DANCE).as_os_str(),
            glb.as_os_str(),
            OsStr::new("--model"),
            model_path.as_os_str(),
        ]);
        let frames = [0u32, 1, 100, 731, 1500, 2809];
        let times: Vec<String> =
            frames.iter().map(|f| (f64::from(*f) / 30.0).to_string()).collect();
        let mut args: Vec<&OsStr> = vec![glb.as_os_str()];
        args.extend(times.iter().map(OsStr::new));
        let output = node(&tools, "readback.mjs", &args);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let read: Value = serde_json::from_slice(&output.stdout).unwrap();

        let model = Model::read_file(&model_path).unwrap();
        let motion = Motion::read_file(corpus.join(DANCE)).unwrap();
        let sampler = MotionSampler::new(&motion);
        let joints: Vec<usize> = read["joints"]
            .as_array()
            .unwrap()
            .iter()
            .map(|j| j.as_u64().unwrap() as usize)
            .collect();
        assert_eq!(joints.len(), model.bones.len(), "{model_name}: one joint per bone");
        let expected = expected_positions(&model, &motion, &frames);
        let worst = largest_difference(&expected, &read["positions"], &joints);
        eprintln!("{model_name}: largest world-position difference {worst:.2e} m");
        assert!(worst < 1e-4, "{model_name}: {worst} m");

        // Morph weights: each target's, from the motion's key of the same name.
        let targets = read["targets"].as_u64().unwrap() as usize;
        if model_name == MIKU {
            assert!(targets > 0);
            let mesh = vmdkit::model::Mesh::read_file(&model_path).unwrap();
            let mut checked = 0;
            for (t, morph) in mesh.vertex_morphs.iter().enumerate() {
                let Some(track) = sampler.morph_track(morph.name_cp932.bytes()) else { continue };
                for (k, &frame) in frames.iter().enumerate() {
                    let expected = f64::from(track.sample(frame));
                    let got = read["weights"][k][t].as_f64().unwrap();
                    assert!(
                        (got - expected).abs() < 1e-6,
                        "{} at {frame}: {got} vs {expected}",
                        morph.name
                    );
                    checked += 1;
                }
            }
            assert!(checked > 0, "some morph keys bind");
        }
    }
}

#[test]
fn the_camera_node_follows_mmd_s_camera_and_keeps_its_cuts() {
    let test = "the_camera_node_follows_mmd_s_camera";
    let Some(_) = corpus_or_skip(test) else { return };
    let Some(tools) = js_tools(test) else { return };
    let corpus = corpus_dir();
    let dir = tempfile::tempdir().unwrap();
    let glb = dir.path().join("camera.glb");
    let camera = corpus.join(CUT_CAMERA);
    let model = corpus.join(TRACE);
    convert(&[
        model.as_os_str(),
        glb.as_os_str(),
        OsStr::new("--skeleton-only"),
        OsStr::new("--camera"),
        camera.as_os_str(),
    ]);
    let motion = Motion::read_file(&camera).unwrap();
    let sampler = MotionSampler::new(&motion);
    let track = sampler.camera_track().unwrap();
    // Every frame, and the last f32 time before the later key of each cut, where the earlier
    // key holds: (seconds as the file stores them, frame whose camera is expected there).
    let seconds = |f: u32| f64::from(f) / 30.0;
    let mut queries: Vec<(f64, f64)> = (0..=sampler.last_frame().unwrap())
        .map(|f| (f64::from(seconds(f) as f32), f64::from(f)))
        .collect();
    let cuts: Vec<(f64, f64)> = (0..track.frames().len())
        .filter(|&i| track.is_cut(i))
        .map(|i| {
            let later = seconds(track.frames()[i + 1]) as f32;
            (f64::from(later.next_down()), f64::from(track.frames()[i]))
        })
        .collect();
    assert!(!cuts.is_empty(), "the camera motion has cuts");
    queries.extend(&cuts);
    let times: Vec<String> = queries.iter().map(|q| q.0.to_string()).collect();
    let mut args: Vec<&OsStr> = vec![glb.as_os_str()];
    args.extend(times.iter().map(OsStr::new));
    let output = node(&tools, "readback.mjs", &args);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let read: Value = serde_json::from_slice(&output.stdout).unwrap();
    let node = read["nodes"].as_array().unwrap().iter().position(|n| n == "camera").unwrap();
    let mut worst = (0f64, 0f64);
    for (k, &(_, frame)) in queries.iter().enumerate() {
        let view = sampler.sample_camera(frame).unwrap().view();
        let eye = Axes::RightHandedYUp.position(view.eye).as_dvec3() * METRES_PER_UNIT;
        let forward = Axes::RightHandedYUp.position(view.forward).as_dvec3();
        let got = &read["positions"][k][node];
        let q = &read["rotations"][k][node];
        let q = glam::DQuat::from_xyzw(
            q[0].as_f64().unwrap(),
            q[1].as_f64().unwrap(),
            q[2].as_f64().unwrap(),
            q[3].as_f64().unwrap(),
        );
        let looking = q * glam::DVec3::NEG_Z;
        for axis in 0..3 {
            worst.0 = worst.0.max((got[axis].as_f64().unwrap() - eye[axis]).abs());
        }
        let angle = looking.angle_between(forward).to_degrees();
        if angle > 0.01 && std::env::var_os("GLTF_DEBUG").is_some() {
            eprintln!("frame {frame}: {angle}° {got} vs {eye}");
        }
        worst.1 = worst.1.max(angle);
    }
    eprintln!("camera: largest eye difference {:.2e} m, direction {:.2e}°", worst.0, worst.1);
    assert!(worst.0 < 1e-4 && worst.1 < 0.01, "{worst:?}");
    assert_valid(&tools, &[glb]);
}

#[test]
fn three_js_loads_and_plays_the_glb_in_a_headless_browser() {
    let test = "three_js_loads_and_plays_the_glb";
    let Some(_) = corpus_or_skip(test) else { return };
    let Some(tools) = js_tools(test) else { return };
    let Some(browser) = chromium(test) else { return };
    let corpus = corpus_dir();
    let dir = tempfile::tempdir().unwrap();
    let glb = dir.path().join("miku.glb");
    let model_path = corpus.join(MIKU);
    convert(&[
        corpus.join(DANCE).as_os_str(),
        glb.as_os_str(),
        OsStr::new("--model"),
        model_path.as_os_str(),
    ]);
    let frames = [0u32, 100, 1500];
    let times: Vec<String> = frames.iter().map(|f| (f64::from(*f) / 30.0).to_string()).collect();
    let output = Command::new("node")
        .arg(tools.join("browser.mjs"))
        .arg(&glb)
        .args(&times)
        .env("CHROMIUM", &browser)
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let page: Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("{e}: {stdout}{}", String::from_utf8_lossy(&output.stderr)));
    assert_eq!(page["errors"].as_array().unwrap().len(), 0, "{}", page["errors"]);
    assert!(output.status.success());

    let model = Model::read_file(&model_path).unwrap();
    let bones = model.bones.len();
    assert_eq!(page["clips"], 1);
    assert_eq!(page["bones"], bones);
    // three.js makes one mesh per primitive, and gives each its own weights track.
    let primitives = glb_json(&glb)["meshes"][0]["primitives"].as_array().unwrap().len();
    assert_eq!(page["skinnedMeshes"], primitives);
    assert_eq!(
        page["tracks"],
        2 * bones + primitives,
        "translation and rotation per bone, weights"
    );
    assert!(page["morphTargets"].as_u64().unwrap() > 0);
    let motion = Motion::read_file(corpus.join(DANCE)).unwrap();
    let sampler = MotionSampler::new(&motion);
    let last = sampler.last_frame().unwrap();
    assert!((page["duration"].as_f64().unwrap() - f64::from(last) / 30.0).abs() < 1e-4);
    // three.js's mixer puts every bone where vmdkit's pose has it (node i is bone i).
    let expected = expected_positions(&model, &motion, &frames);
    let worst = largest_difference(&expected, &page["positions"], &(0..bones).collect::<Vec<_>>());
    eprintln!(
        "three.js: largest world-position difference {worst:.2e} m (rendered: {})",
        page["rendered"]
    );
    assert!(worst < 1e-4, "{worst} m");
}
