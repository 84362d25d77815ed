//! Baking to other frame rates: output frame k is the source at frame k·30/N, camera cuts stay
//! cuts, property changes land on the first output frame at or after them.

use glam::Vec3;
use vmdkit::bake::{bake, BakeError};
use vmdkit::eval::MotionSampler;
use vmdkit::LongName;
use vmdkit::Motion;
use vmdkit::{CameraInterpolation, CameraKey, IkState, PropertyKey, ReadOptions};

/// Every track of `baked`, sampled at each of its integer frames k, equals `source` at
/// k·30/fps; the baked motion also survives writing and reading.
fn assert_bake_samples_source(source: &Motion, fps: f64) -> Motion {
    let baked = bake(source, fps).unwrap();
    assert_eq!(Motion::parse(&baked.to_bytes()).unwrap(), baked);
    let (src, out) = (MotionSampler::new(source), MotionSampler::new(&baked));
    assert!(out.duplicates().is_empty());
    assert_eq!(out.bone_count(), src.bone_count());
    assert_eq!(out.morph_count(), src.morph_count());
    let last = out.last_frame().unwrap_or(0);
    let (mut a, mut b) = (src.new_sample(), out.new_sample());
    let (mut pa, mut pb) = (src.playhead(), out.playhead());
    for k in 0..=last {
        let t = f64::from(k) * 30.0 / fps;
        src.sample_into(&mut pa, t, &mut a);
        out.sample_into(&mut pb, k, &mut b);
        for (x, y) in a.bones.iter().zip(&b.bones) {
            assert_eq!(x.translation, y.translation, "frame {k}");
            // The same rotation; the sign of a stored slerp result is kept.
            assert!(x.rotation.dot(y.rotation).abs() > 1.0 - 1e-6, "frame {k}");
            assert_eq!(x.physics, y.physics);
        }
        assert_eq!(a.morphs, b.morphs, "frame {k}");
        assert_eq!(a.light, b.light, "frame {k}");
        assert_eq!(a.shadow, b.shadow, "frame {k}");
        assert_eq!((a.visible, &a.ik), (b.visible, &b.ik), "frame {k}");
        match (a.camera, b.camera) {
            (Some(x), Some(y)) => {
                assert_eq!(
                    (x.target, x.distance, x.rotation, x.perspective),
                    (y.target, y.distance, y.rotation, y.perspective)
                );
                assert_eq!(x.fov.round(), y.fov, "frame {k}");
            }
            (x, y) => assert_eq!(x, y),
        }
    }
    baked
}

#[test]
fn bakes_the_example_at_30_60_and_24_fps() {
    let motion = vmdkit::example::example_motion();
    for fps in [30.0, 60.0, 24.0, 29.97, 1.0] {
        assert_bake_samples_source(&motion, fps);
    }
    // Frame numbers count at the new rate: 60 fps doubles them.
    let src = MotionSampler::new(&motion);
    let baked = MotionSampler::new(&bake(&motion, 60.0).unwrap());
    assert_eq!(baked.last_frame(), src.last_frame().map(|f| 2 * f));
    // Bones get a key at every output frame of their range.
    let arm = baked.bone_track(vmdkit::KeyName::encode("右腕").0.bytes()).unwrap();
    assert_eq!(arm.frames(), (0..=120).collect::<Vec<u32>>().as_slice());
}

#[test]
fn camera_cuts_stay_cuts() {
    let mut motion = Motion::new_camera();
    let key = |frame, x: f32| CameraKey {
        frame,
        distance: -45.0,
        target: Vec3::new(x, 10.0, 0.0),
        rotation: Vec3::ZERO,
        interpolation: CameraInterpolation::DEFAULT,
        view_angle: 30,
        perspective_byte: 0,
    };
    // A move from 0 to 10, a cut at 10 → 11 (to x = 100), then a move to 200.
    motion.cameras = vec![key(0, 0.0), key(10, 10.0), key(11, 100.0), key(31, 200.0)];
    for fps in [60.0, 24.0, 30.0, 25.0, 120.0] {
        let baked = assert_bake_samples_source(&motion, fps);
        let track = MotionSampler::new(&baked);
        let track = track.camera_track().unwrap();
        // The jump lies between two adjacent output keys (a cut), at the first output frame at
        // or after source frame 11, and every key before it is at most the pre-cut value.
        let jump = (11.0 * fps / 30.0_f64).ceil() as usize;
        let xs: Vec<f32> = (0..track.frames().len()).map(|i| track.key(i).target.x).collect();
        assert_eq!(track.frames()[jump], jump as u32);
        assert!(xs[jump - 1] <= 10.0 && xs[jump] >= 100.0, "{fps}: {:?}", &xs[jump - 2..=jump]);
        assert!(track.is_cut(jump - 1));
        // Between the two keys the baked camera holds the pre-cut value, as the source does.
        let half = f64::from(jump as u32) - 0.5;
        assert_eq!(track.sample(half).target.x, xs[jump - 1]);
    }
}

#[test]
fn property_changes_land_at_or_after_their_frame() {
    let mut motion = Motion::new(LongName::encode("test").0);
    let ik = |on: bool| {
        vec![IkState { name: LongName::encode("右足ＩＫ").0, enabled_byte: u8::from(on) }]
    };
    motion.properties = vec![
        PropertyKey { frame: 0, visible_byte: 1, ik: ik(true) },
        PropertyKey { frame: 31, visible_byte: 0, ik: ik(false) },
    ];
    let at = |fps: f64| {
        let baked = bake(&motion, fps).unwrap();
        baked
            .properties
            .iter()
            .map(|p| (p.frame, p.visible_byte, p.ik[0].enabled_byte))
            .collect::<Vec<_>>()
    };
    assert_eq!(at(30.0), vec![(0, 1, 1), (31, 0, 0)]);
    assert_eq!(at(60.0), vec![(0, 1, 1), (62, 0, 0)]);
    // 31 × 24/30 = 24.8: the change shows from output frame 25 (source 31.25).
    assert_eq!(at(24.0), vec![(0, 1, 1), (25, 0, 0)]);
    assert_bake_samples_source(&motion, 24.0);
}

#[test]
fn bad_rates_and_overflowing_frames_are_errors() {
    let motion = vmdkit::example::example_motion();
    for fps in [0.0, -24.0, f64::NAN, f64::INFINITY] {
        assert!(matches!(bake(&motion, fps), Err(BakeError::BadFrameRate(_))), "{fps}");
    }
    let mut far = motion.clone();
    far.bones[0].frame = u32::MAX - 5;
    assert!(matches!(bake(&far, 60.0), Err(BakeError::TooLong { .. })));
    assert!(bake(&Motion::default(), 60.0).unwrap().bones.is_empty());
}

#[test]
fn bakes_corpus_motions() {
    let Some(manifest) = test_corpus::corpus_or_skip("eval_bake") else {
        return;
    };
    let mut baked = 0;
    // The smaller files, to keep the test quick; the large dances are covered by the oracle.
    for entry in manifest
        .of_kind("vmd")
        .filter(|e| e.parse_ok() && e.get("bytes").parse::<u64>().unwrap_or(0) < 100_000)
    {
        let Ok(parsed) = Motion::parse_with(&entry.bytes(), ReadOptions::LENIENT) else {
            continue;
        };
        for fps in [60.0, 24.0] {
            assert_bake_samples_source(&parsed.motion, fps);
        }
        baked += 1;
    }
    assert!(baked > 50, "{baked}");
}
