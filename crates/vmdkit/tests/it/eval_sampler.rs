//! The sampler's API and semantics: hand-computed values (reference §6.8, §7), curve edge cases,
//! duplicates, steps, playback without allocation, and cursors against binary search over the
//! corpus.

use glam::Vec3;
use std::collections::HashMap;
use test_corpus::alloc::allocations;
use vmdkit::eval::{BoneSample, CameraSample, MotionSampler};
use vmdkit::Curve;
use vmdkit::Motion;
use vmdkit::{
    BoneInterpolation, BoneKey, CameraInterpolation, CameraKey, IkState, MorphKey, PhysicsToggle,
    PropertyKey, ReadOptions, Section,
};
use vmdkit::{KeyName, LongName};

fn name(text: &str) -> KeyName {
    KeyName::encode(text).0
}

/// A motion with one bone moving x from 0 to 1 over frames 0–100 with `curve`.
fn ramp(curve: Curve) -> MotionSampler {
    let mut motion = Motion::new(LongName::encode("test").0);
    let mut end = BoneKey::new(name("センター"), 100);
    end.translation = Vec3::X;
    end.interpolation = BoneInterpolation::canonical([curve; 4], PhysicsToggle::On);
    motion.bones = vec![BoneKey::new(name("センター"), 0), end];
    MotionSampler::new(&motion)
}

#[test]
fn worked_numbers_of_the_reference() {
    // §6.8: (curve, p, exact weight). The table has six decimals.
    for ((x1, y1, x2, y2), p, w) in [
        ((20, 20, 107, 107), 0.25, 0.250000),
        ((20, 20, 107, 107), 0.50, 0.500000),
        ((36, 0, 93, 127), 0.25, 0.169266),
        ((36, 0, 93, 127), 0.50, 0.491849),
        ((127, 0, 0, 127), 0.25, 0.029725),
        ((64, 0, 64, 127), 0.50, 0.494095),
    ] {
        let sampler = ramp(Curve::new(x1, y1, x2, y2));
        let x = sampler.bone_tracks()[0].sample(100.0 * p).translation.x;
        assert!((f64::from(x) - w).abs() < 6e-7, "{:?} at {p}: {x}", (x1, y1, x2, y2));
    }
}

#[test]
fn curve_edge_cases_through_a_track() {
    let at = |c: Curve, p: f64| f64::from(ramp(c).bone_tracks()[0].sample(100.0 * p).translation.x);
    // x1 = x2 = 0: X(s) = s³, so s = p^(1/3); with y1 = y2 = 127, Y = 1 − (1 − s)³. The curve
    // has a vertical tangent at p = 0: the weight rises like 3·p^(1/3).
    for p in [1e-6, 1e-3, 0.1, 0.5, 0.9] {
        let s = f64::cbrt(p);
        assert!(
            (at(Curve::new(0, 127, 0, 127), p) - (1.0 - (1.0 - s).powi(3))).abs() < 1e-6,
            "{p}"
        );
    }
    // x1 = x2 = 127: X(s) = 1 − (1 − s)³; with y1 = y2 = 0, Y = s³ (vertical tangent at p = 1).
    for p in [0.1, 0.5, 0.9, 1.0 - 1e-6] {
        let s = 1.0 - f64::cbrt(1.0 - p);
        assert!((at(Curve::new(127, 0, 127, 0), p) - s.powi(3)).abs() < 1e-6, "{p}");
    }
    // Both handles at one corner: linear curves whatever the corner.
    for c in [Curve::new(0, 0, 0, 0), Curve::new(127, 127, 127, 127)] {
        assert!((at(c, 0.3) - 0.3).abs() < 1e-7);
    }
    // Every curve passes exactly through its keys and rises monotonically between them.
    for c in [Curve::new(0, 127, 0, 127), Curve::new(127, 0, 0, 127), Curve::new(127, 0, 127, 0)] {
        let sampler = ramp(c);
        let track = &sampler.bone_tracks()[0];
        assert_eq!(
            (track.sample(0.0).translation.x, track.sample(100.0).translation.x),
            (0.0, 1.0)
        );
        let mut prev = 0.0;
        for k in 0..=1000 {
            let x = track.sample(f64::from(k) / 10.0).translation.x;
            assert!(x >= prev, "{c:?} at {k}");
            prev = x;
        }
    }
}

