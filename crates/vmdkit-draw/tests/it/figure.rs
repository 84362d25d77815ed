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
    // Every bone, hidden helpers too: this checks where joints land, not which are drawn.
    r.set_bones(vmdkit_draw::BoneSet::All);
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

/// The standard model with what real models add: センター先 (hidden, below the floor), a hidden
/// helper between 下半身 and 左足 (as 腰キャンセル is), a hair chain standing on the head, and
/// hair and necktie IK bones (outside the dictionary; one with an English name, one without).
fn model_with_helpers() -> Model {
    use vmdkit::model::{Bone, BoneFlags, Ik};
    let mut model = standard_model();
    let at = |m: &Model, name: &str| m.bones.iter().position(|b| b.name == name).unwrap();
    let hidden = |mut b: Bone| {
        b.flags.set(BoneFlags::VISIBLE, false);
        b
    };
    let centre = at(&model, "センター");
    model.bones.push(hidden(Bone::new(
        "センター先",
        glam::Vec3::new(0.0, -1.0, 0.0),
        Some(centre),
    )));
    let (lower, leg) = (at(&model, "下半身"), at(&model, "左足"));
    let cancel = model.bones.len();
    let leg_at = model.bones[leg].position;
    model.bones.push(hidden(Bone::new("腰キャンセル左", leg_at, Some(lower))));
    model.bones[leg].parent = Some(cancel);
    let head = at(&model, "頭");
    let hair1 = model.bones.len();
    model.bones.push(Bone::new("髪1", glam::Vec3::new(0.0, 21.0, 0.0), Some(head)));
    model.bones.push(Bone::new("髪2", glam::Vec3::new(0.0, 25.0, 0.0), Some(hair1)));
    for (name, english, x) in [("髪ＩＫ", "hair IK", 3.0), ("ﾈｸﾀｲＩＫ", "", -3.0)] {
        let mut b = Bone::new(name, glam::Vec3::new(x, 25.0, 0.0), Some(head));
        b.name_en = english.to_string();
        b.flags.set(BoneFlags::IK, true);
        b.ik = Some(Ik { target: hair1 + 1, loop_count: 1, limit_angle: 1.0, links: Vec::new() });
        model.bones.push(b);
    }
    model
}

/// How far a pixel is from the background (0 for background).
fn darkness(c: Rgb) -> u32 {
    let d = |a: u8, b: u8| u32::from(a.abs_diff(b));
    d(c.0, BACKGROUND.0) + d(c.1, BACKGROUND.1) + d(c.2, BACKGROUND.2)
}

/// The summed darkness of the pixels within `r` of the projection of `p`.
fn ink_near(canvas: &Canvas, at: Option<(f32, f32, f32)>, r: i64) -> u32 {
    let (x, y, _) = at.expect("in view");
    let (x, y) = (x as i64, y as i64);
    let mut sum = 0;
    for py in y - r..=y + r {
        for px in x - r..=x + r {
            if px >= 0 && py >= 0 {
                sum += canvas.pixel(px as u32, py as u32).map_or(0, darkness);
            }
        }
    }
    sum
}

#[test]
fn hidden_bones_leave_no_pixel_and_their_children_stay_joined() {
    use vmdkit_draw::BoneSet;
    let model = model_with_helpers();
    let motion = Motion::new(LongName::encode("rest").0);
    let find = |name: &str| model.bones.iter().position(|b| b.name == name).unwrap();
    let (tip, centre, lower, leg) =
        (find("センター先"), find("センター"), find("下半身"), find("左足"));
    let mut r = FigureRenderer::new(&model, &motion, Size::new(512, 512).unwrap());
    for set in [BoneSet::Body, BoneSet::Visible, BoneSet::All] {
        r.set_bones(set);
        let projection = r.fit(View::Front, &[0.0]);
        let positions = r.positions_at(0.0).to_vec();
        let canvas = r.draw(&projection, 0.0, None);
        // センター先 hangs from センター to below the floor, between the legs; a point half-way
        // down its line and its own joint are inked only when every bone is drawn.
        let below = positions[centre].lerp(positions[tip], 0.75);
        let inked = ink_near(canvas, projection.project(below), 2)
            + ink_near(canvas, projection.project(positions[tip]), 2);
        assert_eq!(inked > 0, set == BoneSet::All, "{set:?}: {inked}");
        // The leg stays joined to the hips through the hidden helper.
        assert!(r.drawn_parent(leg) == Some(lower) || set == BoneSet::All);
        let hip = positions[lower].lerp(positions[leg], 0.5);
        assert!(ink_near(r.draw(&projection, 0.0, None), projection.project(hip), 1) > 0);
    }
}

