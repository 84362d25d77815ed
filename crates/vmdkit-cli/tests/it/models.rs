//! Models and VPD poses on the command line, over the corpus files read in place: `info` of
//! PMX/PMD models and VPD poses, `dump`, `convert` and `pose` of poses, motions written as
//! poses, and the parent indices of `pose --json`.

use crate::common;

use common::{assert_no_panic, vmdkit};
use serde_json::Value;
use std::path::{Path, PathBuf};
use test_corpus::{corpus_or_skip, Manifest};
use vmdkit::model::{Model, VpdPose};
use vmdkit::Motion;

const MIKU: &str = "MMD-Blender__blender_mmd_tools/samples__pmx__初音ミク.pmx";
const MEI: &str = "mmdagent__mmdagent-mirror/MMDAgent_Example__Model__mei__mei.pmd";
const POSE: &str = "MMD-Blender__blender_mmd_tools/samples__vpd__test.vpd";
const WAVE: &str = "takahirox__mmd-viewer-js/vmd__wavefile_v2.vmd";

fn run_ok(args: &[&std::ffi::OsStr]) -> Vec<u8> {
    let output = vmdkit().args(args).output().unwrap();
    assert_no_panic(&output);
    assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    output.stdout
}

fn json_lines(stdout: &[u8]) -> Vec<Value> {
    stdout
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect()
}

fn models(manifest: &Manifest) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = manifest
        .entries
        .iter()
        .filter(|e| matches!(e.kind(), "pmx" | "pmd"))
        .map(|e| e.path.clone())
        .collect();
    // One row lacks its kind; its name says what it is.
    for e in &manifest.entries {
        if e.kind().is_empty() && e.local_path.ends_with(".pmx") {
            paths.push(e.path.clone());
        }
    }
    paths
}

