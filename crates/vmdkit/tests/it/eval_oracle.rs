//! An independent oracle: vmdkit's sampling against mmd-anim-runtime 0.5.3 (with
//! mmd-anim-format 0.5.3 reading the file), over every motion in the shared corpus, at every
//! frame and half frame of every track.
//!
//! The oracle is built with `build_mmd_registered_pair_clip` (the peer's row-based decoding of
//! the interpolation block) on a model of unconnected root bones, so its samples are local
//! values with no skeleton applied.
//!
//! **Tolerance.** mmd-anim-runtime solves x(s) = p by 12 bisection steps from s = 0.5 with no
//! tolerance test, so its s is within 2⁻¹³ ≈ 1.2e-4 of the root. A curve's slope dy/ds is at
//! most 3 (its Bernstein coefficients 3·y1, 3·(y2 − y1), 3·(1 − y2) lie in [−3, 3]), so its
//! weight is within W = 3·2⁻¹³ ≈ 3.7e-4 of exact; ours is within 3e-10. A channel blending a
//! to b may therefore differ by W·|b − a|, and a rotation by W·θ (θ the segment's angle: slerp
//! is linear in angle). On top of that: f32 rounding of both blends (1e-6 relative), glam's
//! approximate acos/sin in the peer's slerp, and the peer leaving quaternions within 2e-4 of
//! unit length unnormalised (about 1e-4·θ of direction): EPS below.
//!
//! **Known differences, asserted rather than hidden** (reference §2.1, §4, §9.2, §12):
//! * duplicate (name, frame) keys: the peer keeps all of them; its segment *into* a duplicated
//!   frame heads for the first one, while vmdkit keeps the last (§4, §12 row 11). Those samples
//!   are checked against the first-duplicate rule instead;
//! * its row-0 decoder (`build_clip_from_import`) reads Z.x1 and R.x1 from the physics bytes
//!   (§2.1, §12 row 2);
//! * its camera sampler reads each curve as (x1, y1, x2, y2), but MMD stores (x1, x2, y1, y2)
//!   (§3.2);
//! * its registered path projects rotations onto a model's fixed axes (§9.2), a model rule that
//!   motion-level sampling does not apply.

use mmd_anim_format::{
    build_clip_from_import, build_mmd_registered_pair_clip, import_vmd_motion, normalize_vmd_name,
    parse_vmd_animation, sample_vmd_camera_frames,
};
use mmd_anim_runtime::{
    AnimationClip, BoneIndex, BoneInit, ClipSample, InterpolationScalar, ModelArena, MorphIndex,
};
use std::collections::{HashMap, HashSet};
use vmdkit::eval::{BoneSample, MotionSampler, Segment};
use vmdkit::Curve;
use vmdkit::Motion;
use vmdkit::{BoneKey, ReadOptions, Section};
use vmdkit::{DecodeStatus, KeyName, TextEncoding};

/// Bound on the peer's curve weight error: 3·2⁻¹³.
const W: f64 = 3.0 / 8192.0;
/// Rounding allowance for positions and weights, relative to the magnitudes blended.
const EPS_REL: f64 = 1e-6;
/// Rotation allowance: absolute radians, and relative to the segment's angle.
const EPS_ROT: f64 = 2e-5;
const EPS_ROT_REL: f64 = 2e-4;

fn dquat(q: [f32; 4]) -> [f64; 4] {
    let n = q.iter().map(|&c| f64::from(c).powi(2)).sum::<f64>().sqrt();
    q.map(|c| f64::from(c) / n)
}

/// Angle between two rotations, accurate for small angles.
fn angle(a: [f32; 4], b: [f32; 4]) -> f64 {
    let (a, mut b) = (dquat(a), dquat(b));
    if (0..4).map(|i| a[i] * b[i]).sum::<f64>() < 0.0 {
        b = b.map(|c| -c);
    }
    let norm = |s: f64| (0..4).map(|i| (b[i] + s * a[i]).powi(2)).sum::<f64>().sqrt();
    4.0 * norm(-1.0).atan2(norm(1.0))
}

