//! `vmdkit convert … OUT.glb`: every file these tests write passes the Khronos glTF-Validator
//! with no errors and no warnings; textures, errors and limits. Readers of the files are in
//! gltf_readers.rs.

use crate::common;
use crate::common::gltf as gltf_common;

use common::{assert_no_panic, vmdkit};
use gltf_common::*;
use serde_json::Value;
use std::ffi::OsStr;
use std::path::Path;
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
    // The dance was made for 初音ミク: some of its facial tracks name nothing Mei has, and
    // one keys PMD's base morph, which is named as such rather than counted as missing.
    assert!(stderr.contains("vmd__wavefile_v2.vmd: 19 morph tracks name no morph"), "{stderr}");
    assert!(stderr.contains("the PMD's base morph base, which is not animatable"), "{stderr}");
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

/// A model in `dir/model` whose one texture is `texture`, and the output `dir/NAME.glb` of
/// `convert MODEL OUT FLAGS` run as a hostile file's reproducer (`run_bounded`): its exit
/// status, stderr and the GLB's images.
#[cfg(unix)]
fn export_textured(dir: &Path, texture: &str, name: &str, flags: &[&str]) -> (i32, String, Value) {
    let model = dir.join("model").join(format!("{name}.pmx"));
    std::fs::write(&model, textured_pmx(texture)).unwrap();
    let out = dir.join(format!("{name}.glb"));
    let mut args = vec![OsStr::new("convert"), model.as_os_str(), out.as_os_str()];
    args.extend(flags.iter().map(OsStr::new));
    let run = common::run_bounded(dir, &args);
    let stderr = common::stderr(&run.output);
    let code = run.output.status.code().unwrap();
    let images = if out.exists() { glb_json(&out)["images"].clone() } else { Value::Null };
    (code, stderr, images)
}

/// Issue 24: a model's texture path that leaves its folder (`..` in either slash, an absolute
/// path, a link out of it) was embedded, or referred to, as written. It is now left out with a
/// warning naming it, embedded or not, unless --allow-outside-textures opts in.
#[cfg(unix)]
#[test]
fn textures_outside_the_models_folder_are_left_out_unless_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("model/tex")).unwrap();
    std::fs::create_dir_all(root.join("secret")).unwrap();
    // The "secret" is in the test's own folder, outside the model's.
    let secret = root.join("secret/private.png");
    std::fs::write(&secret, PNG).unwrap();
    std::os::unix::fs::symlink(&secret, root.join("model/link.png")).unwrap();
    std::fs::write(root.join("model/tex/ok.png"), PNG).unwrap();
    // A link inside the folder to a file inside it is fine.
    std::os::unix::fs::symlink("tex/ok.png", root.join("model/inner.png")).unwrap();
    let absolute = secret.to_str().unwrap();
    let outside = ["../secret/private.png", "..\\secret\\private.png", absolute, "link.png"];
    for (i, texture) in outside.iter().enumerate() {
        for flags in [&["--embed-textures"][..], &[]] {
            let name = format!("out{i}{}", flags.len());
            let (code, stderr, images) = export_textured(root, texture, &name, flags);
            assert_eq!(code, 0, "{stderr}");
            assert!(stderr.contains(&format!("texture {texture} left out")), "{stderr}");
            assert!(stderr.contains("outside the model's folder"), "{stderr}");
            assert!(stderr.contains("--allow-outside-textures"), "{stderr}");
            assert!(images.is_null(), "{texture} {flags:?}: {images}");
        }
        let allow = ["--embed-textures", "--allow-outside-textures"];
        let (code, stderr, images) = export_textured(root, texture, &format!("ok{i}"), &allow);
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(images[0]["mimeType"], "image/png", "{texture}: {stderr}");
    }
    for texture in ["tex/ok.png", "tex\\ok.png", "inner.png", "./tex/../tex/ok.png"] {
        let (code, stderr, images) =
            export_textured(root, texture, "inside", &["--embed-textures"]);
        assert_eq!(code, 0, "{stderr}");
        assert!(!stderr.contains("left out"), "{texture}: {stderr}");
        assert_eq!(images[0]["mimeType"], "image/png", "{texture}");
    }
}