#[test]
fn info_of_every_corpus_model_agrees_with_the_reader_and_the_manifest() {
    let Some(manifest) = corpus_or_skip("info models") else {
        return;
    };
    let paths = models(&manifest);
    assert!(paths.len() >= 13, "only {} corpus models", paths.len());
    let mut args: Vec<&std::ffi::OsStr> = vec!["info".as_ref(), "--json".as_ref()];
    args.extend(paths.iter().map(|p| p.as_os_str()));
    let output = vmdkit().args(&args).output().unwrap();
    assert_no_panic(&output);
    let docs = json_lines(&output.stdout);
    assert_eq!(docs.len(), paths.len());
    let mut read = 0;
    for (path, doc) in paths.iter().zip(&docs) {
        let at = path.display().to_string();
        assert_eq!(doc["path"], at.as_str());
        let Ok(model) = Model::read_file(path) else {
            // The reader refuses it: info says why, naming the file, and fails.
            assert!(doc["error"].as_str().unwrap().contains(&at), "{doc}");
            assert_eq!(output.status.code(), Some(1));
            continue;
        };
        read += 1;
        assert_eq!(doc["kind"], "model", "{at}");
        assert_eq!(doc["name"], model.name.as_str(), "{at}");
        assert_eq!(doc["name_en"], model.name_en.as_str(), "{at}");
        assert_eq!(doc["comment"], model.comment.as_str(), "{at}");
        let c = &doc["counts"];
        assert_eq!(c["bones"], model.bones.len(), "{at}");
        assert_eq!(c["vertices"], model.counts.vertices, "{at}");
        assert_eq!(c["faces"], model.counts.face_indices / 3, "{at}");
        assert_eq!(c["materials"], model.counts.materials, "{at}");
        assert_eq!(c["morphs"], model.counts.morphs, "{at}");
        assert_eq!(c["rigid_bodies"], model.counts.rigid_bodies, "{at}");
        assert_eq!(c["joints"], model.counts.joints, "{at}");
        let bones = doc["bones"].as_array().unwrap();
        assert_eq!(bones.len(), model.bones.len());
        for (i, (b, bone)) in bones.iter().zip(&model.bones).enumerate() {
            assert_eq!(b["index"], i);
            assert_eq!(b["name"], bone.name.as_str());
            assert_eq!(b["parent"].as_u64(), bone.parent.map(|p| p as u64), "{at} {}", bone.name);
            if let Some(p) = bone.parent {
                assert_eq!(b["parent_name"], model.bones[p].name.as_str());
            }
            assert_eq!(b["flag_bits"], bone.flags.0);
            let flags: Vec<&str> =
                b["flags"].as_array().unwrap().iter().map(|f| f.as_str().unwrap()).collect();
            assert_eq!(flags.contains(&"ik"), bone.ik.is_some(), "{at} {}", bone.name);
            assert_eq!(
                flags.contains(&"rotatable"),
                bone.flags.contains(vmdkit::model::BoneFlags::ROTATABLE)
            );
            match (&bone.ik, &b["ik"]) {
                (None, Value::Null) => {}
                (Some(ik), doc_ik) => {
                    assert_eq!(doc_ik["target"], ik.target);
                    assert_eq!(doc_ik["target_name"], model.bones[ik.target].name.as_str());
                    assert_eq!(doc_ik["loop_count"], ik.loop_count);
                    let links = doc_ik["links"].as_array().unwrap();
                    assert_eq!(links.len(), ik.links.len());
                    for (l, link) in links.iter().zip(&ik.links) {
                        assert_eq!(l["bone"], link.bone);
                        assert_eq!(l["limits"].is_null(), link.limits.is_none());
                    }
                }
                (None, other) => panic!("{at}: {} has ik {other}", bone.name),
            }
            match (&bone.append, &b["append"]) {
                (None, Value::Null) => {}
                (Some(a), doc_a) => {
                    assert_eq!(doc_a["source"], a.parent);
                    assert_eq!(doc_a["ratio"].as_f64().unwrap() as f32, a.ratio);
                }
                (None, other) => panic!("{at}: {} has append {other}", bone.name),
            }
        }
        let morphs = doc["morphs"].as_array().unwrap();
        assert_eq!(morphs.len(), model.counts.morphs, "{at}");
        for (m, morph) in morphs.iter().zip(&model.morph_list) {
            assert_eq!(m["name"], morph.name.as_str());
            assert_eq!(m["kind"], morph.kind.name());
            assert_eq!(m["offsets"], morph.offsets);
        }
        check_physics(&at, doc, &model);
        // Independent figures where the manifest has them.
        let entry = manifest.entries.iter().find(|e| &e.path == path).unwrap();
        if !entry.get("model_name").is_empty() {
            assert_eq!(doc["name"], entry.get("model_name"), "{at}");
        }
        let note = entry.get("origin_note");
        if let Some(bones) = note.split(" bones").next().and_then(|s| s.rsplit('(').next()) {
            if let Ok(n) = bones.trim().parse::<usize>() {
                assert_eq!(c["bones"], n, "{at}: {note}");
            }
        }
    }
    assert!(read >= 12, "only {read} corpus models read");
}

/// A JSON number as `f32`, with `null` for what JSON cannot hold (NaN, infinities).
fn f32_of(v: &Value) -> f32 {
    v.as_f64().map_or(f32::NAN, |x| x as f32)
}

fn same(v: &Value, expected: glam::Vec3) -> bool {
    let got: Vec<f32> = v.as_array().unwrap().iter().map(f32_of).collect();
    got.iter()
        .zip(expected.to_array())
        .all(|(a, b)| a.to_bits() == b.to_bits() || a.is_nan() && !b.is_finite())
}