fn arr(q: glam::Quat) -> [f32; 4] {
    q.to_array()
}

/// The largest deviations seen, in absolute terms and as a fraction of the blended span.
#[derive(Default, Debug)]
struct Stats {
    samples: u64,
    pos_err: f64,
    pos_ratio: f64,
    rot_err: f64,
    rot_ratio: f64,
    morph_err: f64,
    duplicate_samples: u64,
    /// Our tracks the peer merges with another (names cut mid-character), left out.
    unmapped_tracks: usize,
}

/// Checks one channel value against the oracle with the bound for a blend from `a` to `b`.
fn check_axis(stats: &mut Stats, ours: f32, peer: f32, a: f32, b: f32, what: &dyn Fn() -> String) {
    let (span, err) = (f64::from(b - a).abs(), f64::from(ours - peer).abs());
    let rounding = EPS_REL * (1.0 + f64::from(a.abs() + b.abs()));
    let tol = W * span + rounding;
    assert!(
        err <= tol,
        "{}: position {ours} vs oracle {peer} (blend {a} → {b}, tolerance {tol:e})",
        what()
    );
    stats.pos_err = stats.pos_err.max(err);
    if span > 0.0 {
        // The weight error this implies, beyond rounding.
        stats.pos_ratio = stats.pos_ratio.max((err - rounding).max(0.0) / span);
    }
}

fn check_bone(
    stats: &mut Stats,
    ours: BoneSample,
    peer: &mmd_anim_runtime::BoneSample,
    a: BoneSample,
    b: BoneSample,
    what: &dyn Fn() -> String,
) {
    let p = [peer.position.x, peer.position.y, peer.position.z];
    let axes = ours
        .translation
        .to_array()
        .into_iter()
        .zip(p)
        .zip(a.translation.to_array())
        .zip(b.translation.to_array());
    for (((o, p), a), b) in axes {
        check_axis(stats, o, p, a, b, what);
    }
    let peer_q = [peer.rotation.x, peer.rotation.y, peer.rotation.z, peer.rotation.w];
    let (theta, err) = (angle(arr(a.rotation), arr(b.rotation)), angle(arr(ours.rotation), peer_q));
    let tol = (W + EPS_ROT_REL) * theta + EPS_ROT;
    assert!(err <= tol, "{}: rotation {:?} vs oracle {peer_q:?}: {err:e} rad (segment {theta} rad, tolerance {tol:e})", what(), ours.rotation);
    stats.rot_err = stats.rot_err.max(err);
    if theta > 0.0 {
        stats.rot_ratio = stats.rot_ratio.max((err - EPS_ROT).max(0.0) / theta);
    }
}

/// Keys of each (name, frame) in file order, to find the first and last of duplicates.
fn keys_by_name_frame<'a>(
    names: impl Iterator<Item = (&'a [u8], u32)>,
) -> HashMap<(Vec<u8>, u32), Vec<usize>> {
    let mut map: HashMap<(Vec<u8>, u32), Vec<usize>> = HashMap::new();
    for (k, (name, frame)) in names.enumerate() {
        map.entry((name.to_vec(), frame)).or_default().push(k);
    }
    map
}

/// The peer's clip and, per peer index, our track index.
struct Peer {
    clip: AnimationClip,
    bone_ids: HashMap<Vec<u8>, BoneIndex>,
    bone_track: HashMap<u32, usize>,
    morph_track: HashMap<u32, usize>,
}

