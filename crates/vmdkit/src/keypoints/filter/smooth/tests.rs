use super::*;
use crate::keypoints::filter::test_rng::Rng;

const FPS: f64 = 30.0;

fn series_kp(values: &[f64]) -> Keypoints {
    let mut kp = Keypoints::missing(values.len(), 1);
    for (p, v) in kp.positions.iter_mut().zip(values) {
        *p = Vec3::new(*v as f32, -(*v as f32), 1.0);
    }
    kp
}

fn smoothed(values: &[f64], smoothing: Smoothing) -> Vec<f64> {
    let mut kp = series_kp(values);
    smooth(&mut kp, FPS, smoothing);
    kp.positions.iter().map(|p| p.x as f64).collect()
}

fn sine(frames: usize, hz: f64, amplitude: f64) -> Vec<f64> {
    (0..frames).map(|f| amplitude * (std::f64::consts::TAU * hz * f as f64 / FPS).sin()).collect()
}

fn rms(a: &[f64], b: &[f64]) -> f64 {
    (a.iter().zip(b).map(|(x, y)| (x - y).powi(2)).sum::<f64>() / a.len() as f64).sqrt()
}

#[test]
fn presets_and_invalid_cutoffs() {
    assert_eq!(Smoothing::None.cutoff_hz(), None);
    assert!(Smoothing::Light.cutoff_hz() > Smoothing::Normal.cutoff_hz());
    assert!(Smoothing::Normal.cutoff_hz() > Smoothing::Strong.cutoff_hz());
    let noisy: Vec<f64> = (0..50).map(|f| (f % 2) as f64).collect();
    for smoothing in [
        Smoothing::None,
        Smoothing::Custom { cutoff_hz: 0.0 },
        Smoothing::Custom { cutoff_hz: f64::NAN },
        Smoothing::Custom { cutoff_hz: 15.0 },
    ] {
        assert_eq!(smoothed(&noisy, smoothing), noisy, "{smoothing:?}");
    }
}

#[test]
fn zero_phase_below_the_cutoff() {
    // 1 Hz, 10 cm, with peaks on frames 7, 37, 67, …
    let values: Vec<f64> =
        (0..300).map(|f| 10.0 * (std::f64::consts::TAU * (f as f64 - 7.0) / FPS).cos()).collect();
    for smoothing in [Smoothing::Light, Smoothing::Normal, Smoothing::Strong] {
        let out = smoothed(&values, smoothing);
        for peak in (7usize..300).step_by(30) {
            let window = peak.saturating_sub(5)..(peak + 6).min(300);
            let best = window.clone().max_by(|&a, &b| out[a].total_cmp(&out[b])).unwrap();
            assert_eq!(best, peak, "{smoothing:?}");
            assert!((out[peak] - 10.0).abs() < 0.3, "{smoothing:?} {}", out[peak]);
        }
        // No shift anywhere: a lag of even a tenth of a frame would show here.
        let worst = out.iter().zip(&values).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        assert!(worst < 0.3, "{smoothing:?}: {worst}");
    }
}

#[test]
fn well_above_the_cutoff_is_removed() {
    let values = sine(300, 12.0, 10.0);
    let out = smoothed(&values, Smoothing::Normal);
    // The odd extension pins each end sample to its value (the reflection is antisymmetric
    // about it), so the ends are judged by the RMS below only.
    let peak = out[5..295].iter().fold(0.0f64, |m, v| m.max(v.abs()));
    assert!(peak < 1.0, "{peak}");
    let zeros = vec![0.0; 300];
    assert!(rms(&out, &zeros) < 0.1 * rms(&values, &zeros));
}

#[test]
fn constants_stay_exact_and_ramps_stay_ramps() {
    let constant = vec![12.345f32 as f64; 200];
    for smoothing in [Smoothing::Light, Smoothing::Normal, Smoothing::Strong] {
        assert_eq!(smoothed(&constant, smoothing), constant);
        let ramp: Vec<f64> = (0..300).map(|f| 5.0 + 0.25 * f as f64).collect();
        let out = smoothed(&ramp, smoothing);
        let span = ramp[299] - ramp[0];
        for (a, b) in out.iter().zip(&ramp) {
            assert!((a - b).abs() <= 1e-4 * span, "{smoothing:?}: {a} vs {b}");
        }
    }
}