/// The `rigid_bodies`, `joints` and `physics_problems` of `info --json` say what the library
/// read, field for field.
fn check_physics(at: &str, doc: &Value, model: &Model) {
    let bodies = doc["rigid_bodies"].as_array().unwrap();
    assert_eq!(bodies.len(), model.rigid_bodies.len(), "{at}");
    for (i, (d, b)) in bodies.iter().zip(&model.rigid_bodies).enumerate() {
        assert_eq!(d["index"], i);
        assert_eq!(
            (d["name"].as_str(), d["name_en"].as_str()),
            (Some(&*b.name), Some(&*b.name_en))
        );
        assert_eq!(d["bone"].as_u64(), b.bone.map(|b| b as u64), "{at} {}", b.name);
        assert_eq!(d["mode"], b.mode.file_value(), "{at} {}", b.name);
        assert_eq!(d["shape"], b.shape.name());
        assert!(same(&d["size"], b.size) && same(&d["position"], b.position), "{at} {d}");
        assert!(same(&d["rotation"], b.rotation), "{at} {d}");
        let fields = ["mass", "linear_damping", "angular_damping", "restitution", "friction"];
        let values = [b.mass, b.linear_damping, b.angular_damping, b.restitution, b.friction];
        for (field, value) in fields.iter().zip(values) {
            assert_eq!(f32_of(&d[field]).to_bits(), value.to_bits(), "{at} {} {field}", b.name);
        }
        assert_eq!(
            (d["group"].as_u64(), d["mask"].as_u64()),
            (Some(b.group.into()), Some(b.mask.into()))
        );
    }
    let joints = doc["joints"].as_array().unwrap();
    assert_eq!(joints.len(), model.joints.len(), "{at}");
    for (d, j) in joints.iter().zip(&model.joints) {
        assert_eq!(d["name"], j.name.as_str());
        assert_eq!(d["kind"], j.kind);
        assert_eq!(d["body_a"].as_u64(), j.body_a.map(|b| b as u64), "{at} {}", j.name);
        assert_eq!(d["body_b"].as_u64(), j.body_b.map(|b| b as u64), "{at} {}", j.name);
        let fields = [
            ("position", j.position),
            ("rotation", j.rotation),
            ("linear_min", j.linear_min),
            ("linear_max", j.linear_max),
            ("angular_min", j.angular_min),
            ("angular_max", j.angular_max),
            ("linear_spring", j.linear_spring),
            ("angular_spring", j.angular_spring),
        ];
        for (field, value) in fields {
            assert!(same(&d[field], value), "{at} {} {field}: {d}", j.name);
        }
    }
    let problems: Vec<String> = model.physics_problems().iter().map(|p| p.to_string()).collect();
    assert_eq!(doc["physics_problems"], serde_json::json!(problems), "{at}");
}

/// Where a PMD's rigid body `i` starts: the file ends with the bodies and joints.
fn pmd_body_at(data: &[u8], model: &Model, i: usize) -> usize {
    let joints = 4 + 124 * model.joints.len();
    data.len() - joints - 83 * (model.rigid_bodies.len() - i)
}

#[test]
fn info_of_a_model_with_bad_physics_warns_in_text_and_lists_problems_in_json() {
    let Some(manifest) = corpus_or_skip("info physics problems") else {
        return;
    };
    let mut data = std::fs::read(manifest.dir.join(MEI)).unwrap();
    let model = Model::parse(&data).unwrap();
    assert!(model.physics_problems().is_empty());
    // A simulated body gets a negative mass, a body a NaN size: fields 62 and 26 of a record.
    let dynamic = model.rigid_bodies.iter().position(|b| b.mode.is_simulated()).unwrap();
    let at = pmd_body_at(&data, &model, dynamic);
    // The record is where it was looked for: its stored mass is the body's.
    let mass = f32::from_le_bytes(data[at + 62..at + 66].try_into().unwrap());
    assert_eq!(mass.to_bits(), model.rigid_bodies[dynamic].mass.to_bits());
    data[at + 62..at + 66].copy_from_slice(&(-2.5f32).to_le_bytes());
    let at0 = pmd_body_at(&data, &model, 0);
    data[at0 + 26..at0 + 30].copy_from_slice(&f32::NAN.to_le_bytes());
    let damaged = Model::parse(&data).unwrap();
    assert_eq!(damaged.rigid_bodies[dynamic].mass, -2.5);
    assert!(damaged.rigid_bodies[0].size.x.is_nan());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad_physics.pmd");
    std::fs::write(&path, &data).unwrap();
    let expected: Vec<String> = damaged.physics_problems().iter().map(|p| p.to_string()).collect();
    assert_eq!(expected.len(), 2, "{expected:?}");
    assert!(expected.iter().any(|p| p.contains("mass -2.5 of a simulated body")), "{expected:?}");

    let text = String::from_utf8(run_ok(&["info".as_ref(), path.as_os_str()])).unwrap();
    assert!(text.contains("  warnings (2):\n"), "{text}");
    for problem in &expected {
        assert!(text.contains(&format!("    {problem}\n")), "{text}");
    }
    let json = run_ok(&["info".as_ref(), "--json".as_ref(), path.as_os_str()]);
    let doc = &json_lines(&json)[0];
    check_physics("bad_physics.pmd", doc, &damaged);
    assert!(doc["rigid_bodies"][0]["size"][0].is_null(), "{}", doc["rigid_bodies"][0]);
    // A sound model's text has no warnings section.
    let sound =
        String::from_utf8(run_ok(&["info".as_ref(), manifest.dir.join(MEI).as_os_str()])).unwrap();
    assert!(!sound.contains("warnings"), "{sound}");
}