/// Assigns peer indices by the peer's (UTF-8) names and maps them to our (raw byte) tracks
/// through the keys, which both libraries keep in file order. A peer name that covers several
/// raw names (undecodable bytes all becoming U+FFFD) is left out.
fn index_names<'a>(
    peer_names: impl Iterator<Item = Vec<u8>>,
    ours: impl Iterator<Item = &'a [u8]>,
    sampler_names: Vec<&[u8]>,
) -> (HashMap<Vec<u8>, u32>, HashMap<u32, usize>) {
    let ours_index: HashMap<&[u8], usize> =
        sampler_names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let mut ids: HashMap<Vec<u8>, u32> = HashMap::new();
    let mut map: HashMap<u32, usize> = HashMap::new();
    let mut bad = HashSet::new();
    for (peer, raw) in peer_names.zip(ours) {
        let next = ids.len() as u32;
        let id = *ids.entry(peer).or_insert(next);
        let track = ours_index[raw];
        if *map.entry(id).or_insert(track) != track {
            bad.insert(id);
        }
    }
    for id in bad {
        map.remove(&id);
    }
    (ids, map)
}

fn peer_for(bytes: &[u8], motion: &Motion, sampler: &MotionSampler) -> Option<Peer> {
    let import = import_vmd_motion(bytes).ok()?;
    if import.bone_keyframes.len() != motion.bones.len()
        || import.morph_keyframes.len() != motion.morphs.len()
    {
        return None;
    }
    let (bone_ids, bone_track) = index_names(
        import.bone_keyframes.iter().map(|k| k.bone_name_normalized.clone()),
        motion.bones.iter().map(|k| k.name.bytes()),
        sampler.bone_names().collect(),
    );
    let (morph_ids, morph_track) = index_names(
        import.morph_keyframes.iter().map(|k| normalize_vmd_name(&k.0)),
        motion.morphs.iter().map(|k| k.name.bytes()),
        sampler.morph_names().collect(),
    );
    let bone_ids: HashMap<Vec<u8>, BoneIndex> =
        bone_ids.into_iter().map(|(n, i)| (n, BoneIndex(i))).collect();
    let morph_ids = morph_ids.into_iter().map(|(n, i)| (n, MorphIndex(i))).collect();
    let bones =
        (0..sampler.bone_count().max(1)).map(|_| BoneInit::new(None, Default::default())).collect();
    let model = ModelArena::new(bones).unwrap();
    let clip =
        build_mmd_registered_pair_clip(&model, &import, &bone_ids, &morph_ids, &HashMap::new(), 0)
            .unwrap();
    Some(Peer { clip, bone_ids, bone_track, morph_track })
}

/// What the peer computes in a segment into a duplicated frame: from the last key at the start
/// frame to the *first* key at the end frame, with the first key's curve.
fn first_duplicate_rule(motion: &Motion, from: usize, to: usize, t: f64) -> BoneSample {
    let mut two = Motion::new(motion.header.model_name);
    two.bones = vec![motion.bones[from], motion.bones[to]];
    let sampler = MotionSampler::new(&two);
    sampler.bone_tracks()[0].sample(t)
}

/// The names of our tracks (in track order) that no peer track maps to.
fn unmapped<'a>(
    names: impl Iterator<Item = KeyName> + 'a,
    peer_tracks: &'a HashMap<u32, usize>,
) -> impl Iterator<Item = KeyName> + 'a {
    names.enumerate().filter(|(k, _)| !peer_tracks.values().any(|v| v == k)).map(|(_, n)| n)
}

