//! `vmdkit render` and `vmdkit plot`, run as a user would: the files decode to what was asked.

use crate::common;

use common::{assert_no_panic, example_dir, vmdkit};
use std::fs::File;
use std::path::Path;

/// (width, height, RGB pixels) of a PNG.
fn decode_png(path: &Path) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

#[test]
fn render_writes_a_png_of_the_requested_size() {
    let (dir, motion) = example_dir();
    let out = dir.path().join("pose.png");
    vmdkit()
        .arg("render")
        .arg(&motion)
        .args(["--frame", "15", "--size", "320x200", "-o"])
        .arg(&out)
        .assert()
        .success();
    let (w, h, pixels) = decode_png(&out);
    assert_eq!((w, h), (320, 200));
    assert!(pixels.chunks(3).any(|p| p != [250, 250, 247]), "something is drawn");
}

#[test]
fn different_frames_and_views_give_different_pngs() {
    let (dir, motion) = example_dir();
    let render = |name: &str, args: &[&str]| {
        let out = dir.path().join(name);
        vmdkit().arg("render").arg(&motion).args(args).arg("-o").arg(&out).assert().success();
        decode_png(&out).2
    };
    let a = render("a.png", &["--frame", "0"]);
    let b = render("b.png", &["--frame", "15"]);
    let side = render("side.png", &["--frame", "0", "--view", "side"]);
    let orbit = render("orbit.png", &["--frame", "0", "--view", "30"]);
    let camera = render("camera.png", &["--frame", "0", "--camera", motion.to_str().unwrap()]);
    assert_ne!(a, b);
    assert_ne!(a, side);
    assert_ne!(side, orbit);
    assert_ne!(a, camera);
}

#[test]
fn render_a_range_as_a_gif_at_the_motions_speed() {
    let (dir, motion) = example_dir();
    let out = dir.path().join("wave.gif");
    vmdkit()
        .arg("render")
        .arg(&motion)
        .args(["--from", "0", "--to", "30", "--fps", "15", "--size", "128x96", "-o"])
        .arg(&out)
        .assert()
        .success();
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(File::open(&out).unwrap()).unwrap();
    assert_eq!((decoder.width(), decoder.height()), (128, 96));
    let mut delays = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        delays.push(frame.delay);
    }
    // Frames 0, 2, ..., 30 at 15 fps: 16 frames, 1/15 s each, in hundredths 7, 6, 7...
    assert_eq!(delays.len(), 16);
    let total: u32 = delays.iter().map(|&d| u32::from(d)).sum();
    assert_eq!(total, (16.0f64 * 100.0 / 15.0).round() as u32);
    assert!(delays.iter().all(|&d| d == 6 || d == 7), "{delays:?}");
}

#[test]
fn render_a_range_into_a_folder_of_numbered_pngs() {
    let (dir, motion) = example_dir();
    let out = dir.path().join("frames/");
    vmdkit()
        .arg("render")
        .arg(&motion)
        .args(["--from", "10", "--to", "14", "--size", "64x64", "-o"])
        .arg(&out)
        .assert()
        .success();
    let names = common::listing(&dir.path().join("frames"));
    assert_eq!(names, ["00000.png", "00001.png", "00002.png", "00003.png", "00004.png"]);
    assert_eq!(decode_png(&dir.path().join("frames/00004.png")).0, 64);
}

#[test]
fn labels_name_the_joints_when_there_is_a_font() {
    let (dir, motion) = example_dir();
    let (plain, labelled) = (dir.path().join("plain.png"), dir.path().join("labelled.png"));
    vmdkit()
        .arg("render")
        .arg(&motion)
        .args(["--frame", "15", "-o"])
        .arg(&plain)
        .assert()
        .success();
    let output = vmdkit()
        .arg("render")
        .arg(&motion)
        .args(["--frame", "15", "--labels", "-o"])
        .arg(&labelled)
        .output()
        .unwrap();
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    let (a, b) = (decode_png(&plain).2, decode_png(&labelled).2);
    if stderr.contains("no font found") {
        assert_eq!(a, b, "no font, no names");
    } else {
        assert!(stderr.contains("note: names in"), "says which script: {stderr}");
        assert_ne!(a, b, "names drawn");
    }
}