#[test]
fn info_text_of_models_lists_bones_ik_chains_and_morphs() {
    let Some(manifest) = corpus_or_skip("info model text") else {
        return;
    };
    let miku = manifest.dir.join(MIKU);
    let text = String::from_utf8(run_ok(&["info".as_ref(), miku.as_os_str()])).unwrap();
    let model = Model::read_file(&miku).unwrap();
    assert!(text.contains("  format    PMX 2.0 (utf-16le)"), "{text}");
    assert!(text.contains("  model     \"初音ミク\" / \"Miku Hatsune\""), "{text}");
    let ik = model.bones.iter().filter(|b| b.ik.is_some()).count();
    assert!(text.contains(&format!("{} bones ({ik} IK)", model.bones.len())), "{text}");
    // Bone 0 is the root, and the leg IK names its target and the knee's limits.
    assert!(text.contains("   0  parent    -  RTVC------  layer 0  センター (center)"), "{text}");
    let leg = model.bone_index("左足ＩＫ").unwrap();
    let ankle = model.bones[leg].ik.as_ref().unwrap().target;
    assert!(text.contains(&format!("IK target {ankle} 左足首")), "{text}");
    assert!(text.contains(" 左ひざ  limits x -180.0..-0.5"), "{text}");
    assert!(text.contains("append rotation of 71 両目 × 1"), "{text}");
    assert!(text.contains(&format!("  morphs    {}", model.counts.morphs)), "{text}");

    let mei = manifest.dir.join(MEI);
    let text = String::from_utf8(run_ok(&["info".as_ref(), mei.as_os_str()])).unwrap();
    assert!(text.contains("  format    PMD 1.0 (shift_jis)"), "{text}");
    // The base skin first, then the other skins with their panels.
    assert!(text.contains("       0  system   vertex"), "{text}");
}

#[test]
fn a_folder_is_searched_for_motions_only_and_models_are_read_when_named() {
    let Some(manifest) = corpus_or_skip("info folder") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let link = |name: &str, to: &Path| {
        #[cfg(unix)]
        std::os::unix::fs::symlink(to, dir.path().join(name)).unwrap();
        #[cfg(not(unix))]
        std::fs::copy(to, dir.path().join(name)).unwrap();
    };
    link("miku.pmx", &manifest.dir.join(MIKU));
    link("pose.vpd", &manifest.dir.join(POSE));
    link("wave.vmd", &manifest.dir.join(WAVE));
    let docs = json_lines(&run_ok(&["info".as_ref(), "--json".as_ref(), dir.path().as_os_str()]));
    assert_eq!(docs.len(), 1);
    assert!(docs[0]["path"].as_str().unwrap().ends_with("wave.vmd"));
    // Named, with an extension that does not say what they are: the bytes do.
    let renamed = tempfile::tempdir().unwrap();
    let model = renamed.path().join("model.bin");
    let pose = renamed.path().join("pose.txt");
    std::fs::copy(manifest.dir.join(MIKU), &model).unwrap();
    std::fs::copy(manifest.dir.join(POSE), &pose).unwrap();
    let docs = json_lines(&run_ok(&[
        "info".as_ref(),
        "--json".as_ref(),
        model.as_os_str(),
        pose.as_os_str(),
        manifest.dir.join(WAVE).as_os_str(),
    ]));
    let kinds: Vec<&Value> = docs.iter().map(|d| &d["kind"]).collect();
    assert_eq!(kinds, [&Value::from("model"), &Value::from("pose"), &Value::Null]);
}