fn compare_file(path: &str, bytes: &[u8], stats: &mut Stats) -> bool {
    let Ok(parsed) = Motion::parse_with(bytes, ReadOptions::LENIENT) else {
        return false;
    };
    let motion = parsed.motion;
    let sampler = MotionSampler::new(&motion);
    let Some(peer) = peer_for(bytes, &motion, &sampler) else {
        return false;
    };
    // The peer groups keys by decoded (UTF-8) name, vmdkit by raw bytes (reference §5). They
    // differ only where distinct raw names decode alike: names cut at 15 bytes inside
    // different characters, whose dangling lead bytes both become U+FFFD.
    let merged = unmapped(sampler.bone_tracks().iter().map(|t| *t.name()), &peer.bone_track);
    let merged_morphs =
        unmapped(sampler.morph_tracks().iter().map(|t| *t.name()), &peer.morph_track);
    for name in merged.chain(merged_morphs) {
        let status = name.decode(TextEncoding::ShiftJis).status;
        assert_eq!(status, DecodeStatus::CutMidCharacter, "{path}: {name:?} merged by the peer");
        stats.unmapped_tracks += 1;
    }
    let Some(last) = sampler.last_frame() else {
        return true;
    };
    let bone_keys = keys_by_name_frame(motion.bones.iter().map(|k| (k.name.bytes(), k.frame)));
    let morph_keys = keys_by_name_frame(motion.morphs.iter().map(|k| (k.name.bytes(), k.frame)));
    let dup_frames: HashSet<(Section, Vec<u8>, u32)> =
        sampler.duplicates().iter().map(|d| (d.section, d.name.clone(), d.frame)).collect();

    let mut playhead = sampler.playhead();
    let mut ours = sampler.new_sample();
    let mut theirs = ClipSample::default();
    for step in 0..=2 * (u64::from(last) + 2) {
        let t = step as f64 * 0.5 - 1.0;
        sampler.sample_into(&mut playhead, t, &mut ours);
        peer.clip.sample_into(t as f32, &mut theirs);
        for s in theirs.bone_samples() {
            let Some(&k) = peer.bone_track.get(&s.bone.0) else {
                continue;
            };
            let track = &sampler.bone_tracks()[k];
            let name = track.name().bytes();
            let what = || format!("{path}: bone {} at frame {t}", track.name().to_string_lossy());
            stats.samples += 1;
            match track.timeline().locate(t) {
                Segment::Key(i) => {
                    check_bone(stats, ours.bones[k], s, track.key(i), track.key(i), &what)
                }
                Segment::Between { i, .. } => {
                    let (f1, f2) = (track.frames()[i], track.frames()[i + 1]);
                    let (a, b) = (track.key(i), track.key(i + 1));
                    if dup_frames.contains(&(Section::Bone, name.to_vec(), f2)) {
                        let from = *bone_keys[&(name.to_vec(), f1)].last().unwrap();
                        let first = bone_keys[&(name.to_vec(), f2)][0];
                        let rule = first_duplicate_rule(&motion, from, first, t);
                        let b_first = first_duplicate_rule(&motion, from, first, f64::from(f2));
                        check_bone(stats, rule, s, a, b_first, &what);
                        stats.duplicate_samples += 1;
                    } else {
                        check_bone(stats, ours.bones[k], s, a, b, &what);
                    }
                }
                other => panic!("{}: a segment this test does not know: {other:?}", what()),
            }
        }
        for s in theirs.morph_samples() {
            let Some(&k) = peer.morph_track.get(&s.morph.0) else {
                continue;
            };
            let track = &sampler.morph_tracks()[k];
            let name = track.name().bytes();
            let (ours, (a, b)) = match track.timeline().locate(t) {
                Segment::Key(i) => (ours.morphs[k], (track.weights()[i], track.weights()[i])),
                Segment::Between { i, p } => {
                    let f2 = track.frames()[i + 1];
                    let a = track.weights()[i];
                    if dup_frames.contains(&(Section::Morph, name.to_vec(), f2)) {
                        // Linear towards the first key at the duplicated frame.
                        let b = motion.morphs[morph_keys[&(name.to_vec(), f2)][0]].weight;
                        stats.duplicate_samples += 1;
                        ((f64::from(a) + (f64::from(b) - f64::from(a)) * p) as f32, (a, b))
                    } else {
                        (ours.morphs[k], (a, track.weights()[i + 1]))
                    }
                }
                other => panic!("{path}: a segment this test does not know: {other:?}"),
            };
            let err = f64::from(ours - s.weight).abs();
            let tol = EPS_REL * (1.0 + f64::from(a.abs() + b.abs()));
            assert!(
                err <= tol,
                "{path}: morph {} at {t}: {ours} vs oracle {}",
                track.name().to_string_lossy(),
                s.weight
            );
            stats.morph_err = stats.morph_err.max(err);
        }
    }
    true
}

