//! Mirroring a motion across the model's X = 0 plane (left ⇄ right).
//!
//! MMD is left-handed with +X on the model's left (reference §8), so the mirror is S = diag(−1,
//! 1, 1):
//!
//! * **Bone translation** (x, y, z) → (−x, y, z).
//! * **Bone rotation**: S·R·S is the rotation about the mirrored axis by the opposite angle,
//!   i.e. quaternion (x, y, z, w) → (x, −y, −z, w).
//! * **Camera**: with C = Ry(−ry)·Rx(−rx)·Rz(−rz) (§7), S·C·S = Ry(ry)·Rx(−rx)·Rz(rz) because
//!   S flips the sign of rotations about Y and Z and keeps those about X. So the target's x is
//!   negated and the yaw and roll are negated; the pitch, distance and view angle stay. The eye
//!   T + C·(0, 0, d) becomes S·eye, as it should, since S leaves (0, 0, d) alone.
//! * **Light** direction x negated. Self-shadow keys are unchanged.
//! * **Names**: bone, morph and IK (property key) names swap sides ([`mirror_name`]); the
//!   values are mirrored whatever the name. A name without a side (センター) keeps its name and
//!   is mirrored in place. A sided name whose counterpart would not fit the field (15 bytes for
//!   bones and morphs, 20 for IK names), cannot be encoded, or which does not decode, keeps its
//!   name and is reported.
//!
//! Curves are untouched: negating both ends of a segment negates every value between them for
//! any weight, and slerp commutes with S·q·S. Negation is exact in floating point, and a swapped
//! name keeps the field's padding style (`crate::names::repad`), so mirroring twice gives back the same
//! motion bit for bit (only a field with arbitrary bytes after its NUL whose swapped name has
//! another length comes back with MMD's padding).

use crate::format::Motion;
use crate::names::{decode_clean, encode_name, mirror_name, repad, NameFit};
use crate::text::{RawName, TextEncoding};
use glam::Quat;
use std::collections::HashMap;

/// What [`mirror`] did with names.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MirrorReport {
    /// Names swapped (from, to), once each, in order of first appearance.
    pub swapped: Vec<(String, String)>,
    /// Names without a side: their values were mirrored and the name kept.
    pub unsided: Vec<String>,
    /// Names with a side that kept their name, and why.
    pub not_swapped: Vec<(String, String)>,
}

/// Swaps the names of one field width, remembering each name's outcome.
struct Swapper<'r, const N: usize> {
    encoding: TextEncoding,
    cache: HashMap<RawName<N>, RawName<N>>,
    report: &'r mut MirrorReport,
}

impl<const N: usize> Swapper<'_, N> {
    fn swap(&mut self, name: RawName<N>) -> RawName<N> {
        if let Some(&done) = self.cache.get(&name) {
            return done;
        }
        let out = self.decide(name);
        self.cache.insert(name, out);
        out
    }

    fn decide(&mut self, name: RawName<N>) -> RawName<N> {
        let Some(text) = decode_clean(&name, self.encoding) else {
            if name.bytes().is_empty() {
                return name;
            }
            let shown = name.to_string_lossy();
            self.report.not_swapped.push((shown, format!("not valid {}", self.encoding.label())));
            return name;
        };
        let Some(swapped) = mirror_name(&text) else {
            self.report.unsided.push(text);
            return name;
        };
        let (field, fit) = encode_name::<N>(&swapped, self.encoding);
        match fit {
            NameFit::Ok => {
                self.report.swapped.push((text, swapped));
                repad(name, field)
            }
            NameFit::Shortened { bytes } => {
                let why = format!("{swapped} would need {bytes} bytes; the field holds {N}");
                self.report.not_swapped.push((text, why));
                name
            }
            NameFit::Unencodable => {
                let why = format!("{swapped} cannot be written in {}", self.encoding.label());
                self.report.not_swapped.push((text, why));
                name
            }
        }
    }
}

