//! `vmdkit retarget` and `vmdkit keypoints`: round trips through every writable keypoint
//! format, real keypoint files from ../shared/pose onto a real model, a motion onto another
//! model, and the errors.

use crate::common;

use common::{assert_no_panic, example_dir, vmdkit};
use serde_json::Value;
use std::path::{Path, PathBuf};
use test_corpus::{corpus_or_skip, pose_file_or_skip};
use vmdkit::Motion;

const TRACE_MODEL: &str = "miu200521358__mmd-auto-trace-3/data__pmx__trace_check_base_model.pmx";
const MIKU_MODEL: &str = "MMD-Blender__blender_mmd_tools/samples__pmx__初音ミク.pmx";

/// Runs the binary, asserting success; gives stdout and stderr.
fn run_ok(args: &[&std::ffi::OsStr]) -> (String, String) {
    let output = vmdkit().args(args).output().unwrap();
    assert_no_panic(&output);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{args:?}: {stderr}");
    (String::from_utf8(output.stdout).unwrap(), stderr)
}

/// Runs the binary, asserting it fails with `status`; gives stderr.
fn run_err(args: &[&std::ffi::OsStr], status: i32) -> String {
    let output = vmdkit().args(args).output().unwrap();
    assert_no_panic(&output);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(status), "{args:?}: {stderr}");
    stderr
}

macro_rules! args {
    ($($a:expr),* $(,)?) => { &[$(std::ffi::OsStr::new(&$a)),*] };
}

fn report(stdout: &str) -> Value {
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "one JSON object: {stdout}");
    serde_json::from_str(lines[0]).unwrap()
}

fn keyed_bones(path: &Path) -> Vec<String> {
    let motion = Motion::read_file(path).unwrap();
    let mut names: Vec<String> = motion.bones.iter().map(|k| k.name.to_string_lossy()).collect();
    names.sort();
    names.dedup();
    names
}

/// A corpus file by its local path, or `None` when the corpus is missing outside CI.
fn corpus_file(test: &str, local: &str) -> Option<PathBuf> {
    let manifest = corpus_or_skip(test)?;
    let path = manifest.dir.join(local);
    assert!(path.is_file(), "{test}: {} is missing from the corpus", path.display());
    Some(path)
}

#[test]
fn keypoints_round_trip_through_npy_csv_and_json() {
    let (dir, example) = example_dir();
    for ext in ["npy", "csv", "json"] {
        let kp = dir.path().join(format!("joints.{ext}"));
        let (_, stderr) = run_ok(args!["keypoints", example, "--layout", "h36m", "-o", kp]);
        assert!(stderr.contains("17 joints"), "{stderr}");
        let out = dir.path().join(format!("back_{ext}.vmd"));
        let (stdout, _) = run_ok(args![
            "retarget", kp, "-o", out, "--layout", "h36m", "--dense", "--smooth", "none", "--json"
        ]);
        let r = report(&stdout);
        let residual = r["mean_residual"].as_f64().unwrap();
        assert!(residual < 0.01, "{ext}: mean residual {residual}");
        assert_eq!(r["keys"], r["dense_keys"], "{ext}: dense");
        assert!(keyed_bones(&out).contains(&"右腕".to_string()), "{ext}");

        // Thinned, the summary says the fit is still within a few millimetres.
        let (_, summary) =
            run_ok(args!["retarget", kp, "-o", out, "--layout", "h36m", "--smooth", "none"]);
        assert!(summary.contains("onto the built-in standard model"), "{summary}");
        assert!(summary.contains("self-consistency: mean residual 0.0"), "{summary}");
        assert!(summary.contains("thinning: keys within 0.05 units"), "{summary}");
    }
}