/// Issue 24: a texture that is a device (`/dev/zero`, `/dev/urandom`: read until allocation
/// failed), a FIFO (hung forever) or a huge file (3 GB aborted) is left out with a warning and
/// the export goes on: only regular files are read, embedded within --max-texture-size.
#[cfg(unix)]
#[test]
fn special_and_huge_textures_are_left_out_and_the_export_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let model_dir = root.join("model");
    std::fs::create_dir_all(&model_dir).unwrap();
    let fifo = std::ffi::CString::new(model_dir.join("fifo.png").to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    for device in ["zero", "urandom"] {
        let link = model_dir.join(format!("{device}.png"));
        std::os::unix::fs::symlink(format!("/dev/{device}"), link).unwrap();
    }
    // 3 GiB that cost no disk.
    let huge = std::fs::File::create(model_dir.join("huge.png")).unwrap();
    huge.set_len(3 << 30).unwrap();
    std::fs::write(model_dir.join("small.png"), PNG).unwrap();

    let embed = ["--embed-textures"];
    // The devices are outside the folder, which is refused first; let them through to show
    // that they are still refused as what they are.
    let embed_any = ["--embed-textures", "--allow-outside-textures"];
    let cases: [(&str, &[&str], &str); 7] = [
        ("fifo.png", &embed, "is a named pipe (FIFO), not a regular file"),
        // Referring to a texture reads its first bytes (format, alpha): a FIFO hung that too.
        ("fifo.png", &[], "is a named pipe (FIFO), not a regular file"),
        ("zero.png", &embed, "outside the model's folder"),
        ("zero.png", &embed_any, "is a device, not a regular file"),
        ("urandom.png", &embed_any, "is a device, not a regular file"),
        ("huge.png", &embed, "3 GiB is over the limit of 64 MiB"),
        ("small.png", &["--embed-textures", "--max-texture-size", "10"], "over the limit of 10"),
    ];
    for (i, (texture, flags, why)) in cases.into_iter().enumerate() {
        let (code, stderr, images) = export_textured(root, texture, &format!("out{i}"), flags);
        assert_eq!(code, 0, "{texture} {flags:?}: {stderr}");
        assert!(stderr.contains(&format!("texture {texture} left out")), "{stderr}");
        assert!(stderr.contains(why), "{texture} {flags:?}: {stderr}");
        assert!(images.is_null(), "{texture}: {images}");
    }
    let (_, stderr, _) = export_textured(root, "huge.png", "hint", &embed);
    assert!(stderr.contains("(--max-texture-size)"), "{stderr}");
}

/// Issue 27: `convert … -o .glb` printed nothing on success (bake and retarget print a summary
/// line), and on a PMD it warned that the motion's `base` track "names no morph of the model"
/// although `info` lists `base` as morph 0: it is the PMD's base morph, not animatable.
#[test]
fn glb_export_prints_a_summary_and_names_the_pmd_base_morph() {
    let Some(corpus) = corpus_or_skip("glb summary") else { return };
    let model = corpus.dir.join(MEI);
    let dir = tempfile::tempdir().unwrap();
    let mut motion = vmdkit::Motion::new(vmdkit::LongName::encode("mei").0);
    for (name, frame) in [("base", 0), ("あ", 0), ("あ", 45), ("no such morph", 10)] {
        let name = vmdkit::KeyName::encode(name).0;
        motion.morphs.push(vmdkit::MorphKey { name, frame, weight: 0.5 });
    }
    let dance = dir.path().join("mouth.vmd");
    motion.write_file(&dance).unwrap();
    let out = dir.path().join("mouth.glb");
    // `vmdkit convert ARGS`, bounded; its stderr.
    let convert = |args: &[&OsStr]| {
        let run = common::run_bounded(dir.path(), &[&[OsStr::new("convert")], args].concat());
        let stderr = common::stderr(&run.output);
        assert!(run.output.status.success(), "{stderr}");
        stderr
    };
    let (model_flag, quiet) = (OsStr::new("--model"), OsStr::new("-q"));
    let stderr = convert(&[dance.as_os_str(), out.as_os_str(), model_flag, model.as_os_str()]);
    // (The corpus folder lacks the model's textures: those warnings are not this test's.)
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.contains(" texture ")).collect();
    let label = dance.display();
    assert_eq!(lines.len(), 3, "{stderr}");
    assert!(
        lines[0].starts_with(&format!(
            "warning: {label}: the motion keys the PMD's base morph base, which is not animatable"
        )),
        "{stderr}"
    );
    assert_eq!(
        lines[1],
        format!("warning: {label}: 1 morph tracks name no morph of the model: no such morph")
    );
    // The last key is at frame 45: 46 samples at 30 fps, 1.5 s.
    let bones = vmdkit::skeleton::Skeleton::new(&Model::read_file(&model).unwrap()).bone_count();
    let bytes = vmdkit::limit::ByteSize(std::fs::metadata(&out).unwrap().len());
    assert_eq!(
        lines[2],
        format!("{}: 46 frames at 30 fps (1.500 s), {bones} joints, {bytes}", out.display())
    );
    // A model alone is its rest pose; -q leaves the warnings alone and drops the summary.
    let rest = dir.path().join("rest.glb");
    let stderr = convert(&[model.as_os_str(), rest.as_os_str(), OsStr::new("--skeleton-only")]);
    assert!(
        stderr.ends_with(&format!(
            "{}: rest pose, {bones} joints, {}\n",
            rest.display(),
            vmdkit::limit::ByteSize(std::fs::metadata(&rest).unwrap().len())
        )),
        "{stderr}"
    );
    let stderr =
        convert(&[dance.as_os_str(), out.as_os_str(), model_flag, model.as_os_str(), quiet]);
    assert_eq!(stderr.lines().filter(|l| !l.contains(" texture ")).count(), 2, "{stderr}");
    assert!(stderr.lines().all(|l| l.starts_with("warning: ")), "only the warnings: {stderr}");
}