#[test]
fn bones_and_morphs_match_mmd_anim_runtime_over_the_corpus() {
    let Some(manifest) = test_corpus::corpus_or_skip("eval_oracle") else {
        return;
    };
    let mut stats = Stats::default();
    let (mut files, mut skipped) = (0, Vec::new());
    for entry in manifest.of_kind("vmd").filter(|e| e.parse_ok()) {
        let bytes = entry.bytes();
        if compare_file(&entry.local_path, &bytes, &mut stats) {
            files += 1;
        } else {
            skipped.push(entry.local_path.clone());
        }
    }
    println!(
        "oracle: {files} files, {} samples, {} in segments into duplicated frames",
        stats.samples, stats.duplicate_samples
    );
    println!(
        "oracle: max |Δposition| {:.3e} (beyond rounding, {:.3e} of the span), max rotation {:.3e} rad ({:.3e} of the segment angle), max |Δmorph| {:.3e}",
        stats.pos_err, stats.pos_ratio, stats.rot_err, stats.rot_ratio, stats.morph_err
    );
    println!(
        "oracle: files the peer cannot read: {skipped:?}; tracks it merges (names cut mid-character): {}",
        stats.unmapped_tracks
    );
    assert!(files >= 80, "only {files} files compared");
    assert!(stats.samples > 2_000_000);
    // The corpus has duplicates (Drink.vmd, gunner.vmd, MMDAgent-EX, the Mei expressions), so
    // the documented difference was exercised, not just tolerated.
    assert!(stats.duplicate_samples > 0);
}

#[test]
fn twelve_step_bisection_stays_within_the_stated_bound() {
    let mut worst = (0.0f64, Curve::LINEAR, 0.0);
    let grid = || (0..=126u8).step_by(7).chain([127]);
    for x1 in grid() {
        for x2 in grid() {
            for (y1, y2) in [(0, 0), (0, 127), (127, 0), (127, 127), (20, 107)] {
                let ours = Curve::new(x1, y1, x2, y2);
                let theirs = InterpolationScalar { x1, y1, x2, y2 };
                for k in 1..1000 {
                    let p = k as f32 / 1000.0;
                    let d = (ours.weight_f64(p.into()) - f64::from(theirs.evaluate(p))).abs();
                    if d > worst.0 {
                        worst = (d, ours, f64::from(p));
                    }
                }
            }
        }
    }
    println!(
        "12-step bisection: max weight difference {:.3e} at {:?} p = {}",
        worst.0, worst.1, worst.2
    );
    assert!(worst.0 <= W + 1e-6, "{worst:?}");
    assert!(worst.0 > W / 8.0, "the bound is not vacuous: {worst:?}");
}

#[test]
fn duplicate_keys_peer_heads_for_the_first_vmdkit_keeps_the_last() {
    let name = KeyName::encode("センター").0;
    let mut motion = Motion::new(name_field());
    let key = |frame, y: f32| BoneKey {
        translation: glam::Vec3::new(0.0, y, 0.0),
        ..BoneKey::new(name, frame)
    };
    motion.bones = vec![key(0, 0.0), key(10, 1.0), key(10, 5.0), key(20, 0.0)];
    let bytes = motion.to_bytes();
    let sampler = MotionSampler::new(&motion);
    assert_eq!(sampler.duplicates().len(), 1);
    let peer = peer_for(&bytes, &motion, &sampler).unwrap();
    let at = |t: f32| peer.clip.sample_at(t).bone_samples()[0].position.y;
    let ours = |t: f64| sampler.bone_tracks()[0].sample(t).translation.y;
    // Into frame 10: the peer heads for the first key (1.0), vmdkit for the last (5.0).
    assert_eq!((at(5.0), ours(5.0)), (0.5, 2.5));
    // At and after frame 10 both use the last.
    assert_eq!((at(10.0), ours(10.0)), (5.0, 5.0));
    assert_eq!((at(15.0), ours(15.0)), (2.5, 2.5));
}

fn name_field() -> vmdkit::LongName {
    vmdkit::LongName::encode("oracle").0
}