#[test]
fn tracks_group_by_raw_name_and_keep_the_last_duplicate() {
    let mut motion = Motion::new(LongName::encode("test").0);
    // The same name with MMD's 0xFD padding and with zero padding is one track.
    let mmd = KeyName::from_bytes_mmd(name("左腕").bytes());
    let mut zero = vmdkit::RawName([0u8; 15]);
    zero.0[..4].copy_from_slice(mmd.bytes());
    assert_ne!(mmd, zero);
    let key = |n: KeyName, frame: u32, x: f32| BoneKey {
        translation: Vec3::new(x, 0.0, 0.0),
        ..BoneKey::new(n, frame)
    };
    motion.bones = vec![
        key(mmd, 20, 2.0),
        key(zero, 0, 0.0),
        key(mmd, 10, 1.0),
        key(zero, 10, 7.0),
        key(name("右腕"), 5, 9.0),
    ];
    let sampler = MotionSampler::new(&motion);
    assert_eq!(sampler.bone_names().collect::<Vec<_>>(), vec![mmd.bytes(), name("右腕").bytes()]);
    let track = sampler.bone_track(mmd.bytes()).unwrap();
    assert_eq!(track.frames(), &[0, 10, 20]);
    // Frame 10 holds keys 2 and 3 in file order: the later one (x = 7) wins and is reported.
    assert_eq!(track.sample(10.0).translation.x, 7.0);
    assert_eq!(track.sample(5.0).translation.x, 3.5);
    let d = &sampler.duplicates()[0];
    assert_eq!(
        (d.section, d.name.as_slice(), d.frame, d.dropped, d.kept),
        (Section::Bone, mmd.bytes(), 10, 2, 3)
    );
    assert_eq!(sampler.duplicates().len(), 1);
    assert!(sampler.bone_track(b"missing").is_none());
}

#[test]
fn property_keys_are_steps_per_ik_name() {
    let mut motion = Motion::new(LongName::encode("test").0);
    let ik =
        |n: &str, on: bool| IkState { name: LongName::encode(n).0, enabled_byte: u8::from(on) };
    motion.properties = vec![
        PropertyKey { frame: 30, visible_byte: 0, ik: vec![ik("右足ＩＫ", false)] },
        PropertyKey {
            frame: 10,
            visible_byte: 1,
            ik: vec![ik("右足ＩＫ", true), ik("左足ＩＫ", false)],
        },
    ];
    let sampler = MotionSampler::new(&motion);
    let right = sampler.ik_track(LongName::encode("右足ＩＫ").0.bytes()).unwrap();
    let left = sampler.ik_track(LongName::encode("左足ＩＫ").0.bytes()).unwrap();
    let visible = sampler.visibility_track().unwrap();
    // Before the first key the first key's value applies; each key holds until the next.
    assert_eq!(
        [0.0, 10.0, 29.9, 30.0, 99.0].map(|t: f64| right.sample(t)),
        [true, true, true, false, false]
    );
    assert_eq!([0.0, 30.0, 99.0].map(|t: f64| left.sample(t)), [false; 3]);
    assert_eq!([0.0, 29.5, 30.0].map(|t: f64| visible.sample(t)), [true, true, false]);
    let mut playhead = sampler.playhead();
    let mut out = sampler.new_sample();
    sampler.sample_into(&mut playhead, 31.0f32, &mut out);
    assert_eq!(
        (out.visible, out.ik.as_slice(), out.camera),
        (Some(false), &[false, false][..], None)
    );
}

#[test]
fn camera_through_the_sampler_gives_the_reference_view() {
    let mut motion = Motion::new_camera();
    let key = |frame, target, rotation| CameraKey {
        frame,
        distance: -45.0,
        target,
        rotation,
        interpolation: CameraInterpolation::DEFAULT,
        view_angle: 30,
        perspective_byte: 0,
    };
    motion.cameras = vec![
        key(0, Vec3::ZERO, Vec3::ZERO),
        key(10, Vec3::new(2.0, 20.0, 4.0), Vec3::new(0.6, 1.0, 0.4)),
    ];
    let sampler = MotionSampler::new(&motion);
    // Halfway on linear curves: T = (1, 10, 2), angles (0.3, 0.5, 0.2), the §7 example.
    let view = sampler.sample_camera(5.0).unwrap().view();
    assert!(
        (view.eye - Vec3::new(21.6106, -3.2984, -35.7274)).abs().max_element() < 1e-4,
        "{view:?}"
    );
    assert!((view.forward - Vec3::new(-0.4580, 0.2955, 0.8384)).abs().max_element() < 1e-4);
    assert!(MotionSampler::new(&Motion::default()).sample_camera(0.0).is_none());
    assert_eq!(CameraSample::MMD_DEFAULT.view().eye, Vec3::new(0.0, 10.0, -45.0));
}

#[test]
fn sampling_does_not_allocate() {
    let motion = vmdkit::example::example_motion();
    let sampler = MotionSampler::new(&motion);
    let mut playhead = sampler.playhead();
    let mut out = sampler.new_sample();
    let mut bones = vec![BoneSample::default(); sampler.bone_count()];
    let mut morphs = vec![0.0; sampler.morph_count()];
    let arm = name("右腕");
    let before = allocations();
    for k in 0..2000 {
        let t = f64::from(k) * 0.05;
        sampler.sample_into(&mut playhead, t, &mut out);
        sampler.sample_bones(t as f32, &mut bones);
        sampler.sample_bones_with(&mut playhead, t, &mut bones);
        sampler.sample_morphs(t, &mut morphs);
        let _ = (
            sampler.sample_camera(t).map(|c| c.view()),
            sampler.sample_light(t),
            sampler.sample_shadow(t),
        );
        let _ = sampler.bone_track(arm.bytes()).map(|tr| tr.sample(t));
    }
    assert_eq!(allocations() - before, 0);
    assert!(
        out.camera.is_some()
            && out.light.is_some()
            && out.shadow.is_some()
            && out.visible == Some(true)
    );
}