#[test]
fn lifting_csv_onto_the_trace_model() {
    let Some(csv) =
        pose_file_or_skip("cli retarget lftd17", "wayne931121__VMD-Lifting__posfile.csv")
    else {
        return;
    };
    let Some(model) = corpus_file("cli retarget lftd17", TRACE_MODEL) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("lifting.vmd");
    let (stdout, _) =
        run_ok(args!["retarget", csv, "--layout", "lftd17", "--json", "--model", model, "-o", out]);
    let r = report(&stdout);
    let frames = r["frames"].as_u64().unwrap();
    assert!(frames.abs_diff(1561) <= 1, "{frames} frames");
    assert!(r["mean_direction_degrees"].as_f64().unwrap().is_finite());
    assert_eq!(r["layout"], "lftd17");
    let bones = keyed_bones(&out);
    for bone in ["センター", "上半身", "左ひざ", "右ひじ", "左足ＩＫ"] {
        assert!(bones.contains(&bone.to_string()), "{bone} not keyed: {bones:?}");
    }
    // The file is in MMD's own (left-handed) convention: read as right-handed it is noticed
    // as mirrored and mirrored back, and --left-handed gives the same motion without a word.
    assert_eq!(r["handedness"]["corrected"], true, "{}", r["handedness"]);
    let (_, summary) =
        run_ok(args!["retarget", csv, "--layout", "lftd17", "--model", model, "-o", out]);
    assert!(summary.contains("looked mirrored"), "{summary}");
    // Issue 27: the hint "(or drop it)" left a new user guessing; it now names what to do.
    assert!(summary.contains("run again with --left-handed"), "{summary}");
    let mirrored_back = std::fs::read(&out).unwrap();
    let (_, summary) = run_ok(args![
        "retarget",
        csv,
        "--layout",
        "lftd17",
        "--left-handed",
        "--model",
        model,
        "-o",
        out
    ]);
    assert!(!summary.contains("mirrored"), "{summary}");
    assert_eq!(std::fs::read(&out).unwrap(), mirrored_back);
    let (_, summary) = run_ok(args![
        "retarget",
        csv,
        "--layout",
        "lftd17",
        "--keep-handedness",
        "--model",
        model,
        "-o",
        out
    ]);
    assert!(!summary.contains("mirrored"), "{summary}");
    assert_ne!(std::fs::read(&out).unwrap(), mirrored_back);
}

#[test]
fn pose_file_detects_blazepose() {
    let Some(pose) =
        pose_file_or_skip("cli retarget .pose", "sign-language-processing__pose__example.pose")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sign.vmd");
    let (_, summary) = run_ok(args!["retarget", pose, "-o", out]);
    assert!(summary.contains("layout blazepose33 (detected)"), "{summary}");
    assert!(summary.contains("at 25 fps (from the file)"), "{summary}");
    Motion::read_file(&out).unwrap();
}

#[test]
fn motion_onto_another_model() {
    let (dir, example) = example_dir();
    let out = dir.path().join("other.vmd");
    let Some(model) = corpus_file("cli retarget vmd", TRACE_MODEL) else {
        return;
    };
    let (stdout, _) =
        run_ok(args!["retarget", example, "--source-model", model, "-o", out, "--json"]);
    let r = report(&stdout);
    assert_eq!(r["frames"], 61);
    assert!(r["mean_direction_degrees"].as_f64().unwrap() < 5.0, "{r}");
    assert!(keyed_bones(&out).contains(&"右腕".to_string()));

    // And back onto the source model itself.
    let (_, summary) =
        run_ok(args!["retarget", example, "--source-model", model, "--model", model, "-o", out]);
    assert!(summary.contains("played on"), "{summary}");
}

#[test]
fn a_vmd_without_a_source_model_is_refused() {
    let (dir, example) = example_dir();
    let out = dir.path().join("x.vmd");
    let stderr = run_err(args!["retarget", example, "-o", out], 2);
    assert!(stderr.contains("--source-model"), "{stderr}");
    assert!(!out.exists());
}

