//! Frame numbers far beyond the rest, made in code: `check` warns of them, dense outputs
//! (`bake`, `bake --model`, `keypoints`) refuse them quickly with the span and the size, and
//! `--max-output-size` moves the limit; shifts past the last frame are errors.

use crate::common;

use common::{assert_no_panic, listing, vmdkit};
use std::path::Path;
use std::time::{Duration, Instant};
use vmdkit::{BoneKey, Motion};

/// Refusing must not start the work: far below the seconds a real allocation of the span takes.
const QUICK: Duration = Duration::from_secs(5);

/// The built-in example (frames 0 to 60) with one more 右腕 key at `frame`, written to `name`.
fn with_key_at(dir: &Path, name: &str, frame: u32) {
    let mut motion = vmdkit::example::example_motion();
    motion.bones.push(BoneKey { frame, ..motion.bones[0] });
    motion.write_file(dir.join(name)).unwrap();
}

/// A bones-only model (PmxEditor's bone CSV) with the example's 右腕, for `bake --model`.
fn arm_model(dir: &Path) {
    let row =
        "Bone,右腕,,0,0,0,0,0,1,0,0,1,1,,1,,0,0,0,0,0,0,1,,0,0,0,0,0,1,0,0,0,0,1,0,0,,0,57.29578";
    std::fs::write(dir.join("model.csv"), format!(";Bone,x\r\n{row}\r\n")).unwrap();
}

/// Exit status, stdout and stderr of `vmdkit args` in `dir`, and how long it took.
fn run(dir: &Path, args: &[&str]) -> (Option<i32>, String, String, Duration) {
    let start = Instant::now();
    let output = vmdkit().current_dir(dir).args(args).output().unwrap();
    let took = start.elapsed();
    assert_no_panic(&output);
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (output.status.code(), text(&output.stdout), text(&output.stderr), took)
}

#[test]
fn bakes_and_keypoints_of_a_key_at_the_last_frame_fail_fast_naming_span_and_size() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    with_key_at(d, "far.vmd", u32::MAX);
    arm_model(d);
    let cases: [(&[&str], &str); 4] = [
        (
            &["bake", "far.vmd", "--fps", "30", "-o", "out.vmd"],
            "far.vmd: a bake of frames 0..4,294,967,295 at 30 fps would be 4,294,967,296 frames \
             long with 4,294,967,397 keys: 476,741,377,216 bytes (444 GiB) of VMD records, over \
             the limit of 4,294,967,296 bytes (4 GiB)",
        ),
        (
            &["bake", "far.vmd", "--fps", "0.5", "-o", "out.json", "--max-output-size", "5G"],
            "at 0.5 fps would be 71,582,790 frames long",
        ),
        (
            &["bake", "far.vmd", "--model", "model.csv", "--fps", "30", "-o", "out.npz"],
            "far.vmd: a world-space bake of frames 0..4,294,967,295 at 30 fps would be \
             4,294,967,296 samples × 1 bone: 154,618,822,656 bytes (144 GiB) of arrays",
        ),
        (
            &["keypoints", "far.vmd", "--layout", "h36m", "-o", "out.npy"],
            "far.vmd: keypoints of frames 0..4,294,967,295 at 30 fps would be 4,294,967,296 \
             frames × 17 joints",
        ),
    ];
    for (args, expected) in cases {
        let (code, _, stderr, took) = run(d, args);
        assert_eq!(code, Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(stderr.contains("(--max-output-size)"), "{args:?}: {stderr}");
        assert!(took < QUICK, "{args:?} took {took:?}");
    }
    assert_eq!(listing(d), ["far.vmd", "model.csv"], "an output was left");
}

#[test]
fn max_output_size_moves_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // 右腕 keyed from 0 to 200,000: 200,001 bone keys, 22 MB of records.
    with_key_at(d, "long.vmd", 200_000);
    let bake = |limit: &str| {
        let args = ["bake", "long.vmd", "--fps", "30", "-o", "out.vmd", "--max-output-size", limit];
        run(d, &args)
    };
    let (code, _, stderr, _) = bake("1M");
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("over the limit of 1,048,576 bytes (1 MiB)")
            && stderr.contains("frames 0..200,000 at 30 fps would be 200,001 frames long"),
        "{stderr}"
    );
    assert!(!d.join("out.vmd").exists());
    let (code, _, stderr, _) = bake("64M");
    assert_eq!(code, Some(0), "{stderr}");
    let baked = Motion::read_file(d.join("out.vmd")).unwrap();
    assert_eq!(baked.bones.iter().filter(|k| k.name == baked.bones[0].name).count(), 200_001);
    // The default, 4 GiB, allows it too.
    let (code, _, stderr, _) = run(d, &["bake", "long.vmd", "--fps", "30", "-o", "out.vmd"]);
    assert_eq!(code, Some(0), "{stderr}");

    for bad in ["8X", "1.2.3", "G", "99999999999999999999"] {
        let (code, _, stderr, _) = bake(bad);
        assert_eq!(code, Some(2), "{bad}: {stderr}");
        assert!(stderr.contains("is not a size"), "{bad}: {stderr}");
    }
}

#[test]
fn check_and_info_warn_of_far_frames() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    with_key_at(d, "far.vmd", u32::MAX);
    with_key_at(d, "long.vmd", 200_000);
    with_key_at(d, "fine.vmd", 100_000);
    let (code, stdout, _, _) = run(d, &["check", "far.vmd", "long.vmd", "fine.vmd"]);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(
        stdout.contains(
            "far_frames: 1 bone key is at frame 4,294,967,295, far beyond the rest of the motion, \
             which ends at frame 60"
        ) && stdout.contains("1 bone key is at frame 200,000")
            && stdout.contains("ok    fine.vmd\n"),
        "{stdout}"
    );
    let (code, _, _, _) = run(d, &["check", "--strict-warnings", "far.vmd"]);
    assert_eq!(code, Some(1));
    let (_, stdout, _, _) = run(d, &["info", "--json", "far.vmd"]);
    let info: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    let warning = &info["warnings"][0];
    assert_eq!(
        (&warning["kind"], &warning["section"], &warning["count"]),
        (&"far_frames".into(), &"bone".into(), &1.into())
    );
}

#[test]
fn shifts_past_the_last_frame_are_errors_naming_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    with_key_at(d, "far.vmd", u32::MAX);
    let (code, _, stderr, _) = run(d, &["shift", "far.vmd", "out.vmd", "--frames", "1"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains(
            "shifting by 1 frames would move the bone \"右腕\" key at frame 4294967295 to frame \
             4294967296, beyond the largest VMD frame number, 4294967295"
        ),
        "{stderr}"
    );
    let max = i64::MAX.to_string();
    let (code, _, stderr, _) = run(d, &["shift", "far.vmd", "out.vmd", "--frames", &max]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("at frame 0 to frame 9223372036854775807"), "{stderr}");
    let min = i64::MIN.to_string();
    let (code, _, stderr, _) = run(d, &["shift", "far.vmd", "out.vmd", "--frames", &min, "--clip"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("would drop every frame"), "{stderr}");
    assert_eq!(listing(d), ["far.vmd"]);
    // Back from the last frame is fine: the far key lands on frame 60 + 1.
    let back = (-(i64::from(u32::MAX) - 61)).to_string();
    let (code, _, stderr, _) =
        run(d, &["shift", "far.vmd", "out.vmd", "--frames", &back, "--clip"]);
    assert_eq!(code, Some(0), "{stderr}");
    let out = Motion::read_file(d.join("out.vmd")).unwrap();
    assert_eq!(out.frame_range(), Some((0, 61)));
}