#[test]
fn row0_decoder_reads_the_physics_bytes_as_curve_handles() {
    let Some(manifest) = test_corpus::corpus_or_skip("eval_oracle row 0") else {
        return;
    };
    let entry = manifest.largest("vmd");
    assert!(entry.local_path.contains("サンプルモーション2"), "{}", entry.local_path);
    let bytes = entry.bytes();
    let motion = Motion::parse(&bytes).unwrap();
    let sampler = MotionSampler::new(&motion);
    let peer = peer_for(&bytes, &motion, &sampler).unwrap();
    let import = import_vmd_motion(&bytes).unwrap();
    let row0 = build_clip_from_import(import, &|n| peer.bone_ids.get(n).copied(), &|_| None);

    // 右腕捩, frames 5051 → 5060: the rows hold R = (90, 0, 62, 126) but bytes 2–3 are the
    // physics flag (0, 0), so row 0 reads R = (0, 0, 62, 126).
    let name = KeyName::encode("右腕捩").0;
    let k = sampler.bone_names().position(|n| n == name.bytes()).unwrap();
    let track = &sampler.bone_tracks()[k];
    let i = track.frames().iter().position(|&f| f == 5060).unwrap();
    assert_eq!(track.frames()[i - 1], 5051);
    assert_eq!(track.curves(i)[3], Curve::new(90, 0, 62, 126));
    let key =
        motion.bones.iter().find(|b| b.name.bytes() == name.bytes() && b.frame == 5060).unwrap();
    assert_eq!([3, 7, 11, 15].map(|b| key.interpolation.0[b]), [0, 0, 62, 126]);

    let t = 5051.0 + 0.4 * 9.0;
    let (a, b) = (track.key(i - 1).rotation, track.key(i).rotation);
    let theta = angle(arr(a), arr(b));
    let fraction = |q: [f32; 4]| angle(arr(a), q) / theta;
    let ours = fraction(arr(track.sample(t).rotation));
    // The rotation of our track k in one of the peer's samples.
    let rotation = |sample: ClipSample| {
        sample
            .bone_samples()
            .iter()
            .find(|s| peer.bone_track.get(&s.bone.0) == Some(&k))
            .unwrap()
            .rotation
    };
    let registered = rotation(peer.clip.sample_at(t as f32));
    let raw = rotation(row0.sample_at(t as f32));
    let (registered, raw) = (fraction(registered.to_array()), fraction(raw.to_array()));
    println!("右腕捩 at {t}: vmdkit {ours:.4}, peer rows {registered:.4}, peer row 0 {raw:.4} of the way");
    assert!((ours - 0.174).abs() < 1e-3 && (registered - ours).abs() < W + 1e-4);
    assert!((raw - 0.613).abs() < 1e-3);
    assert!((raw - f64::from(Curve::new(0, 0, 62, 126).weight(0.4))).abs() < W + 1e-4);
}