#[test]
fn unknown_layout_lists_the_choices() {
    let (dir, example) = example_dir();
    let kp = dir.path().join("joints.npy");
    run_ok(args!["keypoints", example, "--layout", "coco17", "-o", kp]);
    let out = dir.path().join("x.vmd");
    let stderr = run_err(args!["retarget", kp, "--layout", "nosuch", "-o", out], 2);
    for name in ["h36m", "lftd17", "coco17", "blazepose33", "body25", "smpl24"] {
        assert!(stderr.contains(name), "{name}: {stderr}");
    }
    let stderr = run_err(args!["keypoints", example, "--layout", "nosuch", "-o", kp], 2);
    assert!(stderr.contains("blazepose33"), "{stderr}");
}

#[test]
fn five_joints_fit_no_layout() {
    let dir = tempfile::tempdir().unwrap();
    let mut csv = String::new();
    let names = ["a", "b", "c", "d", "e"];
    let header: Vec<String> =
        names.iter().flat_map(|n| ["x", "y", "z"].map(|c| format!("{n}_{c}"))).collect();
    csv.push_str(&header.join(","));
    csv.push('\n');
    for f in 0..3 {
        let row: Vec<String> = (0..15).map(|i| format!("{}", (i + f) as f32 * 0.1)).collect();
        csv.push_str(&row.join(","));
        csv.push('\n');
    }
    let input = common::write(dir.path(), "five.csv", csv.as_bytes());
    let out = dir.path().join("x.vmd");
    let stderr = run_err(args!["retarget", input, "-o", out], 1);
    assert!(stderr.contains("5 joints fit no built-in layout"), "{stderr}");
    // Named, the layout's own count is what the error gives.
    let stderr = run_err(args!["retarget", input, "--layout", "h36m", "-o", out], 2);
    assert!(stderr.contains("has 17 joints but the keypoints have 5"), "{stderr}");
}

#[test]
fn a_model_without_a_body_names_the_bones() {
    let (dir, example) = example_dir();
    let kp = dir.path().join("joints.npy");
    run_ok(args!["keypoints", example, "--layout", "h36m", "-o", kp]);
    let Some(drone) = corpus_file(
        "cli retarget missing bones",
        "hashi4__vmdgadgets/sample__projectile__model__drone.pmx",
    ) else {
        return;
    };
    let out = dir.path().join("x.vmd");
    let stderr = run_err(args!["retarget", kp, "--layout", "h36m", "--model", drone, "-o", out], 1);
    assert!(stderr.contains("has no bone named") && stderr.contains("上半身"), "{stderr}");
    let stderr =
        run_err(args!["keypoints", example, "--layout", "h36m", "--model", drone, "-o", kp], 1);
    assert!(stderr.contains("上半身"), "{stderr}");
}

#[test]
fn keypoints_output_format_comes_from_the_extension() {
    let (dir, example) = example_dir();
    let out = dir.path().join("joints.trc");
    let stderr = run_err(args!["keypoints", example, "--layout", "h36m", "-o", out], 2);
    assert!(stderr.contains(".npy, .csv or .json"), "{stderr}");
    assert!(!out.exists());
}

#[test]
fn units_and_axes_round_trip() {
    let (dir, example) = example_dir();
    let kp = dir.path().join("joints.json");
    run_ok(args![
        "keypoints",
        example,
        "--layout",
        "smpl24",
        "--units",
        "mm",
        "--up",
        "-z",
        "--fps",
        "60",
        "-o",
        kp
    ]);
    let out = dir.path().join("back.vmd");
    let (stdout, _) =
        run_ok(args!["retarget", kp, "--dense", "--smooth", "none", "--json", "-o", out]);
    let r = report(&stdout);
    // JSON keypoints carry their fps, units and axis: the file's are used.
    assert_eq!(r["frames"], 61);
    let per_metre = r["units_per_metre"].as_f64().unwrap();
    assert!((per_metre - 12.5).abs() < 1e-3, "{per_metre}");
    assert!(r["mean_residual"].as_f64().unwrap() < 0.01, "{r}");
}