#[test]
fn info_and_dump_of_corpus_poses() {
    let Some(manifest) = corpus_or_skip("info vpd") else {
        return;
    };
    let poses: Vec<_> = manifest.of_kind("vpd").collect();
    assert_eq!(poses.len(), 2);
    for entry in poses {
        let pose = VpdPose::read_file(&entry.path).unwrap();
        let doc =
            &json_lines(&run_ok(&["info".as_ref(), "--json".as_ref(), entry.path.as_os_str()]))[0];
        assert_eq!(doc["kind"], "pose");
        assert_eq!(doc["model_file"], entry.get("model_name"), "{}", entry.local_path);
        assert_eq!(doc["counts"]["bones"].as_u64(), entry.count("bone"), "{}", entry.local_path);
        assert_eq!(doc["counts"]["morphs"], pose.morphs.len());
        let text = String::from_utf8(run_ok(&["info".as_ref(), entry.path.as_os_str()])).unwrap();
        assert!(text.contains(&format!("  bones     {}", pose.bones.len())), "{text}");

        // dump lists the pose as keys at frame 0.
        let dump = run_ok(&["dump".as_ref(), "--json".as_ref(), entry.path.as_os_str()]);
        let dump: Value = serde_json::from_slice(&dump).unwrap();
        let sections = &dump["sections"];
        let bones = sections["bone"].as_array().map_or(0, Vec::len);
        let morphs = sections["morph"].as_array().map_or(0, Vec::len);
        assert_eq!((bones, morphs), (pose.bones.len(), pose.morphs.len()));
        if let Some(first) = sections["bone"].get(0) {
            assert_eq!(first["frame"], 0);
            assert_eq!(first["name"], pose.bones[0].name.as_str());
        }
        let text = String::from_utf8(run_ok(&["dump".as_ref(), entry.path.as_os_str()])).unwrap();
        assert!(text.contains(&format!("model {:?}", pose.model_name())), "{text}");
    }
}

/// Asserts two poses hold the same names and, to the six decimals a VPD stores, values.
fn assert_same_pose(a: &VpdPose, b: &VpdPose, what: &str) {
    assert_eq!(a.model_file, b.model_file, "{what}");
    assert_eq!(a.bones.len(), b.bones.len(), "{what}");
    for (x, y) in a.bones.iter().zip(&b.bones) {
        assert_eq!(x.name, y.name, "{what}");
        assert!(x.translation.abs_diff_eq(y.translation, 1e-5), "{what}: {x:?} {y:?}");
        let (p, q) = (glam::Vec4::from(x.rotation), glam::Vec4::from(y.rotation));
        assert!(p.abs_diff_eq(q, 1e-5), "{what}: {x:?} {y:?}");
    }
    assert_eq!(a.morphs.len(), b.morphs.len(), "{what}");
    for (x, y) in a.morphs.iter().zip(&b.morphs) {
        assert_eq!(x.0, y.0, "{what}");
        assert!((x.1 - y.1).abs() < 1e-5, "{what}: {x:?} {y:?}");
    }
}

#[test]
fn poses_convert_to_motions_and_back_and_round_trip_as_vpd() {
    let Some(manifest) = corpus_or_skip("convert vpd") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for entry in manifest.of_kind("vpd") {
        let pose = VpdPose::read_file(&entry.path).unwrap();
        // VPD -> VPD rewrites the pose as read.
        let copy = dir.path().join("copy.vpd");
        run_ok(&["convert".as_ref(), entry.path.as_os_str(), copy.as_os_str()]);
        let bytes = std::fs::read(&copy).unwrap();
        assert_eq!(VpdPose::parse(&bytes).unwrap(), VpdPose::parse(&pose.to_bytes()).unwrap());
        assert_same_pose(&VpdPose::parse(&bytes).unwrap(), &pose, &entry.local_path);
        // Shift-JIS, as MMD writes: the names are not UTF-8.
        if pose.bones.iter().any(|b| !b.name.is_ascii()) {
            assert!(std::str::from_utf8(&bytes).is_err(), "{}", entry.local_path);
        }

        // VPD -> VMD at frame 0 and at --frame, then VMD -> VPD at that frame gives it back.
        for (frame, flag) in [(0u32, None), (30, Some("30"))] {
            let vmd = dir.path().join("pose.vmd");
            let mut args: Vec<&std::ffi::OsStr> =
                vec!["convert".as_ref(), entry.path.as_os_str(), vmd.as_os_str()];
            if let Some(f) = flag {
                args.extend::<[&std::ffi::OsStr; 2]>(["--frame".as_ref(), f.as_ref()]);
            }
            run_ok(&args);
            let motion = Motion::read_file(&vmd).unwrap();
            assert_eq!(motion.bones.len(), pose.bones.len());
            assert_eq!(motion.morphs.len(), pose.morphs.len());
            assert!(motion.bones.iter().all(|k| k.frame == frame));
            assert!(motion.morphs.iter().all(|k| k.frame == frame));
            assert_eq!(motion.header.model_name.to_string_lossy(), pose.model_name());
            let back = dir.path().join("back.vpd");
            let f = frame.to_string();
            run_ok(&[
                "convert".as_ref(),
                vmd.as_os_str(),
                back.as_os_str(),
                "--frame".as_ref(),
                f.as_ref(),
            ]);
            assert_same_pose(&VpdPose::read_file(&back).unwrap(), &pose, &entry.local_path);
        }
        // JSON too.
        let json = dir.path().join("pose.json");
        run_ok(&["convert".as_ref(), entry.path.as_os_str(), json.as_os_str()]);
        let doc: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
        assert_eq!(doc["bones"].as_array().map_or(0, Vec::len), pose.bones.len());
    }
}