#[test]
fn render_writes_to_stdout_with_a_dash() {
    let (_dir, motion) = example_dir();
    let png = vmdkit()
        .arg("render")
        .arg(&motion)
        .args(["--frame", "3", "--size", "40x30", "-o", "-"])
        .output()
        .unwrap();
    assert!(png.status.success());
    assert!(png.stdout.starts_with(b"\x89PNG"));
    let gif = vmdkit()
        .arg("render")
        .arg(&motion)
        .args(["--to", "4", "--size", "40x30", "-o", "-"])
        .output()
        .unwrap();
    assert!(gif.status.success());
    assert!(gif.stdout.starts_with(b"GIF89a"));
}

#[test]
fn render_refuses_what_it_cannot_draw() {
    let (dir, motion) = example_dir();
    for (args, wanted) in [
        (vec!["--frame", "1", "-o", "x.jpg"], ".png, .gif"),
        (vec!["-o", "x.png"], "--frame"),
        (vec!["--frame", "1", "--size", "0x10", "-o", "x.png"], "not allowed"),
        (vec!["--frame", "1", "--size", "big", "-o", "x.png"], "512x512"),
        (vec!["--from", "0", "--to", "1e9", "-o", "x.gif"], "more than"),
        (vec!["--from", "5", "--to", "1", "-o", "x.gif"], "before"),
        (vec!["--frame", "nan", "-o", "x.png"], "number"),
        (vec!["--frame", "1", "--view", "diagonal", "-o", "x.png"], "front, side, top"),
    ] {
        let output = vmdkit()
            .current_dir(dir.path())
            .arg("render")
            .arg(&motion)
            .args(&args)
            .output()
            .unwrap();
        assert_no_panic(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(wanted), "{args:?}: {stderr}");
    }
    // A camera file without camera keys is named.
    let bare = common::write(
        dir.path(),
        "bare.vmd",
        &vmdkit::Motion::new(vmdkit::LongName::encode("m").0).to_bytes(),
    );
    let output = vmdkit()
        .arg("render")
        .arg(&motion)
        .args(["--frame", "0", "--camera"])
        .arg(&bare)
        .arg("-o")
        .arg(dir.path().join("c.png"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("bare.vmd: has no camera keys"));
}

/// Connected blobs of pixels of exactly `colour` (4-neighbour), and their centres.
fn blobs(w: u32, h: u32, rgb: &[u8], colour: [u8; 3]) -> Vec<(f32, f32)> {
    let (w, h) = (w as usize, h as usize);
    let is = |i: usize| rgb[i * 3..i * 3 + 3] == colour;
    let mut seen = vec![false; w * h];
    let mut centres = Vec::new();
    for start in 0..w * h {
        if seen[start] || !is(start) {
            continue;
        }
        let (mut stack, mut sum, mut n) = (vec![start], (0.0, 0.0), 0.0);
        seen[start] = true;
        while let Some(i) = stack.pop() {
            let (x, y) = (i % w, i / w);
            sum = (sum.0 + x as f32, sum.1 + y as f32);
            n += 1.0;
            let neighbours = [
                (x > 0).then(|| i - 1),
                (x + 1 < w).then(|| i + 1),
                (y > 0).then(|| i - w),
                (y + 1 < h).then(|| i + w),
            ];
            for j in neighbours.into_iter().flatten() {
                if !seen[j] && is(j) {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        centres.push((sum.0 / n, sum.1 / n));
    }
    centres
}

#[test]
fn a_morph_plot_marks_each_key_once() {
    let (dir, motion) = example_dir();
    let out = dir.path().join("blink.png");
    let output = vmdkit()
        .arg("plot")
        .arg(&motion)
        .args(["--morph", "まばたき", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("note: "),
        "says which names it can draw"
    );
    let (w, h, rgb) = decode_png(&out);
    assert_eq!((w, h), (900, 600));
    // The lone weight curve is drawn translucent; only its three key markers are the exact colour.
    let markers = blobs(w, h, &rgb, [148, 103, 189]);
    assert_eq!(markers.len(), 3, "{markers:?}");
    // Keys at frames 20, 23, 26 with weights 0, 1, 0: the middle one highest, evenly spaced.
    let mut xs: Vec<(f32, f32)> = markers;
    xs.sort_by(|a, b| a.0.total_cmp(&b.0));
    assert!(xs[1].1 < xs[0].1 - 100.0 && (xs[0].1 - xs[2].1).abs() < 1.0);
    assert!(((xs[1].0 - xs[0].0) - (xs[2].0 - xs[1].0)).abs() < 1.5);
}

#[test]
fn bone_camera_key_and_overlay_plots_are_written() {
    let (dir, motion) = example_dir();
    let json = dir.path().join("example.json");
    vmdkit().arg("example").arg(&json).assert().success();
    for (name, args) in [
        ("bone.png", vec!["--bone", "右腕"]),
        ("two.png", vec!["--bone", "右腕", json.to_str().unwrap()]),
        ("camera.png", vec!["--camera"]),
        ("key.png", vec!["--bone", "右腕", "--key", "15", "--size", "400x300"]),
    ] {
        let out = dir.path().join(name);
        vmdkit().arg("plot").arg(&motion).args(&args).arg("-o").arg(&out).assert().success();
        let (w, _, _) = decode_png(&out);
        assert_eq!(w, if name == "key.png" { 400 } else { 900 }, "{name}");
    }
    let one = decode_png(&dir.path().join("bone.png")).2;
    let two = decode_png(&dir.path().join("two.png")).2;
    assert_ne!(one, two, "the second motion's dashed curves and legend entry");
}

#[test]
fn plot_names_what_it_cannot_find() {
    let (dir, motion) = example_dir();
    let out = dir.path().join("x.png");
    for (args, wanted) in [
        (vec!["--bone", "左足"], "has no keys for bone 左足"),
        (vec!["--morph", "あ"], "has no keys for morph あ"),
        (vec!["--bone", "右腕", "--key", "16"], "no key at frame 16 (keys at 0, 15, 30, 45, 60)"),
    ] {
        let output =
            vmdkit().arg("plot").arg(&motion).args(&args).arg("-o").arg(&out).output().unwrap();
        assert_no_panic(&output);
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        assert!(
            String::from_utf8_lossy(&output.stderr).contains(wanted),
            "{args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let output = vmdkit().arg("plot").arg(&motion).arg("-o").arg(&out).output().unwrap();
    assert_eq!(output.status.code(), Some(2), "one of --bone, --morph, --camera is required");
}

/// The corpus model and dance of issue 27's pictures, read in place.
fn miku_and_wavefile(test: &str) -> Option<(std::path::PathBuf, std::path::PathBuf)> {
    let manifest = test_corpus::corpus_or_skip(test)?;
    let find = |end: &str| {
        manifest.entries.iter().find(|e| e.local_path.ends_with(end)).unwrap().path.clone()
    };
    Some((find("初音ミク.pmx"), find("wavefile_v2.vmd")))
}

/// Pixels that are not the background.
fn inked(rgb: &[u8]) -> usize {
    let far = |p: &[u8]| {
        u32::from(p[0].abs_diff(250))
            + u32::from(p[1].abs_diff(250))
            + u32::from(p[2].abs_diff(247))
    };
    rgb.chunks(3).filter(|p| far(p) > 60).count()
}

/// Issue 27: センター先 (hidden in MMD) drew a line from the hips to below the floor and the hair
/// chains looked like limbs. `--bones body` (the default) draws the standard bones, `visible`
/// adds the hair and skirt, `all` the hidden helpers too; anything else is bad usage.
#[test]
fn bones_chooses_what_render_draws() {
    let Some((model, dance)) = miku_and_wavefile("bones_chooses_what_render_draws") else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut ink = Vec::new();
    for set in ["default", "body", "visible", "all"] {
        let out = dir.path().join(format!("{set}.png"));
        let mut args = vec!["render".as_ref(), dance.as_os_str(), "--model".as_ref()];
        args.extend([model.as_os_str(), "--frame".as_ref(), "600".as_ref(), "-o".as_ref()]);
        args.push(out.as_os_str());
        if set != "default" {
            args.extend(["--bones".as_ref(), std::ffi::OsStr::new(set)]);
        }
        let run = common::run_bounded(dir.path(), &args);
        assert!(run.output.status.success(), "{}", common::stderr(&run.output));
        ink.push(inked(&decode_png(&out).2));
    }
    assert_eq!(ink[0], ink[1], "body is the default");
    assert!(ink[1] < ink[2] && ink[2] < ink[3], "body < visible < all: {ink:?}");
    let bad = vmdkit()
        .arg("render")
        .arg(&dance)
        .args(["--frame", "1", "--bones", "limbs", "-o"])
        .arg(dir.path().join("x.png"))
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(common::stderr(&bad).contains("not body, visible or all"), "{}", common::stderr(&bad));
}

/// Issue 27: `--frame 99999` on a motion that ends at 60, a range past its end and `pose
/// --frame -5` went without a word. Allowed (MMD holds the last key), but said once on stderr.
#[test]
fn frames_outside_the_motion_are_noted_once() {
    let (dir, motion) = example_dir();
    let notes = |args: &[&std::ffi::OsStr]| {
        let run = common::run_bounded(dir.path(), args);
        assert!(run.output.status.success(), "{}", common::stderr(&run.output));
        common::stderr(&run.output).matches("note: frame").count()
    };
    let m = motion.as_os_str();
    let os = |s: &'static str| std::ffi::OsStr::new(s);
    let png = dir.path().join("x.png");
    let gif = dir.path().join("x.gif");
    let html = dir.path().join("x.html");
    let (png, gif, html) = (png.as_os_str(), gif.as_os_str(), html.as_os_str());
    assert_eq!(notes(&[os("render"), m, os("--frame"), os("99999"), os("-o"), png]), 1);
    assert_eq!(notes(&[os("render"), m, os("--frame"), os("-5"), os("-o"), png]), 1);
    assert_eq!(notes(&[os("render"), m, os("--frame"), os("60"), os("-o"), png]), 0);
    let range = [os("--from"), os("30"), os("--to"), os("200"), os("--fps"), os("5")];
    let mut args = vec![os("render"), m];
    args.extend(range);
    args.extend([os("--size"), os("64x64"), os("-o"), gif]);
    assert_eq!(notes(&args), 1);
    let mut args = vec![os("view"), m];
    args.extend(range);
    args.extend([os("-o"), html]);
    assert_eq!(notes(&args), 1);
    assert_eq!(notes(&[os("view"), m, os("-o"), html]), 0, "the whole motion");
    let run = common::run_bounded(
        dir.path(),
        &[os("render"), m, os("--frame"), os("99999"), os("-o"), png],
    );
    assert!(
        common::stderr(&run.output).contains("past the last key"),
        "{}",
        common::stderr(&run.output)
    );
    if let Some((model, _)) = miku_and_wavefile("frames_outside_the_motion_are_noted_once") {
        let pose = [os("pose"), os("--model"), model.as_os_str(), m, os("--frame"), os("-5")];
        assert_eq!(notes(&pose), 1);
        let run = common::run_bounded(dir.path(), &pose);
        assert!(common::stderr(&run.output).contains("before frame 0"));
    }
}