/// Issue 27: the README's own example on posfile.csv printed the "looked mirrored" warning.
/// It now gives the flags that fit that file, and runs without a warning.
#[test]
fn the_readmes_posfile_example_runs_without_warnings() {
    let Some(csv) = pose_file_or_skip("readme retarget", "wayne931121__VMD-Lifting__posfile.csv")
    else {
        return;
    };
    let Some(model) = corpus_file("readme retarget", MIKU_MODEL) else { return };
    let readme = include_str!("../../../../README.md");
    let help = vmdkit().args(["retarget", "--help"]).output().unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    let examples: Vec<&str> = readme
        .split('`')
        .chain(help.lines())
        .filter(|t| t.trim_start().starts_with("vmdkit retarget posfile.csv"))
        .collect();
    assert_eq!(examples.len(), 2, "the README's and --help's: {examples:?}");
    let dir = tempfile::tempdir().unwrap();
    for example in examples {
        let args: Vec<std::ffi::OsString> = example
            .split_whitespace()
            .skip(1)
            .map(|word| match word {
                "posfile.csv" => csv.clone().into_os_string(),
                "miku.pmx" => model.clone().into_os_string(),
                other => other.into(),
            })
            .collect();
        let run = common::run_bounded(dir.path(), &args);
        let stderr = common::stderr(&run.output);
        assert!(run.output.status.success(), "{example}: {stderr}");
        assert!(!stderr.contains("warning"), "{example}: {stderr}");
    }
}

/// A `.npy` image: `descr` elements of `shape`, then `data`.
fn npy(descr: &str, shape: &str, data: &[u8]) -> Vec<u8> {
    let dict = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}\n");
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(dict.len() as u16).to_le_bytes());
    out.extend_from_slice(dict.as_bytes());
    out.extend_from_slice(data);
    out
}

/// One zip member: its name, its method (0 stored, 8 deflated), its bytes as stored, and the
/// CRC-32 and size of what they inflate to.
struct Member {
    name: &'static str,
    method: u16,
    stored: Vec<u8>,
    crc: u32,
    size: u32,
}

impl Member {
    fn stored(name: &'static str, data: Vec<u8>) -> Member {
        let mut crc = flate2::Crc::new();
        crc.update(&data);
        Member { name, method: 0, crc: crc.sum(), size: data.len() as u32, stored: data }
    }
}

/// A zip archive of `members`, as numpy.savez writes one (no Zip64: every size fits 32 bits).
fn zip(members: &[Member]) -> Vec<u8> {
    let (mut out, mut central) = (Vec::new(), Vec::new());
    for m in members {
        let offset = out.len() as u32;
        let fields = |out: &mut Vec<u8>| {
            out.extend_from_slice(&20u16.to_le_bytes()); // version needed
            out.extend_from_slice(&0u16.to_le_bytes()); // flags
            out.extend_from_slice(&m.method.to_le_bytes());
            out.extend_from_slice(&[0, 0, 0x21, 0]); // 1980-01-01 00:00
            out.extend_from_slice(&m.crc.to_le_bytes());
            out.extend_from_slice(&(m.stored.len() as u32).to_le_bytes());
            out.extend_from_slice(&m.size.to_le_bytes());
            out.extend_from_slice(&(m.name.len() as u16).to_le_bytes());
            out.extend_from_slice(&0u16.to_le_bytes()); // extra field
        };
        out.extend_from_slice(b"PK\x03\x04");
        fields(&mut out);
        out.extend_from_slice(m.name.as_bytes());
        out.extend_from_slice(&m.stored);
        central.extend_from_slice(b"PK\x01\x02");
        central.extend_from_slice(&20u16.to_le_bytes()); // version made by
        fields(&mut central);
        central.extend_from_slice(&[0; 10]); // comment, disk, attributes
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(m.name.as_bytes());
    }
    let (start, size) = (out.len() as u32, central.len() as u32);
    out.extend_from_slice(&central);
    out.extend_from_slice(b"PK\x05\x06\0\0\0\0");
    let count = members.len() as u16;
    out.extend_from_slice(&[count.to_le_bytes(), count.to_le_bytes()].concat());
    out.extend_from_slice(&[size.to_le_bytes(), start.to_le_bytes()].concat());
    out.extend_from_slice(&0u16.to_le_bytes());
    out
}