#[test]
fn a_motion_at_a_frame_is_written_as_the_pose_mmd_plays() {
    let Some(manifest) = corpus_or_skip("convert motion to vpd") else {
        return;
    };
    let wave = manifest.dir.join(WAVE);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("wave.vpd");
    run_ok(&[
        "convert".as_ref(),
        wave.as_os_str(),
        out.as_os_str(),
        "--frame".as_ref(),
        "100.5".as_ref(),
    ]);
    let written = VpdPose::read_file(&out).unwrap();
    let motion = Motion::read_file(&wave).unwrap();
    let expected = VpdPose::from_motion(&motion, 100.5);
    assert_eq!(written.model_file, "初音ミク.osm");
    assert_same_pose(&written, &expected, "wave at 100.5");
    // Each bone is its track sampled at that time.
    let sampler = vmdkit::eval::MotionSampler::new(&motion);
    let centre = sampler.bone_track_named("センター", vmdkit::TextEncoding::ShiftJis).unwrap();
    let bone = written.bones.iter().find(|b| b.name == "センター").unwrap();
    assert!(bone.translation.abs_diff_eq(centre.sample(100.5).translation, 1e-5));
    assert_eq!(written.bones.len(), sampler.bone_count());
    assert_eq!(written.morphs.len(), sampler.morph_count());
}

#[test]
fn pose_of_a_vpd_is_the_pose_of_its_one_frame_motion_and_lists_parents() {
    let Some(manifest) = corpus_or_skip("pose vpd") else {
        return;
    };
    let (miku, pose_file) = (manifest.dir.join(MIKU), manifest.dir.join(POSE));
    let dir = tempfile::tempdir().unwrap();
    let vmd = dir.path().join("pose.vmd");
    run_ok(&["convert".as_ref(), pose_file.as_os_str(), vmd.as_os_str()]);
    let m = "--model".as_ref();
    let from_vpd: Value = serde_json::from_slice(&run_ok(&[
        "pose".as_ref(),
        m,
        miku.as_os_str(),
        pose_file.as_os_str(),
        "--json".as_ref(),
    ]))
    .unwrap();
    let from_vmd: Value = serde_json::from_slice(&run_ok(&[
        "pose".as_ref(),
        m,
        miku.as_os_str(),
        vmd.as_os_str(),
        "--frame".as_ref(),
        "0".as_ref(),
        "--json".as_ref(),
    ]))
    .unwrap();
    assert_eq!(from_vpd, from_vmd);
    let model = Model::read_file(&miku).unwrap();
    let bones = from_vpd["bones"].as_array().unwrap();
    assert_eq!(bones.len(), model.bones.len());
    for (b, bone) in bones.iter().zip(&model.bones) {
        assert_eq!(b["name"], bone.name.as_str());
        assert_eq!(b["parent"].as_u64(), bone.parent.map(|p| p as u64), "{}", bone.name);
    }
    // The table has the parents too.
    let table =
        String::from_utf8(run_ok(&["pose".as_ref(), m, miku.as_os_str(), pose_file.as_os_str()]))
            .unwrap();
    let upper = model.bone_index("上半身").unwrap();
    let row = table.lines().find(|l| l.ends_with("  上半身")).unwrap();
    assert!(
        row.starts_with(&format!("{upper:>4} {:>6} ", model.bones[upper].parent.unwrap())),
        "{row}"
    );
    // The pose moved the model: the VPD rotates センター.
    let centre = &bones[model.bone_index("センター").unwrap()]["rotation"];
    assert_ne!(centre[3].as_f64().unwrap(), 1.0);
}

