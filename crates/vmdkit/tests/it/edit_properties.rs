//! Properties of the editing functions on random motions (proptest): mirror twice is the
//! identity, shift and shift back is the identity, retiming to 60 fps and back reproduces the
//! motion at integer frames within tolerance, trim keeps values inside its range (exactly in
//! segments it does not cut, within the stated split-curve bound in those it does), and reduce
//! stays within its bounds at every frame (fitted and fast), checked by playing both motions with the sampler.

use glam::{Quat, Vec3};
use proptest::prelude::*;
use vmdkit::edit::{measure, measure_with, ReduceMethod, ReduceOptions};
use vmdkit::edit::{mirror, reduce, retime, shift, trim, Tolerance};
use vmdkit::eval::MotionSampler;
use vmdkit::Curve;
use vmdkit::{
    BoneInterpolation, BoneKey, CameraInterpolation, CameraKey, IkState, LightKey, MorphKey,
    Motion, PhysicsToggle, PropertyKey,
};
use vmdkit::{KeyName, LongName};

const BONES: &[&str] =
    &["センター", "右腕", "左腕", "右足ＩＫ", "左足IK親", "上半身", "RightHand", "arm_L"];
const MORPHS: &[&str] = &["まばたき", "ウィンク", "ウィンク右", "あ"];

fn curve() -> impl Strategy<Value = Curve> {
    (0u8..=127, 0u8..=127, 0u8..=127, 0u8..=127).prop_map(|(a, b, c, d)| Curve::new(a, b, c, d))
}

fn rotation() -> impl Strategy<Value = Quat> {
    (-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0)
        .prop_filter("non-zero", |(x, y, z, w)| x * x + y * y + z * z + w * w > 0.01)
        .prop_map(|(x, y, z, w)| Quat::from_xyzw(x, y, z, w).normalize())
}

