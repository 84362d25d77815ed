//! The stick figure's geometry, checked on the pixels: mirror symmetry of a symmetric rest pose,
//! a raised hand where the projection puts it, different frames giving different pictures.

use glam::Quat;
use vmdkit::example::{example_motion, standard_model};
use vmdkit::model::Model;
use vmdkit::BoneKey;
use vmdkit::Motion;
use vmdkit::{KeyName, LongName};
use vmdkit_draw::{Canvas, FigureRenderer, Rgb, Side, Size, View};

const BACKGROUND: Rgb = Rgb(250, 250, 247);

fn ink(c: Rgb) -> bool {
    let d = |a: u8, b: u8| i32::from(a).abs_diff(i32::from(b));
    d(c.0, BACKGROUND.0) + d(c.1, BACKGROUND.1) + d(c.2, BACKGROUND.2) > 60
}

/// Ink pixels whose mirror image about the vertical centre line has no ink within one pixel.
fn asymmetric_pixels(canvas: &Canvas) -> Vec<(u32, u32)> {
    let (w, h) = (canvas.width(), canvas.height());
    let inked = |x: i64, y: i64| {
        x >= 0
            && y >= 0
            && x < i64::from(w)
            && y < i64::from(h)
            && ink(canvas.pixel(x as u32, y as u32).unwrap())
    };
    let mut bad = Vec::new();
    for y in 0..h {
        for x in 0..w {
            if !ink(canvas.pixel(x, y).unwrap()) {
                continue;
            }
            // Pixel x's centre x + 0.5 mirrors to w − x − 0.5, the centre of pixel w − 1 − x.
            let (mx, my) = (i64::from(w) - 1 - i64::from(x), i64::from(y));
            let near = (-1..=1).any(|dx| (-1..=1).any(|dy| inked(mx + dx, my + dy)));
            if !near {
                bad.push((x, y));
            }
        }
    }
    bad
}

fn rest(model: &Model, size: Size) -> (usize, Vec<(u32, u32)>) {
    let motion = Motion::new(LongName::encode("rest").0);
    let mut r = FigureRenderer::new(model, &motion, size);
    let canvas = r.render_ortho(View::Front, &[0.0], 0.0);
    let inked = (0..canvas.height())
        .flat_map(|y| (0..canvas.width()).map(move |x| (x, y)))
        .filter(|&(x, y)| ink(canvas.pixel(x, y).unwrap()))
        .count();
    (inked, asymmetric_pixels(canvas))
}

#[test]
fn the_standard_models_rest_pose_is_mirror_symmetric_to_a_pixel() {
    for (w, h) in [(512, 512), (301, 200)] {
        let (inked, bad) = rest(&standard_model(), Size::new(w, h).unwrap());
        assert!(inked > 1000, "{w}x{h}: only {inked} ink pixels");
        assert!(
            bad.is_empty(),
            "{w}x{h}: {} pixels without a mirror, first {:?}",
            bad.len(),
            &bad[..bad.len().min(5)]
        );
    }
}

/// A real model is symmetric except where it is drawn so (Miku's bangs): every left/right
/// pair of joints with mirrored rest positions must land on mirrored pixels, both inked.
#[test]
fn a_corpus_models_mirrored_joints_land_on_mirrored_pixels() {
    let Some(manifest) = test_corpus::corpus_or_skip("pmx mirror") else { return };
    let entry = manifest
        .of_kind("pmx")
        .find(|e| e.local_path.ends_with("初音ミク.pmx"))
        .expect("the corpus has mmd_tools' sample 初音ミク.pmx");
    let model = Model::read_file(&entry.path).unwrap();
    let motion = Motion::new(LongName::encode("rest").0);
    let size = Size::new(512, 512).unwrap();
    let mut r = FigureRenderer::new(&model, &motion, size);
    let projection = r.fit(View::Front, &[0.0]);
    let canvas = r.draw(&projection, 0.0, None);
    let mut pairs = 0;
    for left in model.bones.iter().filter(|b| b.name.starts_with('左')) {
        let name = left.name.replacen('左', "右", 1);
        let Some(right) = model.bones.iter().find(|b| b.name == name) else { continue };
        let (l, m) = (left.position, right.position);
        if (l.x + m.x).abs() > 1e-4 || (l.y - m.y).abs() > 1e-4 || (l.z - m.z).abs() > 1e-4 {
            continue;
        }
        let (lx, ly, _) = projection.project(l).unwrap();
        let (rx, ry, _) = projection.project(m).unwrap();
        assert!(
            (lx + rx - 512.0).abs() < 0.01 && (ly - ry).abs() < 0.01,
            "{}: {lx},{ly} vs {rx},{ry}",
            left.name
        );
        assert!(lx > rx, "{}: the model's left is on the image's right", left.name);
        for (x, y) in [(lx, ly), (rx, ry)] {
            assert!(ink(canvas.pixel(x as u32, y as u32).unwrap()), "{} at {x},{y}", left.name);
        }
        pairs += 1;
    }
    assert!(pairs > 20, "only {pairs} mirrored pairs");
}