#[test]
fn options_that_do_not_apply_to_poses_are_usage_errors() {
    let Some(manifest) = corpus_or_skip("vpd usage") else {
        return;
    };
    let (miku, pose, wave) =
        (manifest.dir.join(MIKU), manifest.dir.join(POSE), manifest.dir.join(WAVE));
    let dir = tempfile::tempdir().unwrap();
    let vpd = dir.path().join("out.vpd");
    let json = dir.path().join("out.json");
    let cases: [(Vec<&std::ffi::OsStr>, &str); 7] = [
        (
            vec!["convert".as_ref(), pose.as_os_str(), json.as_os_str(), "--lenient".as_ref()],
            "it does nothing with a .vpd input",
        ),
        (
            vec![
                "convert".as_ref(),
                wave.as_os_str(),
                vpd.as_os_str(),
                "--frame".as_ref(),
                "3".as_ref(),
                "--pretty".as_ref(),
            ],
            "do nothing with a .vpd output",
        ),
        (
            vec![
                "pose".as_ref(),
                "--model".as_ref(),
                miku.as_os_str(),
                pose.as_os_str(),
                "--frame".as_ref(),
                "3".as_ref(),
            ],
            "--frame does nothing with a VPD pose",
        ),
        (
            vec!["pose".as_ref(), "--model".as_ref(), miku.as_os_str(), wave.as_os_str()],
            "--frame F is required",
        ),
        (vec!["convert".as_ref(), wave.as_os_str(), vpd.as_os_str()], "a .vpd OUT needs --frame F"),
        (
            vec![
                "convert".as_ref(),
                wave.as_os_str(),
                json.as_os_str(),
                "--frame".as_ref(),
                "3".as_ref(),
            ],
            "--frame 3 applies only to a .vpd IN or OUT",
        ),
        (
            vec![
                "convert".as_ref(),
                pose.as_os_str(),
                json.as_os_str(),
                "--frame".as_ref(),
                "1.5".as_ref(),
            ],
            "a whole number from 0",
        ),
    ];
    for (args, expected) in cases {
        let output = vmdkit().args(&args).output().unwrap();
        assert_no_panic(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
    assert!(!vpd.exists() && !json.exists());
    // A model where a motion is expected says so.
    let output = vmdkit().arg("dump").arg(&miku).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr)
        .contains("this is a PMX model; motions are VMD, JSON or CSV"));
}

#[test]
fn check_reads_models_and_poses_and_names_the_damage() {
    let Some(manifest) = corpus_or_skip("check models") else {
        return;
    };
    let mut paths = models(&manifest);
    paths.extend(manifest.of_kind("vpd").map(|e| e.path.clone()));
    let output = vmdkit().arg("check").args(&paths).output().unwrap();
    assert_no_panic(&output);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let mut failed = 0;
    for path in &paths {
        let at = path.display().to_string();
        let readable = match path.extension().and_then(|e| e.to_str()) {
            Some("vpd") => VpdPose::read_file(path).is_ok(),
            _ => Model::read_file(path).is_ok(),
        };
        if readable {
            assert!(stdout.contains(&format!("ok    {at}\n")), "{at}: {stdout}");
        } else {
            failed += 1;
            assert!(stdout.contains(&format!("FAIL  cannot read the model: {at}: ")), "{stdout}");
        }
    }
    assert_eq!(output.status.code(), Some(if failed > 0 { 1 } else { 0 }), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "{} files checked: {} ok, {failed} damaged",
            paths.len(),
            paths.len() - failed
        )),
        "{stdout}"
    );
    // A model cut short names the section and offset.
    let dir = tempfile::tempdir().unwrap();
    let cut = dir.path().join("cut.pmx");
    let bytes = std::fs::read(manifest.dir.join(MIKU)).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let output = vmdkit().arg("check").arg(&cut).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("FAIL  cannot read the model: ") && stdout.contains("byte offset"),
        "{stdout}"
    );
}