#[test]
fn camera_peer_reads_curve_bytes_in_the_wrong_order() {
    let Some(manifest) = test_corpus::corpus_or_skip("eval_oracle camera") else {
        return;
    };
    // Vmd2XML's camera.vmd was saved by MMD: its linear curves are stored 20, 107, 20, 107.
    let mmd_saved =
        manifest.entries.iter().find(|e| e.local_path.ends_with("camera__camera.vmd")).unwrap();
    let bytes = mmd_saved.bytes();
    let motion = Motion::parse(&bytes).unwrap();
    assert_eq!(&motion.cameras[0].interpolation.0[..4], &[20, 107, 20, 107]);
    let ours = MotionSampler::new(&motion).sample_camera(2.5).unwrap();
    let anim = parse_vmd_animation(&bytes).unwrap();
    let theirs = sample_vmd_camera_frames(&anim.camera_frames, 2.5).unwrap();
    println!(
        "camera.vmd at 2.5: target y vmdkit {}, mmd-anim {}",
        ours.target.y, theirs.position[1]
    );
    assert!((ours.target.y - 5.0).abs() < 1e-6);
    assert!((theirs.position[1] - 1.0727).abs() < 1e-3);

    // Everywhere else the two agree: with each curve's middle bytes swapped (their reading),
    // vmdkit reproduces the peer over every camera file in the corpus.
    let mut compared = 0;
    for entry in manifest.of_kind("vmd").filter(|e| e.parse_ok()) {
        let bytes = entry.bytes();
        let Ok(parsed) = Motion::parse_with(&bytes, ReadOptions::LENIENT) else {
            continue;
        };
        let mut motion = parsed.motion;
        if motion.cameras.is_empty() {
            continue;
        }
        let Ok(anim) = parse_vmd_animation(&bytes) else {
            continue;
        };
        for key in &mut motion.cameras {
            for c in 0..6 {
                key.interpolation.0.swap(4 * c + 1, 4 * c + 2);
            }
        }
        let sampler = MotionSampler::new(&motion);
        let track = sampler.camera_track().unwrap();
        let last = *track.frames().last().unwrap();
        for step in 0..=4 * (last + 1) {
            let t = f64::from(step) * 0.25 - 0.5;
            let ours = track.sample(t);
            let theirs = sample_vmd_camera_frames(&anim.camera_frames, t as f32).unwrap();
            let Segment::Between { i, .. } = track.timeline().locate(t) else {
                assert_eq!(ours.target.to_array(), theirs.position, "{} at {t}", entry.local_path);
                continue;
            };
            let (a, b) = (track.key(i), track.key(i + 1));
            let check = |o: f32, p: f32, a: f32, b: f32| {
                let tol =
                    W * f64::from(b - a).abs() + EPS_REL * (1.0 + f64::from(a.abs() + b.abs()));
                assert!(f64::from(o - p).abs() <= tol, "{} at {t}: {o} vs {p}", entry.local_path);
            };
            for axis in 0..3 {
                check(ours.target[axis], theirs.position[axis], a.target[axis], b.target[axis]);
                check(
                    ours.rotation[axis],
                    theirs.rotation[axis],
                    a.rotation[axis],
                    b.rotation[axis],
                );
            }
            check(ours.distance, theirs.distance, a.distance, b.distance);
            check(ours.fov, theirs.fov, a.fov, b.fov);
            assert_eq!(ours.perspective, theirs.perspective);
            compared += 1;
        }
    }
    assert!(compared > 1000, "{compared}");
}

#[test]
fn fixed_axes_are_a_model_rule_the_peer_applies_when_building_clips() {
    // A key rotating about a tilted axis, on a bone whose model gives it the fixed axis +X.
    let name = KeyName::encode("右腕捩").0;
    let mut motion = Motion::new(name_field());
    let mut key = BoneKey::new(name, 0);
    key.rotation = glam::Quat::from_axis_angle(glam::Vec3::new(1.0, 0.3, 0.0).normalize(), 0.8);
    motion.bones.push(key);
    let bytes = motion.to_bytes();
    let import = import_vmd_motion(&bytes).unwrap();
    let ids =
        HashMap::from([(import.bone_keyframes[0].bone_name_normalized.clone(), BoneIndex(0))]);
    let model = ModelArena::new(vec![
        BoneInit::new(None, Default::default()).with_fixed_axis([1.0, 0.0, 0.0].into())
    ])
    .unwrap();
    let clip =
        build_mmd_registered_pair_clip(&model, &import, &ids, &HashMap::new(), &HashMap::new(), 0)
            .unwrap();
    let theirs = clip.sample_at(0.0).bone_samples()[0].rotation;
    let ours = MotionSampler::new(&motion).bone_tracks()[0].sample(0.0).rotation;
    // vmdkit returns the keyed rotation; the peer's has its vector part moved onto the axis.
    assert!(angle(arr(ours), arr(key.rotation)) < 1e-6);
    assert!(theirs.y.abs() < 1e-7 && theirs.z.abs() < 1e-7 && theirs.x > 0.3);
}