#[test]
fn a_pose_that_breaks_the_symmetry_is_caught() {
    // The check above must be able to fail: the example waves only the right arm.
    let motion = example_motion();
    let mut r = FigureRenderer::new(&standard_model(), &motion, Size::new(256, 256).unwrap());
    let canvas = r.render_ortho(View::Front, &[15.0], 15.0);
    assert!(asymmetric_pixels(canvas).len() > 50);
}

#[test]
fn a_raised_left_hand_is_drawn_where_the_projection_puts_it() {
    let model = standard_model();
    let mut motion = Motion::new(LongName::encode("raise").0);
    let mut key = BoneKey::new(KeyName::encode("左腕").0, 0);
    // The left arm lies along +X; turning it about +Z by 100° lifts it above the shoulder.
    key.rotation = Quat::from_rotation_z(100f32.to_radians());
    motion.bones.push(key);
    let size = Size::new(400, 400).unwrap();
    let mut r = FigureRenderer::new(&model, &motion, size);
    let hand = r.skeleton().bone_index("左手首").unwrap();
    let shoulder = r.skeleton().bone_index("左腕").unwrap();
    let positions = r.positions_at(0.0).to_vec();
    assert!(positions[hand].y > positions[shoulder].y + 5.0, "the hand is raised: {positions:?}");
    let projection = r.fit(View::Front, &[0.0]);
    let (hx, hy, _) = projection.project(positions[hand]).unwrap();
    let (sx, sy, _) = projection.project(positions[shoulder]).unwrap();
    assert!(
        hy < sy - 50.0 && hx > 200.0,
        "above the shoulder, on the image's right: {hx},{hy} vs {sx},{sy}"
    );
    let canvas = r.draw(&projection, 0.0, None);
    assert_eq!(
        canvas.pixel(hx as u32, hy as u32),
        Some(Side::Left.colour()),
        "the hand's joint dot"
    );
    // Where the arm hung at rest there is nothing now.
    let rest_hand = model
        .bones
        .iter()
        .position(|b| b.name == "左手首")
        .map(|i| model.bones[i].position)
        .unwrap();
    let (rx, ry, _) = projection.project(rest_hand).unwrap();
    assert_eq!(canvas.pixel(rx as u32, ry as u32), Some(BACKGROUND));
}

#[test]
fn two_frames_give_different_images_and_one_frame_the_same() {
    let motion = example_motion();
    let mut r = FigureRenderer::new(&standard_model(), &motion, Size::new(200, 200).unwrap());
    let projection = r.fit(View::Front, &[0.0, 15.0]);
    let a = r.draw(&projection, 0.0, None).rgba().to_vec();
    let b = r.draw(&projection, 15.0, None).rgba().to_vec();
    let again = r.draw(&projection, 0.0, None).rgba().to_vec();
    assert_ne!(a, b);
    assert_eq!(a, again);
}

#[test]
fn sides_come_from_japanese_and_english_names() {
    assert_eq!(Side::of_name("左腕"), Side::Left);
    assert_eq!(Side::of_name("右足ＩＫ"), Side::Right);
    assert_eq!(Side::of_name("arm_L"), Side::Left);
    assert_eq!(Side::of_name("RightArm"), Side::Right);
    assert_eq!(Side::of_name("上半身"), Side::Centre);
}