fn vec3(r: f32) -> impl Strategy<Value = Vec3> {
    (-r..r, -r..r, -r..r).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn bone_key(max_frame: u32) -> impl Strategy<Value = BoneKey> {
    (
        0..BONES.len(),
        0..=max_frame,
        vec3(5.0),
        rotation(),
        [curve(), curve(), curve(), curve()],
        any::<bool>(),
    )
        .prop_map(|(n, frame, translation, rotation, curves, off)| BoneKey {
            name: KeyName::encode(BONES[n]).0,
            frame,
            translation,
            rotation,
            interpolation: BoneInterpolation::canonical(
                curves,
                if off { PhysicsToggle::Off } else { PhysicsToggle::On },
            ),
        })
}

fn camera_key(max_frame: u32) -> impl Strategy<Value = CameraKey> {
    (
        0..=max_frame,
        -50.0f32..-5.0,
        vec3(10.0),
        vec3(3.0),
        [curve(), curve(), curve(), curve(), curve(), curve()],
        10u32..60,
    )
        .prop_map(|(frame, distance, target, rotation, curves, view_angle)| CameraKey {
            frame,
            distance,
            target,
            rotation,
            interpolation: CameraInterpolation::new(curves),
            view_angle,
            perspective_byte: 0,
        })
}

/// A motion with bones, morphs, camera, light and property keys at frames up to `max_frame`.
fn motion(max_frame: u32) -> impl Strategy<Value = Motion> {
    (
        prop::collection::vec(bone_key(max_frame), 1..24),
        prop::collection::vec((0..MORPHS.len(), 0..=max_frame, 0.0f32..1.0), 0..8),
        prop::collection::vec(camera_key(max_frame), 0..5),
        prop::collection::vec((0..=max_frame, vec3(1.0)), 0..3),
        prop::collection::vec((0..=max_frame, any::<bool>()), 0..3),
    )
        .prop_map(|(bones, morphs, cameras, lights, props)| {
            let mut m = Motion::new(LongName::encode("テスト").0);
            m.bones = bones;
            m.morphs = morphs
                .into_iter()
                .map(|(n, frame, weight)| MorphKey {
                    name: KeyName::encode(MORPHS[n]).0,
                    frame,
                    weight,
                })
                .collect();
            m.cameras = cameras;
            m.lights = lights
                .into_iter()
                .map(|(frame, direction)| LightKey { frame, color: Vec3::splat(0.6), direction })
                .collect();
            m.properties = props
                .into_iter()
                .map(|(frame, on)| PropertyKey {
                    frame,
                    visible_byte: 1,
                    ik: vec![IkState {
                        name: LongName::encode("右足ＩＫ").0,
                        enabled_byte: u8::from(on),
                    }],
                })
                .collect();
            m
        })
}

/// A dense motion: one key per frame for a few bones following smooth random paths.
fn dense(frames: u32) -> impl Strategy<Value = Motion> {
    prop::collection::vec((vec3(2.0), vec3(2.0), rotation(), rotation(), 0.5f32..4.0), 1..4)
        .prop_map(move |paths| {
            let mut m = Motion::new(LongName::encode("dense").0);
            for (i, (a, b, qa, qb, speed)) in paths.into_iter().enumerate() {
                for f in 0..frames {
                    let t = (f as f32 / frames as f32 * speed).sin() * 0.5 + 0.5;
                    let mut key = BoneKey::new(KeyName::encode(BONES[i]).0, f);
                    key.translation = a.lerp(b, t * t);
                    key.rotation = qa.slerp(qb, t);
                    m.bones.push(key);
                }
            }
            m
        })
}

proptest! {
    // 64 cases by default (debug builds); PROPTEST_CASES=1000 for a longer run.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(64),
        ..ProptestConfig::default()
    })]

    #[test]
    fn edit_mirror_twice_is_the_identity(m in motion(200)) {
        let (once, _) = mirror(&m);
        let (twice, _) = mirror(&once);
        prop_assert_eq!(twice, m);
    }

    #[test]
    fn edit_shift_and_back_is_the_identity(m in motion(200), n in 0i64..1000) {
        let later = shift(&m, n).unwrap();
        prop_assert_eq!(shift(&later, -n).unwrap(), m.clone());
        let first = m.frame_range().unwrap().0;
        if first > 0 {
            let earlier = shift(&m, -i64::from(first)).unwrap();
            prop_assert_eq!(shift(&earlier, i64::from(first)).unwrap(), m.clone());
        }
        prop_assert!(shift(&m, -i64::from(first) - 1).is_err());
    }

    #[test]
    fn edit_retime_to_60_fps_and_back_reproduces_integer_frames(m in motion(120)) {
        let tol = Tolerance::default();
        let (fast, report) = retime(&m, 2.0, &tol).unwrap();
        prop_assert!(report.errors.within(&tol), "{:?}", report);
        let (back, report) = retime(&fast, 0.5, &tol).unwrap();
        prop_assert!(report.errors.within(&tol), "{:?}", report);
        let e = measure(&m, &back);
        prop_assert!(e.within(&tol), "{:?}", e);
    }

    #[test]
    fn edit_retime_by_any_factor_stays_within_tolerance_of_the_ideal(m in motion(90), factor in 0.3f64..3.0) {
        let tol = Tolerance::default();
        let (out, report) = retime(&m, factor, &tol).unwrap();
        // Measured again here, independently of the report.
        let last = out.frame_range().map_or(0, |(_, last)| last);
        let e = measure_with(&m, &out, last, factor);
        prop_assert!(e.within(&tol), "{:?} {:?}", e, report);
    }

    #[test]
    fn edit_trim_keeps_values_inside_the_range(m in motion(150), a in 0u32..150, len in 0u32..80) {
        let (from, to) = (a, a + len);
        let (cut, report) = trim(&m, from, to).unwrap();
        let (src, out) = (MotionSampler::new(&m), MotionSampler::new(&cut));
        prop_assert!(cut.bones.iter().all(|k| (from..=to).contains(&k.frame)));
        let beta = report.max_curve_bound;
        for track in src.bone_tracks() {
            let got = out.bone_track(track.name().bytes()).unwrap();
            let frames = track.frames();
            for t in from..=to {
                let (x, y) = (track.sample(t), got.sample(t));
                // The source segment around t, and whether a cut falls inside it.
                let i = frames.partition_point(|&f| f <= t);
                let split = i > 0 && i < frames.len() && (frames[i - 1] < from || frames[i] > to);
                if !split {
                    prop_assert!((x.translation - y.translation).length() < 1e-4, "{t}: {x:?} {y:?}");
                    prop_assert!(angle(x.rotation, y.rotation) < 1e-3, "{t}");
                    continue;
                }
                // Inside a split segment: within β of the segment's change, after moving the
                // time by at most β of its length (the stated bound), plus float slack.
                let (f0, f1) = (frames[i - 1], frames[i]);
                let len = f64::from(f1 - f0);
                let (ka, kb) = (track.key(i - 1), track.key(i));
                let change = (ka.translation - kb.translation).abs().max_element() as f64;
                let turn = angle(ka.rotation, kb.rotation);
                let window: Vec<_> = (0..=40).map(|k| f64::from(t) + len * beta * (f64::from(k) / 20.0 - 1.0)).map(|s| track.sample(s)).collect();
                for c in 0..3 {
                    let lo = window.iter().map(|s| s.translation[c]).fold(f32::INFINITY, f32::min) as f64;
                    let hi = window.iter().map(|s| s.translation[c]).fold(f32::NEG_INFINITY, f32::max) as f64;
                    let v = f64::from(y.translation[c]);
                    let slack = beta * change + 1e-4;
                    prop_assert!(v >= lo - slack && v <= hi + slack, "{t} axis {c}: {v} not in [{lo}, {hi}] ± {slack}");
                }
                let nearest = window.iter().map(|s| angle(s.rotation, y.rotation)).fold(f64::INFINITY, f64::min);
                prop_assert!(nearest <= beta * turn + 0.05, "{t}: {nearest}° (β {beta}, turn {turn}°)");
            }
        }
        for track in src.morph_tracks() {
            let got = out.morph_track(track.name().bytes()).unwrap();
            for t in from..=to {
                prop_assert!((track.sample(t) - got.sample(t)).abs() < 1e-5);
            }
        }
    }

    #[test]
    fn edit_reduce_stays_within_its_bounds_at_every_frame(m in dense(90), fast in any::<bool>()) {
        let method = if fast { ReduceMethod::Fast } else { ReduceMethod::Fitted };
        let options = ReduceOptions { method, ..ReduceOptions::default() };
        let (out, report) = reduce(&m, &options);
        let e = measure(&m, &out);
        prop_assert!(e.within(&options.tolerance), "{:?}", e);
        prop_assert!(report.after.total() <= report.before.total());
    }
}

/// Rotation angle between two quaternions, degrees.
fn angle(a: Quat, b: Quat) -> f64 {
    vmdkit::math::quat_angle(a.normalize(), b.normalize()).to_degrees()
}
