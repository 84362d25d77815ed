//! Values worth a warning: physics toggles, quaternions, non-finite numbers and bytes outside
//! their documented range.

use super::tally::{plural, Count, Tally, HAS};
use super::{Warning, WarningKind, QUAT_LENGTH_TOLERANCE};
use crate::format::{BoneKey, Motion, PhysicsToggle, Section};
use crate::text::TextEncoding;
use std::collections::HashSet;

/// What the bone keys hold that is worth a warning.
#[derive(Default)]
struct BoneValues<'a> {
    physics_off: Tally,
    physics_names: HashSet<&'a [u8]>,
    zero: Tally,
    non_unit: Tally,
    /// The largest distance of a quaternion's length from 1 among `non_unit`.
    worst: f32,
    bad: Tally,
    curves: Tally,
}

impl<'a> BoneValues<'a> {
    fn add(&mut self, key: &'a BoneKey, encoding: TextEncoding) {
        let example = || format!("{:?} at frame {}", key.name.decode(encoding).text, key.frame);
        if key.interpolation.physics() == PhysicsToggle::Off {
            self.physics_off.add(1, example);
            self.physics_names.insert(key.name.bytes());
        }
        let q = key.rotation;
        if !(q.is_finite() && key.translation.is_finite()) {
            self.bad.add(1, example);
        } else if q.x == 0.0 && q.y == 0.0 && q.z == 0.0 && q.w == 0.0 {
            self.zero.add(1, example);
        } else {
            let off = (q.length() - 1.0).abs();
            if off > QUAT_LENGTH_TOLERANCE {
                self.worst = self.worst.max(off);
                self.non_unit.add(1, example);
            }
        }
        if key.interpolation.curves().iter().any(|c| c.x1.max(c.y1).max(c.x2).max(c.y2) > 127) {
            self.curves.add(1, example);
        }
    }

    fn warnings(&self, out: &mut Vec<Warning>) {
        let s = Section::Bone;
        let bones = plural(self.physics_names.len() as u64, "bone", "bones");
        let physics = format!("turn physics off for {bones}");
        let tail = "; the rigid bodies follow the animation there";
        out.extend(self.physics_off.counted(
            Count::Keys,
            WarningKind::PhysicsOff,
            s,
            ("key", "keys"),
            &physics,
            tail,
        ));
        let what =
            format!("a rotation quaternion whose length is off 1 by up to {:.4}", self.worst);
        let tail = "; players normalise it";
        out.extend(self.non_unit.counted(
            Count::Keys,
            WarningKind::NonUnitQuaternion,
            s,
            HAS,
            &what,
            tail,
        ));
        let (what, tail) = ("an all-zero rotation quaternion", "; players read it as no rotation");
        out.extend(self.zero.counted(Count::Keys, WarningKind::ZeroQuaternion, s, HAS, what, tail));
        out.extend(self.bad.non_finite(s));
        let (what, tail) = ("interpolation points above 127", "; players clamp them");
        out.extend(self.curves.counted(Count::Keys, WarningKind::OutOfRange, s, HAS, what, tail));
    }
}

/// Physics toggles, quaternions, non-finite numbers and curve bytes of bone keys.
pub(super) fn bone_value_warnings(motion: &Motion, encoding: TextEncoding, out: &mut Vec<Warning>) {
    let mut values = BoneValues::default();
    motion.bones.iter().for_each(|key| values.add(key, encoding));
    values.warnings(out);
}

/// Morph weights that are NaN or infinite.
pub(super) fn morph_value_warnings(
    motion: &Motion,
    encoding: TextEncoding,
    out: &mut Vec<Warning>,
) {
    let mut bad = Tally::default();
    for k in motion.morphs.iter().filter(|k| !k.weight.is_finite()) {
        bad.add(1, || format!("{:?} at frame {}", k.name.decode(encoding).text, k.frame));
    }
    out.extend(bad.non_finite(Section::Morph));
}

/// Non-finite numbers and out-of-range bytes in the camera, light and self-shadow sections.
pub(super) fn unnamed_value_warnings(motion: &Motion, out: &mut Vec<Warning>) {
    let frame = |f: u32| format!("frame {f}");
    let mut bad = Tally::default();
    let mut range = Tally::default();
    for k in &motion.cameras {
        if !(k.distance.is_finite() && k.target.is_finite() && k.rotation.is_finite()) {
            bad.add(1, || frame(k.frame));
        }
        let curve_high = k.interpolation.0.iter().any(|&b| b > 127);
        if curve_high || k.perspective_byte > 1 {
            range.add(1, || frame(k.frame));
        }
    }
    out.extend(bad.non_finite(Section::Camera));
    let what = "interpolation points above 127 or a perspective byte above 1";
    out.extend(range.counted(Count::Keys, WarningKind::OutOfRange, Section::Camera, HAS, what, ""));

    let mut bad = Tally::default();
    for k in motion.lights.iter().filter(|k| !(k.color.is_finite() && k.direction.is_finite())) {
        bad.add(1, || frame(k.frame));
    }
    out.extend(bad.non_finite(Section::Light));

    let mut bad = Tally::default();
    let mut mode = Tally::default();
    for k in &motion.shadows {
        if !k.distance.is_finite() {
            bad.add(1, || frame(k.frame));
        }
        if k.mode > 2 {
            mode.add(1, || format!("mode {} at frame {}", k.mode, k.frame));
        }
    }
    out.extend(bad.non_finite(Section::SelfShadow));
    let (what, tail) = ("a mode other than 0, 1 or 2", "; some readers stop there");
    out.extend(mode.counted(
        Count::Keys,
        WarningKind::OutOfRange,
        Section::SelfShadow,
        HAS,
        what,
        tail,
    ));
}
