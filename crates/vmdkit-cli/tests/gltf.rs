//! `vmdkit convert … OUT.glb`: every file these tests write passes the Khronos glTF-Validator
//! with no errors and no warnings; textures, errors and limits. Readers of the files are in
//! gltf_readers.rs.

mod common;
mod gltf_common;

use common::{assert_no_panic, vmdkit};
use gltf_common::*;
use std::ffi::OsStr;
use test_corpus::{corpus_dir, corpus_or_skip};
use vmdkit::model::Model;

#[test]
fn every_glb_passes_the_khronos_validator() {
    let Some(_) = corpus_or_skip("every_glb_passes_the_khronos_validator") else { return };
    let Some(tools) = js_tools("every_glb_passes_the_khronos_validator") else { return };
    let corpus = corpus_dir();
    let dir = tempfile::tempdir().unwrap();
    let out = |name: &str| dir.path().join(name);
    let mut files = Vec::new();
    let mut run = |name: &str, args: &[&OsStr]| {
        let path = out(name);
        let mut all = args.to_vec();
        all.insert(1, path.as_os_str());
        let stderr = convert(&all);
        files.push(path);
        stderr
    };
    let (dance, camera) = (corpus.join(DANCE), corpus.join(CAMERA));
    let model_flag = OsStr::new("--model");
    // A dance with morphs and a camera on the standard model; on the semi-standard one alone
    // and as a skeleton; on a PMD.
    run(
        "miku.glb",
        &[
            dance.as_os_str(),
            model_flag,
            corpus.join(MIKU).as_os_str(),
            OsStr::new("--camera"),
            camera.as_os_str(),
        ],
    );
    run("trace.glb", &[dance.as_os_str(), model_flag, corpus.join(TRACE).as_os_str()]);
    run(
        "trace-bones.glb",
        &[
            dance.as_os_str(),
            model_flag,
            corpus.join(TRACE).as_os_str(),
            OsStr::new("--skeleton-only"),
        ],
    );
    let stderr = run("mei.glb", &[dance.as_os_str(), model_flag, corpus.join(MEI).as_os_str()]);
    assert!(stderr.contains("texture") && stderr.contains("left out"), "{stderr}");
    // The dance was made for 初音ミク: some of its facial tracks name nothing Mei has.
    assert!(stderr.contains("vmd__wavefile_v2.vmd: 20 morph tracks name no morph"), "{stderr}");
    // Every corpus model in its rest pose.
    let mut models = 0;
    for entry in std::fs::read_dir(&corpus).unwrap().flatten() {
        for file in std::fs::read_dir(entry.path()).into_iter().flatten().flatten() {
            let path = file.path();
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
            if !matches!(ext.as_str(), "pmx" | "pmd") || Model::read_file(&path).is_err() {
                continue;
            }
            models += 1;
            run(&format!("rest-{models}.glb"), &[path.as_os_str()]);
        }
    }
    assert!(models >= 10, "{models} corpus models");
    assert!(glb_json(&out("trace-bones.glb")).get("meshes").is_none());
    assert_valid(&tools, &files);
}

#[test]
fn textures_are_referenced_or_embedded_and_pass_the_validator() {
    let Some(_) = corpus_or_skip("textures_are_referenced_or_embedded") else { return };
    let Some(tools) = js_tools("textures_are_referenced_or_embedded") else { return };
    // The model names grid.png beside it; the output goes to another folder.
    let dir = tempfile::tempdir().unwrap();
    let model_dir = dir.path().join("模型 dir");
    let out_dir = dir.path().join("out");
    std::fs::create_dir_all(&model_dir).unwrap();
    std::fs::create_dir_all(&out_dir).unwrap();
    let model = model_dir.join("tex.pmx");
    std::fs::copy(corpus_dir().join(TEXTURED), &model).unwrap();

    let missing = out_dir.join("missing.glb");
    let stderr = convert(&[model.as_os_str(), missing.as_os_str()]);
    assert!(stderr.contains("texture grid.png left out"), "{stderr}");

    std::fs::write(model_dir.join("grid.png"), PNG).unwrap();
    let referenced = out_dir.join("referenced.glb");
    let stderr = convert(&[model.as_os_str(), referenced.as_os_str()]);
    assert!(!stderr.contains("left out"), "{stderr}");
    let json = glb_json(&referenced);
    assert_eq!(json["images"][0]["uri"], "../%E6%A8%A1%E5%9E%8B%20dir/grid.png");

    let embedded = out_dir.join("embedded.glb");
    convert(&[model.as_os_str(), embedded.as_os_str(), OsStr::new("--embed-textures")]);
    let json = glb_json(&embedded);
    assert_eq!(json["images"][0]["mimeType"], "image/png");
    assert!(json["images"][0].get("uri").is_none());
    assert_valid(&tools, &[missing, referenced, embedded]);

    // Not PNG or JPEG: reported, left out, still valid.
    std::fs::write(model_dir.join("grid.png"), b"BM not really a bitmap").unwrap();
    let other = out_dir.join("other.glb");
    let stderr = convert(&[model.as_os_str(), other.as_os_str(), OsStr::new("--embed-textures")]);
    assert!(stderr.contains("not a PNG or JPEG"), "{stderr}");
    assert!(glb_json(&other).get("images").is_none());
    assert_valid(&tools, &[other]);
}

#[test]
fn glb_errors_are_clear_and_leave_no_output() {
    let dir = tempfile::tempdir().unwrap();
    let (_example_dir, motion) = common::example_dir();
    let out = dir.path().join("out.glb");
    let run = |args: &[&OsStr]| {
        let output = vmdkit().arg("convert").args(args).output().unwrap();
        assert_no_panic(&output);
        (output.status.code(), String::from_utf8_lossy(&output.stderr).into_owned())
    };
    let (code, stderr) = run(&[motion.as_os_str(), out.as_os_str()]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("needs --model"), "{stderr}");
    let model = common::write(dir.path(), "m.pmx", b"PMX ");
    // --model and the glTF flags are refused where they would do nothing.
    let json = dir.path().join("out.json");
    let (code, stderr) =
        run(&[motion.as_os_str(), json.as_os_str(), OsStr::new("--model"), model.as_os_str()]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("--model is for a .bvh or .glb output"), "{stderr}");
    let (code, stderr) =
        run(&[motion.as_os_str(), json.as_os_str(), OsStr::new("--skeleton-only")]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("--skeleton-only is for a .glb output"), "{stderr}");
    assert!(!json.exists());
    let (code, stderr) =
        run(&[model.as_os_str(), out.as_os_str(), OsStr::new("--model"), model.as_os_str()]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("IN is a model already"), "{stderr}");
    let not_a_model = common::write(dir.path(), "bad.pmx", b"PMX \x00\x00");
    let (code, stderr) =
        run(&[motion.as_os_str(), out.as_os_str(), OsStr::new("--model"), not_a_model.as_os_str()]);
    assert_ne!(code, Some(0));
    assert!(stderr.contains("bad.pmx"), "{stderr}");
    assert!(!out.exists());
}

#[test]
fn a_too_large_animation_is_refused_before_sampling() {
    let Some(_) = corpus_or_skip("a_too_large_animation_is_refused") else { return };
    let corpus = corpus_dir();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.glb");
    let output = vmdkit()
        .arg("convert")
        .args([corpus.join(DANCE).as_os_str(), out.as_os_str(), OsStr::new("--model")])
        .arg(corpus.join(TRACE))
        .args(["--max-output-size", "1M"])
        .output()
        .unwrap();
    assert_no_panic(&output);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(stderr.contains("--max-output-size"), "{stderr}");
    assert!(!out.exists());
}
