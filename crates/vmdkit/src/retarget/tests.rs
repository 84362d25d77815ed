//! Round trips: motions on a skeleton → keypoints of each layout → retarget → played back.

use super::*;
use crate::edit::Tolerance;
use crate::example::standard_model;
use crate::format::BoneKey;
use crate::keypoints::{Smoothing, Units, UpAxis};
use crate::text::KeyName;
use glam::{Quat, Vec3};

/// A deterministic wobble of every major bone, with turns and a crouch.
pub(crate) fn test_motion(frames: u32) -> Motion {
    let mut m = Motion::new(crate::text::LongName::encode("test").0);
    let bones: [(&str, [f32; 3]); 18] = [
        ("下半身", [0.3, 0.5, 0.2]),
        ("上半身", [0.4, 0.6, 0.3]),
        ("上半身2", [0.2, 0.3, 0.2]),
        ("首", [0.3, 0.4, 0.2]),
        ("頭", [0.4, 0.5, 0.3]),
        ("左肩", [0.1, 0.1, 0.2]),
        ("右肩", [0.1, 0.2, 0.1]),
        ("左腕", [0.8, 0.6, 0.9]),
        ("右腕", [0.7, 0.9, 0.8]),
        ("左ひじ", [0.3, 1.2, 0.3]),
        ("右ひじ", [0.2, 1.1, 0.4]),
        ("左手首", [0.5, 0.4, 0.5]),
        ("右手首", [0.4, 0.5, 0.4]),
        ("左足", [0.9, 0.3, 0.3]),
        ("右足", [0.8, 0.3, 0.4]),
        ("左ひざ", [1.0, 0.0, 0.0]),
        ("右ひざ", [1.1, 0.0, 0.0]),
        ("左足首", [0.4, 0.3, 0.2]),
    ];
    for f in 0..=frames {
        let t = f as f32 / 30.0;
        for (i, (name, amp)) in bones.iter().enumerate() {
            let phase = i as f32 * 0.7;
            let mut e = Vec3::new(
                amp[0] * (1.3 * t + phase).sin(),
                amp[1] * (0.9 * t + 2.0 * phase).sin(),
                amp[2] * (1.7 * t + 0.5 * phase).cos(),
            );
            if name.contains("ひざ") {
                e = Vec3::new(-(0.2 + amp[0] * (1.0 + (1.1 * t + phase).sin())), 0.0, 0.0);
            }
            if name.contains("ひじ") {
                // Elbows bend forward, never backward.
                e.y = (e.y.abs() + 0.05) * if name.starts_with('左') { 1.0 } else { -1.0 };
            }
            let mut key = BoneKey::new(KeyName::encode(name).0, f);
            key.rotation = Quat::from_euler(glam::EulerRot::YXZ, e.y, e.x, e.z);
            m.bones.push(key);
        }
        let mut centre = BoneKey::new(KeyName::encode("センター").0, f);
        centre.translation = Vec3::new(2.0 * (0.5 * t).sin(), -1.5 * (0.8 * t).sin().abs(), t);
        centre.rotation = Quat::from_rotation_y(2.5 * t); // turns past 180°
        m.bones.push(centre);
    }
    m
}

fn round_trip(layout: &str, motion: &Motion, ik: bool) -> RetargetReport {
    let skeleton = Skeleton::new(&standard_model());
    let layout = Layout::builtin(layout).unwrap();
    let kp_options = KeypointOptions {
        fps: 30.0,
        axes: InputAxes { up: UpAxis::Y, left_handed: false },
        units: Units::Metres,
    };
    let kp = keypoints_from_motion(motion, &skeleton, &layout, &kp_options).unwrap();
    let options = RetargetOptions {
        fps: 30.0,
        smoothing: Smoothing::None,
        floor: FloorMode::Keep,
        keys: KeyMode::Dense,
        ik,
        units: Some(Units::Metres),
        ..RetargetOptions::default()
    };
    retarget(&kp, &layout, &skeleton, &options).unwrap().report
}

#[test]
fn h36m_round_trip_on_the_same_skeleton_is_exact() {
    let report = round_trip("h36m", &test_motion(150), false);
    for r in &report.residuals {
        eprintln!("{:>12} rms {:.5} max {:.5}", r.joint, r.rms, r.max);
    }
    for d in &report.directions {
        eprintln!(
            "{:>14}-{:<14} mean {:.4}° max {:.4}°",
            d.from, d.to, d.mean_degrees, d.max_degrees
        );
    }
    eprintln!("scale {} ", report.scale);
    assert!((report.scale - 1.0 / 0.08).abs() < 1e-3, "{}", report.scale);
    let worst = report.residuals.iter().map(|r| r.max).fold(0.0, f64::max);
    assert!(worst < 0.02, "{worst}");
    let _ = Tolerance::default();
}

#[test]
fn debug_solver_residuals() {
    let skeleton = Skeleton::new(&standard_model());
    let rig = rig::Rig::new(&skeleton).unwrap();
    let motion = test_motion(150);
    let times: Vec<f64> = (0..150).map(|f| f as f64).collect();
    let obs = inverse::role_positions(&rig, &skeleton, &motion, &times);
    let mut solver = solve::Solver::new(&rig);
    let mut worst = [0.0f64; 43];
    for o in &obs {
        solver.frame(o);
        for r in Role::ALL {
            if let Some(a) = rig.anchor(r) {
                let d = (solver.state.point(&rig, a) - o[r as usize].0).length();
                worst[r as usize] = worst[r as usize].max(d);
            }
        }
    }
    for r in Role::ALL {
        eprintln!("{r} {:.6}", worst[r as usize]);
    }
}