/// `data` as raw deflate blocks ending in a full flush: not final, so that copies of it can
/// follow one another in one stream.
fn deflate_block(data: &[u8]) -> Vec<u8> {
    let mut c = flate2::Compress::new(flate2::Compression::best(), false);
    let mut out = Vec::with_capacity(data.len() + 1024);
    c.compress_vec(data, &mut out, flate2::FlushCompress::Full).unwrap();
    assert_eq!(c.total_in(), data.len() as u64);
    out
}

/// Issue 24: files a few hundred kilobytes long that asked for gigabytes: 20,000 TRC markers
/// over 20,000 empty rows (6 GB), 18,000 JSON frames each naming another joint (4.8 GB), an
/// NPZ member inflating 1,000 times (1.46 MB to 1.5 GB, read whole). Each is refused within
/// bounds, naming the file.
#[test]
fn keypoint_files_asking_for_gigabytes_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut trc =
        String::from("PathFileType\t4\t(X/Y/Z)\tmany.trc\nNumMarkers\n20000\nFrame#\tTime");
    for m in 0..20_000 {
        trc.push_str(&format!("\tm{m}\t\t"));
    }
    trc.push_str("\n\tX1\n");
    for f in 0..20_000 {
        trc.push_str(&format!("{f}\t\n"));
    }
    common::write(d, "many.trc", trc.as_bytes());
    let frames: Vec<String> = (0..18_000).map(|f| format!("{{\"j{f}\": [0, 0, 0]}}")).collect();
    common::write(d, "many.json", format!("[{}]", frames.join(",")).as_bytes());

    // 131,072 frames of 1,000 joints of zeros: 1,000 copies of one block of 1.5 MiB deflated.
    let chunk = vec![0u8; 1_572_864];
    let head = npy("<f4", "(131072, 1000, 3)", &[]);
    let mut crc = flate2::Crc::new();
    crc.update(&head);
    let mut chunk_crc = flate2::Crc::new();
    chunk_crc.update(&chunk);
    let block = deflate_block(&chunk);
    let mut stored = deflate_block(&head);
    for _ in 0..1000 {
        stored.extend_from_slice(&block);
        crc.combine(&chunk_crc);
    }
    stored.extend_from_slice(&[0x03, 0x00]); // the final, empty block
    let size = (head.len() + 1000 * chunk.len()) as u32;
    let bomb = Member { name: "keypoints.npy", method: 8, stored, crc: crc.sum(), size };
    common::write(d, "bomb.npz", &zip(&[bomb]));

    for (file, says) in [
        ("many.trc", "points from"),
        ("many.json", "points from"),
        ("bomb.npz", "compressed member too large"),
    ] {
        let run = common::run_bounded(d, &["retarget", file, "-o", "x.vmd"]);
        let stderr = common::stderr(&run.output);
        assert_eq!(run.output.status.code(), Some(1), "{file}: {stderr}");
        assert!(stderr.contains(file) && stderr.contains(says), "{file}: {stderr}");
    }
}

/// Issue 24: finding a wide CSV's joints by scanning the names found so far made its header
/// quadratic (100,000 columns: 4.7 s; 300,000: 55 s).
#[test]
fn a_wide_csv_of_100000_columns_is_read_in_linear_time() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut header = vec!["frame".to_string()];
    for j in 0..33_333 {
        header.extend(["x", "y", "z"].map(|a| format!("j{j}_{a}")));
    }
    let row = vec!["0"; header.len()].join(",");
    common::write(d, "wide.csv", format!("{}\n{row}\n", header.join(",")).as_bytes());
    let run = common::run_bounded(d, &["retarget", "wide.csv", "-o", "x.vmd"]);
    let stderr = common::stderr(&run.output);
    assert_eq!(run.output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("33333 joints fit no built-in layout"), "{stderr}");
}