#[test]
fn noise_is_reduced_more_by_stronger_settings() {
    let mut rng = Rng::new(7);
    let clean: Vec<f64> = (0..900)
        .map(|f| {
            let t = f as f64 / FPS;
            20.0 * (0.7 * t).sin() + 8.0 * (2.3 * t + 1.0).cos()
        })
        .collect();
    let noisy: Vec<f64> = clean.iter().map(|v| v + rng.normal()).collect();
    let mut error = rms(&noisy, &clean);
    assert!((error - 1.0).abs() < 0.1);
    for smoothing in [Smoothing::Light, Smoothing::Normal, Smoothing::Strong] {
        let after = rms(&smoothed(&noisy, smoothing), &clean);
        assert!(after < error, "{smoothing:?}: {after} ≥ {error}");
        error = after;
    }
    assert!(error < 0.6, "{error}");
}

#[test]
fn missing_samples_split_runs() {
    let mut values = vec![0.0; 40];
    values.extend([f64::NAN; 3]);
    values.extend([100.0; 40]);
    values.push(f64::NAN);
    values.extend((0..5).map(|f| f as f64)); // too short to filter
    let mut kp = series_kp(&values);
    for f in 40..43 {
        kp.positions[f] = Vec3::NAN;
    }
    smooth(&mut kp, FPS, Smoothing::Strong);
    let x: Vec<f64> = kp.positions.iter().map(|p| p.x as f64).collect();
    assert!(x[..40].iter().all(|&v| v == 0.0));
    assert!(x[40..43].iter().all(|v| v.is_nan()));
    assert!(x[43..83].iter().all(|&v| v == 100.0));
    assert!(x[83].is_nan());
    assert_eq!(x[84..], [0.0, 1.0, 2.0, 3.0, 4.0]);
    assert!(kp.positions[..40].iter().all(|p| p.z == 1.0));
}

fn turning(frames: usize, degrees_per_frame: f32) -> Vec<Quat> {
    (0..frames)
        .map(|f| Quat::from_rotation_y((f as f32 * degrees_per_frame).to_radians()))
        .collect()
}

// Many solvers return the quaternion with w ≥ 0, which flips sign each time the angle passes
// an odd multiple of 180°.
fn canonical(q: Quat) -> Quat {
    if q.w < 0.0 {
        -q
    } else {
        q
    }
}

#[test]
fn continuity_keeps_speed_past_half_a_turn() {
    let truth = turning(90, 7.0); // 623°
    let mut q: Vec<Quat> = truth.iter().map(|q| canonical(*q)).collect();
    assert!(q.windows(2).any(|w| w[0].dot(w[1]) < 0.0));
    quaternion_continuity(&mut q);
    assert!(q.windows(2).all(|w| w[0].dot(w[1]) > 0.0));
    let mut smoothed = truth.iter().map(|q| canonical(*q)).collect::<Vec<_>>();
    smooth_rotations(&mut smoothed, FPS, Smoothing::Normal);
    for w in smoothed.windows(2) {
        let speed = w[0].angle_between(w[1]).to_degrees();
        assert!((speed - 7.0).abs() < 0.05, "{speed}");
        assert!(w[1].is_normalized());
    }
}

#[test]
fn smoothing_noisy_rotations_lowers_the_error() {
    let mut rng = Rng::new(3);
    let truth = turning(300, 2.0);
    let mut q: Vec<Quat> = truth
        .iter()
        .map(|t| {
            let axis = Vec3::new(rng.normal() as f32, rng.normal() as f32, rng.normal() as f32);
            let noise =
                Quat::from_axis_angle(axis.normalize(), (2.0 * rng.normal() as f32).to_radians());
            canonical(noise * *t)
        })
        .collect();
    let error = |q: &[Quat]| {
        q.iter().zip(&truth).map(|(a, b)| a.angle_between(*b).to_degrees()).sum::<f32>()
            / q.len() as f32
    };
    let before = error(&q);
    smooth_rotations(&mut q, FPS, Smoothing::Normal);
    let after = error(&q);
    assert!(after < 0.75 * before, "{after} vs {before}");
}
