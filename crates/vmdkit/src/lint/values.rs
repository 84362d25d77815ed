//! Values worth a warning: physics toggles, quaternions, non-finite numbers and bytes outside
//! their documented range.

use super::tally::{non_finite, plural, Tally};
use super::{Warning, WarningKind, QUAT_LENGTH_TOLERANCE};
use crate::format::{Motion, PhysicsToggle, Section};
use crate::text::TextEncoding;
use std::collections::HashMap;

/// Physics toggles, quaternions, non-finite numbers and curve bytes of bone keys.
pub(super) fn bone_value_warnings(motion: &Motion, encoding: TextEncoding, out: &mut Vec<Warning>) {
    let mut physics_off = Tally::default();
    let mut physics_names: HashMap<&[u8], ()> = HashMap::new();
    let mut zero = Tally::default();
    let mut non_unit = Tally::default();
    let mut worst = 0.0f32;
    let mut bad = Tally::default();
    let mut curves = Tally::default();
    for key in &motion.bones {
        let example = || format!("{:?} at frame {}", key.name.decode(encoding).text, key.frame);
        if key.interpolation.physics() == PhysicsToggle::Off {
            physics_off.add(1, example);
            physics_names.insert(key.name.bytes(), ());
        }
        let q = key.rotation;
        if !(q.is_finite() && key.translation.is_finite()) {
            bad.add(1, example);
        } else if q.x == 0.0 && q.y == 0.0 && q.z == 0.0 && q.w == 0.0 {
            zero.add(1, example);
        } else {
            let off = (q.length() - 1.0).abs();
            if off > QUAT_LENGTH_TOLERANCE {
                worst = worst.max(off);
                non_unit.add(1, example);
            }
        }
        if key.interpolation.curves().iter().any(|c| c.x1.max(c.y1).max(c.x2).max(c.y2) > 127) {
            curves.add(1, example);
        }
    }
    let s = Section::Bone;
    let keys = |t: &Tally| plural(t.keys, "key", "keys");
    out.extend(physics_off.warning(WarningKind::PhysicsOff, s, |t| {
        format!(
            "bone section: {} turn physics off for {} (e.g. {}); the rigid bodies follow the \
             animation there",
            keys(t),
            plural(physics_names.len() as u64, "bone", "bones"),
            t.example
        )
    }));
    out.extend(non_unit.warning(WarningKind::NonUnitQuaternion, s, |t| {
        format!(
            "bone section: {} a rotation quaternion whose length is off 1 by up to {worst:.4} \
             (e.g. {}); players normalise it",
            plural(t.keys, "key has", "keys have"),
            t.example
        )
    }));
    out.extend(zero.warning(WarningKind::ZeroQuaternion, s, |t| {
        format!(
            "bone section: {} an all-zero rotation quaternion (e.g. {}); players read it as no \
             rotation",
            plural(t.keys, "key has", "keys have"),
            t.example
        )
    }));
    out.extend(bad.warning(WarningKind::NonFinite, s, |t| {
        format!(
            "bone section: {} NaN or infinite numbers (e.g. {})",
            plural(t.keys, "key holds", "keys hold"),
            t.example
        )
    }));
    out.extend(curves.warning(WarningKind::OutOfRange, s, |t| {
        format!(
            "bone section: {} interpolation points above 127 (e.g. {}); players clamp them",
            plural(t.keys, "key has", "keys have"),
            t.example
        )
    }));
}

/// Morph weights that are NaN or infinite.
pub(super) fn morph_value_warnings(
    motion: &Motion,
    encoding: TextEncoding,
    out: &mut Vec<Warning>,
) {
    let bad_weight = motion.morphs.iter().find(|k| !k.weight.is_finite());
    if let Some(first) = bad_weight {
        let n = motion.morphs.iter().filter(|k| !k.weight.is_finite()).count();
        let example = format!("{:?} at frame {}", first.name.decode(encoding).text, first.frame);
        out.push(non_finite(Section::Morph, n, &example));
    }
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
    if bad.items > 0 {
        out.push(non_finite(Section::Camera, bad.keys as usize, &bad.example));
    }
    out.extend(range.warning(WarningKind::OutOfRange, Section::Camera, |t| {
        format!(
            "camera section: {} interpolation points above 127 or a perspective byte above 1 \
             (e.g. {})",
            plural(t.keys, "key has", "keys have"),
            t.example
        )
    }));

    let mut bad = Tally::default();
    for k in &motion.lights {
        if !(k.color.is_finite() && k.direction.is_finite()) {
            bad.add(1, || frame(k.frame));
        }
    }
    if bad.items > 0 {
        out.push(non_finite(Section::Light, bad.keys as usize, &bad.example));
    }

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
    if bad.items > 0 {
        out.push(non_finite(Section::SelfShadow, bad.keys as usize, &bad.example));
    }
    out.extend(mode.warning(WarningKind::OutOfRange, Section::SelfShadow, |t| {
        format!(
            "self_shadow section: {} a mode other than 0, 1 or 2 (e.g. {}); some readers stop \
             there",
            plural(t.keys, "key has", "keys have"),
            t.example
        )
    }));
}