#[test]
fn playhead_gives_exactly_what_stateless_sampling_gives_over_the_corpus() {
    let Some(manifest) = test_corpus::corpus_or_skip("eval_sampler playhead") else {
        return;
    };
    let mut checked = 0u64;
    for entry in manifest.of_kind("vmd").filter(|e| e.parse_ok()) {
        let Ok(parsed) = Motion::parse_with(&entry.bytes(), ReadOptions::LENIENT) else {
            continue;
        };
        let sampler = MotionSampler::new(&parsed.motion);
        let Some(last) = sampler.last_frame() else {
            continue;
        };
        let mut playhead = sampler.playhead();
        let mut played = sampler.new_sample();
        let mut bones = vec![BoneSample::default(); sampler.bone_count()];
        let mut morphs = vec![0.0; sampler.morph_count()];
        // Forward in quarter frames, then a few jumps back and forth.
        let forward = (0..=4 * (last + 1)).map(|k| f64::from(k) * 0.25 - 0.5);
        let jumps = (0..50u32).map(|k| f64::from(k * 7919 % (last + 2)) + 0.3);
        for t in forward.chain(jumps) {
            sampler.sample_into(&mut playhead, t, &mut played);
            sampler.sample_bones(t, &mut bones);
            sampler.sample_morphs(t, &mut morphs);
            assert_eq!(played.bones, bones, "{} at {t}", entry.local_path);
            assert_eq!(played.morphs, morphs, "{} at {t}", entry.local_path);
            assert_eq!(played.camera, sampler.sample_camera(t));
            assert_eq!(played.light, sampler.sample_light(t));
            checked += 1;
        }
        // Keys land exactly: sampling on a key frame returns the stored (normalised) key.
        for key in parsed.motion.bones.iter().take(500) {
            let track = sampler.bone_track(key.name.bytes()).unwrap();
            let s = track.sample(key.frame);
            let kept = sampler.duplicates().iter().any(|d| {
                d.section == Section::Bone && d.name == key.name.bytes() && d.frame == key.frame
            });
            if !kept {
                assert_eq!(s.translation, key.translation);
                assert!(s.rotation.dot(key.rotation.normalize()).abs() > 1.0 - 1e-6);
            }
        }
    }
    assert!(checked > 100_000, "{checked}");
}

#[test]
fn duplicates_in_real_files_are_reported() {
    let Some(manifest) = test_corpus::corpus_or_skip("eval_sampler duplicates") else {
        return;
    };
    let mut total = 0;
    for entry in manifest.of_kind("vmd").filter(|e| e.parse_ok()) {
        let Ok(parsed) = Motion::parse_with(&entry.bytes(), ReadOptions::LENIENT) else {
            continue;
        };
        let motion = parsed.motion;
        let sampler = MotionSampler::new(&motion);
        // Count (name, frame) collisions independently.
        let mut seen: HashMap<(&[u8], u32), usize> = HashMap::new();
        for k in &motion.bones {
            *seen.entry((k.name.bytes(), k.frame)).or_default() += 1;
        }
        let expected: usize = seen.values().map(|n| n - 1).sum();
        let reported = sampler.duplicates().iter().filter(|d| d.section == Section::Bone).count();
        assert_eq!(reported, expected, "{}", entry.local_path);
        for d in sampler.duplicates().iter().filter(|d| d.section == Section::Bone) {
            // The kept key is the last in file order and is what sampling returns at that frame.
            let kept = &motion.bones[d.kept];
            assert!(
                d.dropped < d.kept
                    && kept.name.bytes() == d.name.as_slice()
                    && kept.frame == d.frame
            );
            let later = motion.bones[d.kept + 1..]
                .iter()
                .any(|k| k.name.bytes() == d.name.as_slice() && k.frame == d.frame);
            assert!(!later);
            assert_eq!(
                sampler.bone_track(&d.name).unwrap().sample(d.frame).translation,
                kept.translation
            );
        }
        total += reported;
    }
    // Drink.vmd alone has 91.
    assert!(total >= 91, "{total}");
}

#[test]
fn morphs_are_linear_in_the_sampler() {
    let mut motion = Motion::new(LongName::encode("test").0);
    motion.morphs = vec![
        MorphKey { name: name("あ"), frame: 0, weight: 0.0 },
        MorphKey { name: name("あ"), frame: 4, weight: 1.0 },
    ];
    let sampler = MotionSampler::new(&motion);
    let mut out = [0.0f32];
    sampler.sample_morphs(1.0f32, &mut out);
    assert_eq!(out, [0.25]);
    assert_eq!(sampler.morph_track(name("あ").bytes()).unwrap().sample(3.0), 0.75);
}