/// Mirrors `motion` left ⇄ right (see the module documentation).
pub fn mirror(motion: &Motion) -> (Motion, MirrorReport) {
    let encoding = motion.detect_encoding();
    let mut report = MirrorReport::default();
    let mut out = motion.clone();
    {
        let mut keys = Swapper::<15> { encoding, cache: HashMap::new(), report: &mut report };
        for key in &mut out.bones {
            key.name = keys.swap(key.name);
            key.translation.x = -key.translation.x;
            key.rotation = mirror_rotation(key.rotation);
        }
        for key in &mut out.morphs {
            key.name = keys.swap(key.name);
        }
    }
    {
        let mut ik = Swapper::<20> { encoding, cache: HashMap::new(), report: &mut report };
        for key in &mut out.properties {
            for state in &mut key.ik {
                state.name = ik.swap(state.name);
            }
        }
    }
    for key in &mut out.cameras {
        key.target.x = -key.target.x;
        key.rotation.y = -key.rotation.y;
        key.rotation.z = -key.rotation.z;
    }
    for key in &mut out.lights {
        key.direction.x = -key.direction.x;
    }
    // Bone and IK names share spellings (左足ＩＫ): report each once.
    dedup(&mut report.swapped);
    dedup(&mut report.unsided);
    dedup(&mut report.not_swapped);
    (out, report)
}

/// S·q·S for S = diag(−1, 1, 1): (x, y, z, w) → (x, −y, −z, w).
pub fn mirror_rotation(q: Quat) -> Quat {
    Quat::from_xyzw(q.x, -q.y, -q.z, q.w)
}

fn dedup<T: PartialEq + Clone>(items: &mut Vec<T>) {
    let mut seen: Vec<T> = Vec::with_capacity(items.len());
    items.retain(|item| {
        if seen.contains(item) {
            false
        } else {
            seen.push(item.clone());
            true
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::MotionSampler;
    use crate::text::KeyName;
    use glam::{Mat3, Vec3};

    #[test]
    fn mirroring_matches_the_reflected_rotation_matrix() {
        let s = Mat3::from_diagonal(Vec3::new(-1.0, 1.0, 1.0));
        let q = Quat::from_euler(glam::EulerRot::YXZ, 0.4, -0.7, 1.1);
        let want = s * Mat3::from_quat(q) * s;
        let got = Mat3::from_quat(mirror_rotation(q));
        assert!((want - got).abs().to_cols_array().iter().all(|&d| d < 1e-6));
    }

    #[test]
    fn the_example_mirrors_names_values_and_camera() {
        let motion = crate::example::example_motion();
        let (mirrored, report) = mirror(&motion);
        assert!(report.swapped.iter().any(|(a, b)| a == "右腕" && b == "左腕"), "{report:?}");
        assert!(report.unsided.iter().any(|n| n == "センター"));
        let (a, b) = (MotionSampler::new(&motion), MotionSampler::new(&mirrored));
        let right = a.bone_track(KeyName::encode("右腕").0.bytes()).unwrap();
        let left = b.bone_track(KeyName::encode("左腕").0.bytes()).unwrap();
        for t in [0.0, 7.5, 15.0] {
            let (r, l) = (right.sample(t), left.sample(t));
            assert_eq!(l.rotation, mirror_rotation(r.rotation), "t = {t}");
        }
        // The camera's eye is reflected and its forward direction too.
        if let (Some(ca), Some(cb)) = (a.sample_camera(10.0), b.sample_camera(10.0)) {
            let (va, vb) = (ca.view(), cb.view());
            let reflect = |v: Vec3| Vec3::new(-v.x, v.y, v.z);
            assert!((reflect(va.eye) - vb.eye).length() < 1e-4);
            assert!((reflect(va.forward) - vb.forward).length() < 1e-6);
        }
        assert_eq!(mirror(&mirrored).0, motion);
    }

    #[test]
    fn names_that_would_not_fit_keep_their_name() {
        let mut motion = Motion::new(Default::default());
        // 13 bytes swaps to 14; 15 bytes would need 16.
        motion.bones.push(crate::format::BoneKey::new(KeyName::encode("LeftThumbTip1").0, 0));
        motion.bones.push(crate::format::BoneKey::new(KeyName::encode("LeftIndexTip1xy").0, 0));
        let (out, report) = mirror(&motion);
        assert_eq!(out.bones[0].name, KeyName::encode("RightThumbTip1").0);
        assert_eq!(out.bones[1].name, motion.bones[1].name);
        assert_eq!(report.not_swapped.len(), 1, "{report:?}");
        assert!(report.not_swapped[0].1.contains("need 16 bytes"), "{report:?}");
    }
}