/// Issue 24: a frame rate a file declares beyond any capture (`fps` 1e30 in an NPZ) was
/// reported as bad usage (exit 2, no file named); it is the file's damage: exit 1, file and
/// field named.
#[test]
fn a_frame_rate_the_file_gives_beyond_10000_is_its_damage() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let npz = zip(&[
        Member::stored("keypoints.npy", npy("<f4", "(2, 17, 3)", &[0; 408])),
        Member::stored("fps.npy", npy("<f8", "()", &1e30f64.to_le_bytes())),
    ]);
    common::write(d, "fast.npz", &npz);
    let run = common::run_bounded(d, &["retarget", "fast.npz", "-o", "x.vmd", "--layout", "h36m"]);
    let stderr = common::stderr(&run.output);
    assert_eq!(run.output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("fast.npz") && stderr.contains("field `fps`"), "{stderr}");
}

#[test]
fn sizing_a_dance_keeps_fingers_eyes_hair_and_morphs() {
    const WAVEFILE: &str = "takahirox__mmd-viewer-js/vmd__wavefile_v2.vmd";
    const MEI: &str = "mmdagent__mmdagent-mirror/MMDAgent_Example__Model__mei__mei.pmd";
    let (Some(dance), Some(miku), Some(mei)) = (
        corpus_file("cli retarget sizing", WAVEFILE),
        corpus_file("cli retarget sizing", MIKU_MODEL),
        corpus_file("cli retarget sizing", MEI),
    ) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("mei.vmd");
    let (stdout, _) = run_ok(args![
        "retarget",
        dance,
        "--source-model",
        miku,
        "--model",
        mei,
        "-o",
        out,
        "--json"
    ]);
    let r = report(&stdout);
    let carried = &r["carried"];
    let tracks = carried["bone_tracks"].as_array().unwrap();
    assert_eq!(tracks.len(), 140, "{carried}");
    let fate = |name: &str| {
        tracks.iter().find(|t| t["name"] == name).map(|t| t["fate"].as_str().unwrap().to_string())
    };
    assert_eq!(fate("左腕").as_deref(), Some("solved"));
    for copied in ["左人指１", "両目", "左目", "左髪１", "前髪１"] {
        assert_eq!(fate(copied).as_deref(), Some("copied"), "{copied}");
    }
    assert_eq!(fate("ﾈｸﾀｲ１").as_deref(), Some("missing_on_target"));
    let kept = tracks.iter().filter(|t| t["fate"] != "missing_on_target").count();
    assert!(kept >= 84, "{kept}");
    let morphs = carried["morph_tracks"].as_array().unwrap();
    let kept: Vec<&str> = (morphs.iter())
        .filter(|m| !m["target"].is_null())
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert_eq!(kept.len(), 12, "{kept:?}");
    assert!(kept.contains(&"まばたき") && kept.contains(&"あ"), "{kept:?}");
    assert_eq!(carried["fingers"].as_array().unwrap().len(), 2);
    let bones = keyed_bones(&out);
    for name in ["左人指１", "右小指３", "両目", "左髪１", "左腕"] {
        assert!(bones.contains(&name.to_string()), "{name}");
    }
    let written = Motion::read_file(&out).unwrap();
    assert_eq!(written.morphs.iter().filter(|k| k.name.to_string_lossy() == "あ").count(), 428);

    // The summary counts solved, copied and dropped tracks, with why and the morphs' names.
    let (_, summary) =
        run_ok(args!["retarget", dance, "--source-model", miku, "--model", mei, "-o", out]);
    assert!(summary.contains("bone tracks: 84 of the source's 140 kept"), "{summary}");
    assert!(summary.contains("(bone missing on the target): ﾈｸﾀｲ１"), "{summary}");
    assert!(summary.contains("morph tracks: 12 of 31 kept"), "{summary}");
    assert!(summary.contains("no such morph on the target): 真面目"), "{summary}");
    assert!(summary.contains("left fingers: re-expressed"), "{summary}");
}