#[test]
fn physics_chains_are_drawn_thinner_and_lighter_than_the_body_and_only_when_asked() {
    use vmdkit_draw::{BoneSet, BoneStyle};
    let model = model_with_helpers();
    let motion = Motion::new(LongName::encode("rest").0);
    let find = |name: &str| model.bones.iter().position(|b| b.name == name).unwrap();
    let (hair1, hair2, upper, neck) = (find("髪1"), find("髪2"), find("上半身"), find("首"));
    let mut r = FigureRenderer::new(&model, &motion, Size::new(512, 512).unwrap());
    // The darkness summed across one image row through a point of a vertical line.
    let across = |canvas: &Canvas, at: Option<(f32, f32, f32)>| {
        let (x, y, _) = at.unwrap();
        ((x as i64 - 8).max(0)..x as i64 + 8)
            .map(|px| canvas.pixel(px as u32, y as u32).map_or(0, darkness))
            .sum::<u32>()
    };
    r.set_bones(BoneSet::Visible);
    assert_eq!(r.bone_style(hair2), BoneStyle::Physics);
    assert_eq!(r.bone_style(neck), BoneStyle::Body);
    let projection = r.fit(View::Front, &[0.0]);
    let p = r.positions_at(0.0).to_vec();
    let canvas = r.draw(&projection, 0.0, None);
    let hair = across(canvas, projection.project(p[hair1].lerp(p[hair2], 0.5)));
    let spine = across(canvas, projection.project(p[upper].lerp(p[neck], 0.5)));
    assert!(hair > 0 && hair * 3 < spine, "hair {hair}, spine {spine}");
    r.set_bones(BoneSet::Body);
    assert_eq!(r.bone_style(hair2), BoneStyle::Hidden);
    let canvas = r.draw(&projection, 0.0, None);
    assert_eq!(across(canvas, projection.project(p[hair1].lerp(p[hair2], 0.5))), 0);
}

/// Labels: no `?`, pairwise disjoint boxes, inside the image.
fn check_labels(r: &FigureRenderer, size: Size) {
    let labels = r.labels();
    for (i, a) in labels.iter().enumerate() {
        assert!(!a.text.contains('?') && !a.text.is_empty(), "{a:?}");
        assert!(a.x >= 0.0 && a.y >= 0.0, "{a:?}");
        assert!(a.x + a.width <= size.width() as f32 && a.y + a.height <= size.height() as f32);
        for b in &labels[i + 1..] {
            assert!(!a.overlaps(b), "{a:?} overlaps {b:?}");
        }
    }
}

#[test]
fn labels_name_bones_outside_the_dictionary_without_question_marks_and_never_overlap() {
    use vmdkit_draw::{BoneSet, Font, NameScript};
    let Some(font) = Font::find_system() else {
        eprintln!("skipped: no system font, so no labels are drawn");
        return;
    };
    let english = font.script() == NameScript::English;
    let model = model_with_helpers();
    let size = Size::new(480, 480).unwrap();
    let mut r = FigureRenderer::new(&model, &example_motion(), size);
    r.set_bones(BoneSet::Visible);
    r.set_font(Some(font));
    r.set_labels(true);
    r.render_ortho(View::Front, &[0.0, 30.0], 30.0);
    check_labels(&r, size);
    let texts: Vec<&str> = r.labels().iter().map(|l| l.text.as_str()).collect();
    if english {
        // The model's English name, then `bone N` for a name with neither English nor an entry
        // in the dictionary; the standard bones by the dictionary.
        let necktie = model.bones.iter().position(|b| b.name == "ﾈｸﾀｲＩＫ").unwrap();
        assert!(texts.contains(&"hair IK"), "{texts:?}");
        assert!(texts.contains(&format!("bone {necktie}").as_str()), "{texts:?}");
        assert!(texts.contains(&"head"), "{texts:?}");
    }
    // The picture: 初音ミク dancing wavefile_v2 at frame 600, where knee_R was drawn
    // over knee_L, the leg IK labels over each other, and hair IK as `??????`.
    let Some(manifest) = test_corpus::corpus_or_skip("labels_never_overlap") else { return };
    let entry = |end: &str| manifest.entries.iter().find(|e| e.local_path.ends_with(end)).unwrap();
    let model = Model::read_file(&entry("初音ミク.pmx").path).unwrap();
    let motion = Motion::read_file(&entry("wavefile_v2.vmd").path).unwrap();
    for set in [BoneSet::Body, BoneSet::Visible, BoneSet::All] {
        let mut r = FigureRenderer::new(&model, &motion, size);
        r.set_bones(set);
        r.set_font(Font::find_system());
        r.set_labels(true);
        r.render_ortho(View::Front, &[600.0], 600.0);
        check_labels(&r, size);
        assert!(r.labels().len() >= 8, "{set:?}: {:?}", r.labels());
    }
}
