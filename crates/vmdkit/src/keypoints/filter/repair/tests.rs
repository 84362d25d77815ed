use super::*;
use crate::keypoints::filter::test_rng::Rng;

const FPS: f32 = 30.0;

/// `pairs` left/right pairs (joints 2i and 2i + 1) moving on random smooth paths, in cm: sums
/// of a few sinusoids between 0.2 and 2 Hz around points 10 to 40 cm apart, so the two joints
/// of a pair never meet.
fn smooth_pairs(frames: usize, pairs: usize, seed: u64) -> Keypoints {
    let mut rng = Rng::new(seed);
    let joints = 2 * pairs;
    let mut kp = Keypoints::missing(frames, joints);
    for j in 0..joints {
        let side = if j % 2 == 0 { 1.0 } else { -1.0 };
        let base = Vec3::new(side * (5.0 + 15.0 * rng.uniform() as f32), 100.0, 0.0);
        let waves: Vec<(Vec3, f32, f32)> = (0..3)
            .map(|_| {
                let amplitude = Vec3::new(2.0, 8.0, 15.0) * rng.uniform() as f32;
                let hz = 0.2 + 1.8 * rng.uniform() as f32;
                (amplitude, hz, std::f32::consts::TAU * rng.uniform() as f32)
            })
            .collect();
        for f in 0..frames {
            let t = f as f32 / FPS;
            let offset: Vec3 = waves
                .iter()
                .map(|(a, hz, phase)| *a * (std::f32::consts::TAU * hz * t + phase).sin())
                .sum();
            kp.positions[f * joints + j] = base + offset;
        }
    }
    kp
}

fn all_pairs(kp: &Keypoints) -> Vec<(usize, usize)> {
    (0..kp.joint_count / 2).map(|i| (2 * i, 2 * i + 1)).collect()
}

fn swap_frames(kp: &mut Keypoints, (l, r): (usize, usize), frames: std::ops::Range<usize>) {
    for f in frames {
        kp.positions.swap(f * kp.joint_count + l, f * kp.joint_count + r);
    }
}

#[test]
fn clean_trajectories_are_not_swapped() {
    for seed in 0..20 {
        let mut kp = smooth_pairs(600, 4, seed);
        let pairs = all_pairs(&kp);
        let before = kp.clone();
        assert_eq!(repair_swaps(&mut kp, &pairs), 0, "seed {seed}");
        assert_eq!(kp, before);
    }
}

#[test]
fn noise_alone_is_not_swapped_and_swaps_in_noise_are_found() {
    let mut rng = Rng::new(11);
    for seed in 0..10 {
        let mut kp = smooth_pairs(600, 4, 200 + seed);
        for p in &mut kp.positions {
            *p += Vec3::new(rng.normal() as f32, rng.normal() as f32, rng.normal() as f32);
        }
        let pairs = all_pairs(&kp);
        let noisy = kp.clone();
        assert_eq!(repair_swaps(&mut kp, &pairs), 0, "seed {seed}");
        swap_frames(&mut kp, pairs[1], 100..101);
        swap_frames(&mut kp, pairs[2], 300..303);
        assert_eq!(repair_swaps(&mut kp, &pairs), 4, "seed {seed}");
        assert_eq!(kp, noisy);
    }
}

#[test]
fn crossing_legs_are_not_swapped() {
    // Ankles of a cross step: they pass each other sideways, 5 cm apart front to back, at up
    // to 6 cm per frame; both coincide in x at every crossing.
    let mut kp = Keypoints::missing(300, 2);
    for f in 0..300 {
        let x = 30.0 * (std::f32::consts::TAU * f as f32 / FPS / 1.5).sin();
        kp.positions[f * 2] = Vec3::new(x, 10.0, 2.5);
        kp.positions[f * 2 + 1] = Vec3::new(-x, 10.0 + 0.2 * x.abs(), -2.5);
    }
    assert_eq!(repair_swaps(&mut kp, &[(0, 1)]), 0);
}

#[test]
fn injected_swaps_are_all_found() {
    for seed in 0..10 {
        let clean = smooth_pairs(400, 3, 100 + seed);
        let mut kp = clean.clone();
        let pairs = all_pairs(&kp);
        let mut injected = 0;
        for (p, &pair) in pairs.iter().enumerate() {
            for (i, start) in (10 + 7 * p..390).step_by(25).enumerate() {
                let length = 1 + i % 3;
                swap_frames(&mut kp, pair, start..start + length);
                injected += length;
            }
        }
        kp.confidence = Some(vec![1.0; kp.positions.len()]);
        assert_eq!(repair_swaps(&mut kp, &pairs), injected, "seed {seed}");
        assert_eq!(kp.positions, clean.positions, "seed {seed}");
    }
}

#[test]
fn swaps_at_the_ends_and_next_to_missing_samples_are_left() {
    let clean = smooth_pairs(50, 1, 5);
    let mut kp = clean.clone();
    swap_frames(&mut kp, (0, 1), 0..1);
    swap_frames(&mut kp, (0, 1), 49..50);
    swap_frames(&mut kp, (0, 1), 20..21);
    kp.positions[19 * 2] = Vec3::NAN;
    assert_eq!(repair_swaps(&mut kp, &[(0, 1)]), 0);
}

#[test]
fn spikes_are_rejected_and_motion_kept() {
    let clean = smooth_pairs(300, 2, 9);
    let mut kp = clean.clone();
    let spikes = [(5, 0), (50, 1), (51, 2), (200, 3), (299, 0)];
    for &(f, j) in &spikes {
        kp.positions[f * 4 + j] += Vec3::new(0.0, 40.0, -30.0);
    }
    assert_eq!(reject_outliers(&mut kp, 6.0), spikes.len());
    for (i, (a, b)) in kp.positions.iter().zip(&clean.positions).enumerate() {
        if spikes.contains(&(i / 4, i % 4)) {
            assert!(a.is_nan());
        } else {
            assert_eq!(a, b);
        }
    }
    let mut clean = clean;
    assert_eq!(reject_outliers(&mut clean, 6.0), 0);
}

#[test]
fn fast_joints_are_not_spikes() {
    // A wrist circling at 1.5 turns per second, radius 40 cm, among still joints.
    let mut kp = Keypoints::missing(200, 3);
    for f in 0..200 {
        let a = std::f32::consts::TAU * 1.5 * f as f32 / FPS;
        kp.positions[f * 3] = Vec3::ZERO;
        kp.positions[f * 3 + 1] = Vec3::new(40.0 * a.cos(), 40.0 * a.sin(), 0.0);
        kp.positions[f * 3 + 2] = Vec3::new(0.0, 1.0, 0.001 * (f % 2) as f32);
    }
    assert_eq!(reject_outliers(&mut kp, 6.0), 0);
}