#[test]
fn models_and_poses_come_through_stdin_told_by_their_bytes() {
    let Some(manifest) = corpus_or_skip("models on stdin") else {
        return;
    };
    let miku = std::fs::read(manifest.dir.join(MIKU)).unwrap();
    let pose = std::fs::read(manifest.dir.join(POSE)).unwrap();
    let stdin = |args: &[&str], data: &[u8]| {
        let output = vmdkit().args(args).write_stdin(data.to_vec()).output().unwrap();
        assert_no_panic(&output);
        let said = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(output.status.success(), "{args:?}: {said}");
        output.stdout
    };
    // info - of a model gives what info of the file gives, but for the label.
    let piped = json_lines(&stdin(&["info", "--json", "-"], &miku));
    let from_file = json_lines(&run_ok(&[
        "info".as_ref(),
        "--json".as_ref(),
        manifest.dir.join(MIKU).as_os_str(),
    ]));
    let without_path = |mut doc: Value| {
        doc.as_object_mut().unwrap().remove("path");
        doc
    };
    assert_eq!(without_path(piped[0].clone()), without_path(from_file[0].clone()));
    // A pose: info, dump and check read it; its size is stdin's.
    let info = String::from_utf8(stdin(&["info", "-"], &pose)).unwrap();
    assert!(info.contains(&format!("VPD pose ({} bytes)", pose.len())), "{info}");
    let dumped = String::from_utf8(stdin(&["dump", "-"], &pose)).unwrap();
    let dumped_file =
        String::from_utf8(run_ok(&["dump".as_ref(), manifest.dir.join(POSE).as_os_str()])).unwrap();
    let body = |s: &str| s.lines().skip(1).map(str::to_owned).collect::<Vec<_>>();
    assert_eq!(body(&dumped), body(&dumped_file));
    let checked = String::from_utf8(stdin(&["check", "-"], &miku)).unwrap();
    assert!(checked.starts_with("ok"), "{checked}");
    // The model of `pose --model -` comes through stdin too.
    let pose_path = manifest.dir.join(POSE);
    let pose_path = pose_path.to_str().unwrap();
    let posed = stdin(&["pose", "--json", "--model", "-", pose_path], &miku);
    let posed_file = run_ok(&[
        "pose".as_ref(),
        "--json".as_ref(),
        "--model".as_ref(),
        manifest.dir.join(MIKU).as_os_str(),
        pose_path.as_ref(),
    ]);
    assert_eq!(posed, posed_file);
}

#[test]
fn render_view_and_sample_take_a_pose() {
    let Some(manifest) = corpus_or_skip("render a pose") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let pose = manifest.dir.join(POSE);
    let miku = manifest.dir.join(MIKU);
    let png = dir.path().join("pose.png");
    let html = dir.path().join("pose.html");
    // No --frame: a pose is drawn at frame 0.
    run_ok(&[
        "render".as_ref(),
        pose.as_os_str(),
        "--model".as_ref(),
        miku.as_os_str(),
        "-o".as_ref(),
        png.as_os_str(),
    ]);
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    run_ok(&[
        "view".as_ref(),
        pose.as_os_str(),
        "--model".as_ref(),
        miku.as_os_str(),
        "-o".as_ref(),
        html.as_os_str(),
    ]);
    assert!(std::fs::metadata(&html).unwrap().len() > 0);
    // sample gives the pose's own rotation for a bone it holds.
    let vpd = VpdPose::read_file(&pose).unwrap();
    let bone = &vpd.bones[0];
    let said = run_ok(&[
        "sample".as_ref(),
        pose.as_os_str(),
        "--frame".as_ref(),
        "0".as_ref(),
        "--bone".as_ref(),
        bone.name.as_ref(),
        "--json".as_ref(),
    ]);
    let doc: Value = serde_json::from_slice(&said).unwrap();
    let rotation: Vec<f32> =
        doc["rotation"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap() as f32).collect();
    let expected = bone.rotation.normalize().to_array();
    let same = |a: &[f32], b: &[f32]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5);
    let negated: Vec<f32> = expected.iter().map(|v| -v).collect();
    assert!(same(&rotation, &expected) || same(&rotation, &negated), "{doc} vs {expected:?}");
}
