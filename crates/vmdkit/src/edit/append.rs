//! Appending motions one after another in time.
//!
//! **Where the next motion starts.** Motion B's frame 0 lands on A's last key frame (over all
//! sections) + 1 + `gap`, as loading B at that frame in MMD places it: B keeps its own timing,
//! a lead-in before its first key included. An empty A puts B's frame 0 at `gap`. Every section
//! of B moves ([`shift`]), curves and camera cuts included; frames past the VMD's last frame
//! number are an error, as they are for `shift`.
//!
//! **Each part plays as it did alone.** Keys are added at the seam so that nothing of one motion
//! leaks into the other:
//!
//! * Bones and morphs: a track whose last key in A is before A's end gets that key again at A's
//!   last frame (it held there alone). A track B starts later than its frame 0 gets its first key
//!   again at B's start (it held there alone). A track only one motion has is at rest in the
//!   other (no translation or rotation, weight 0): it gets a rest key at B's start (only in A)
//!   or at A's last frame (only in B). Between A's last frame and B's start, over the gap, bones
//!   and morphs blend from A's pose to B's, by the curve of B's key at its start (linear where
//!   the key was added): `gap` frames of transition, none at 0.
//! * Camera, light and self-shadow: the seam is a cut. A's last key is held until the frame
//!   before B's first key, where a copy of it is added, so the two are one frame apart: a camera
//!   jumps there (reference §6.6) instead of gliding from A's last shot into B's first.
//! * Visibility and IK (property keys, steps): B's state at its start is set there (its first
//!   key's, or visible with every IK on when B has none), and a key at frame 0 gives A that
//!   default when only B has property keys. IK names A lists and B does not are switched back
//!   on at B's start, as B alone leaves them.
//!
//! The header (model name) is the first motion's; [`AppendReport::other_model_names`] lists
//! the others that differ (camera/light motions aside). Bytes after the last section are not
//! carried over.

use super::time::shift;
use super::EditError;
use crate::curve::Curve;
use crate::eval::MotionSampler;
use crate::eval::SampledKey;
use crate::format::{
    BoneInterpolation, BoneKey, CameraKey, IkState, Keyframe, LightKey, MorphKey, Motion,
    PropertyKey, ShadowKey,
};
use crate::names::decode_clean;

/// What [`append`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AppendReport {
    /// For each motion, the output frame its frame 0 landed on (0 for the first).
    pub starts: Vec<u32>,
    /// Keys added at the seams (held ends, starts, rest keys, cuts).
    pub inserted: usize,
    /// Camera seams made cuts (both sides had camera keys).
    pub camera_cuts: usize,
    /// The model name the output carries (the first motion's).
    pub model_name: String,
    /// Model names of other motions that differ from it (camera/light motions aside).
    pub other_model_names: Vec<String>,
}

/// Appends `motions` in order, `gap` frames between each one's last key and the next one's
/// frame 0 (see the module documentation). An empty slice gives an empty motion.
pub fn append(motions: &[Motion], gap: u32) -> Result<(Motion, AppendReport), EditError> {
    let mut report = AppendReport::default();
    let Some(first) = motions.first() else {
        return Ok((Motion::default(), report));
    };
    let name_of = |m: &Motion| {
        decode_clean(&m.header.model_name, m.detect_encoding())
            .unwrap_or_else(|| m.header.model_name.to_string_lossy())
    };
    report.model_name = name_of(first);
    let mut out = Motion { trailing: Vec::new(), trailing_omitted: 0, ..first.clone() };
    report.starts.push(0);
    for next in &motions[1..] {
        if !next.header.is_camera_motion() && !first.header.is_camera_motion() {
            let name = name_of(next);
            if name != report.model_name && !report.other_model_names.contains(&name) {
                report.other_model_names.push(name);
            }
        }
        let last = out.frame_range().map(|(_, last)| last);
        let start = last.map_or(0, |l| i64::from(l) + 1) + i64::from(gap);
        let moved = shift(next, start)?;
        // `shift` succeeded, so every key of `next`, frame 0 or not, fits: so does `start`...
        // unless `next` has no keys, where nothing needs it.
        let start = u32::try_from(start).unwrap_or(u32::MAX);
        report.starts.push(start);
        out = join(&out, &moved, last, start, &mut report);
    }
    Ok((out, report))
}

/// `a` followed by `b` (already moved to start at `start`), `last` being `a`'s last frame.
fn join(
    a: &Motion,
    b: &Motion,
    last: Option<u32>,
    start: u32,
    report: &mut AppendReport,
) -> Motion {
    let (sa, sb) = (MotionSampler::new(a), MotionSampler::new(b));
    let seam = Seam { a, b, sa: &sa, sb: &sb, last, start };
    Motion {
        bones: seam.section::<BoneKey>(report),
        morphs: seam.section::<MorphKey>(report),
        cameras: seam.section::<CameraKey>(report),
        lights: seam.section::<LightKey>(report),
        shadows: seam.section::<ShadowKey>(report),
        properties: seam.properties(report),
        sections_present: a.sections_present.max(b.sections_present),
        ..a.without_keys()
    }
}

/// How a section's keys are added at a seam.
trait SeamKey: SampledKey + Keyframe {
    /// Bones and morphs: a key of the track named like `like` at rest, at `frame`. The unnamed
    /// sections have no rest value and are cut instead (`None`).
    fn rest(like: &Self, frame: u32) -> Option<Self>;

    /// `self` again at `frame`, starting its track there: linear, the values unchanged.
    fn again(&self, frame: u32) -> Self {
        self.with_frame(frame)
    }
}

impl SeamKey for BoneKey {
    fn rest(like: &Self, frame: u32) -> Option<Self> {
        Some(BoneKey::new(like.name, frame))
    }

    fn again(&self, frame: u32) -> Self {
        let physics = self.interpolation.physics();
        let interpolation = BoneInterpolation::canonical([Curve::LINEAR; 4], physics);
        BoneKey { frame, interpolation, ..*self }
    }
}

impl SeamKey for MorphKey {
    fn rest(like: &Self, frame: u32) -> Option<Self> {
        Some(MorphKey { name: like.name, frame, weight: 0.0 })
    }
}

impl SeamKey for CameraKey {
    fn rest(_: &Self, _: u32) -> Option<Self> {
        None
    }
}

impl SeamKey for LightKey {
    fn rest(_: &Self, _: u32) -> Option<Self> {
        None
    }
}

impl SeamKey for ShadowKey {
    fn rest(_: &Self, _: u32) -> Option<Self> {
        None
    }
}

/// Two motions meeting: A ends at `last` (`None`: A is empty), B starts at `start`.
struct Seam<'a> {
    a: &'a Motion,
    b: &'a Motion,
    sa: &'a MotionSampler,
    sb: &'a MotionSampler,
    last: Option<u32>,
    start: u32,
}

/// A track's first and last key (the ones the sampler plays, duplicates resolved).
struct Ends<K> {
    first: K,
    last: K,
}

fn ends<K: SeamKey>(motion: &Motion, sampler: &MotionSampler) -> Vec<Ends<K>> {
    let keys = K::section(motion);
    (sampler.source_keys(K::SECTION).iter())
        .filter_map(|order| {
            let (&first, &last) = (order.first()?, order.last()?);
            Some(Ends { first: keys[first].clone(), last: keys[last].clone() })
        })
        .collect()
}

impl Seam<'_> {
    fn section<K: SeamKey>(&self, report: &mut AppendReport) -> Vec<K> {
        let mut out = K::section(self.a).clone();
        let Some(last) = self.last else {
            out.extend(K::section(self.b).iter().cloned());
            return out;
        };
        let (ea, eb) = (ends::<K>(self.a, self.sa), ends::<K>(self.b, self.sb));
        let find = |e: &[Ends<K>], name: &[u8]| e.iter().position(|x| x.first.track_name() == name);
        let mut opening = Vec::new();
        for track in &ea {
            let in_b = find(&eb, track.last.track_name()).map(|i| &eb[i]);
            match (K::rest(&track.last, self.start), in_b) {
                (Some(rest), None) => {
                    if track.last.frame() < last {
                        out.push(track.last.again(last));
                    }
                    opening.push(rest);
                }
                (Some(_), Some(_)) if track.last.frame() < last => out.push(track.last.again(last)),
                (Some(_), Some(_)) | (None, None) => {}
                (None, Some(next)) => {
                    // A cut: A's last value held to the frame before B's first key.
                    let cut = next.first.frame() - 1;
                    if track.last.frame() < cut {
                        out.push(track.last.with_frame(cut));
                    }
                    report.camera_cuts += usize::from(K::SECTION == crate::format::Section::Camera);
                }
            }
        }
        for track in &eb {
            let Some(rest) = K::rest(&track.first, last) else { continue };
            if find(&ea, track.first.track_name()).is_none() {
                out.push(rest);
            }
            if track.first.frame() > self.start {
                opening.push(track.first.again(self.start));
            }
        }
        report.inserted += out.len() - K::section(self.a).len() + opening.len();
        out.extend(opening);
        out.extend(K::section(self.b).iter().cloned());
        out
    }

    /// Property keys: B's state set at its start, A given the default when only B has keys.
    fn properties(&self, report: &mut AppendReport) -> Vec<PropertyKey> {
        let (pa, pb) = (&self.a.properties, &self.b.properties);
        let mut out = pa.clone();
        let Some(_) = self.last else {
            out.extend(pb.iter().cloned());
            return out;
        };
        let on = |names: &mut dyn Iterator<Item = &IkState>| -> Vec<IkState> {
            let mut states: Vec<IkState> = Vec::new();
            for s in names {
                if !states.iter().any(|t| t.name.bytes() == s.name.bytes()) {
                    states.push(IkState { name: s.name, enabled_byte: 1 });
                }
            }
            states
        };
        if pa.is_empty() && !pb.is_empty() {
            out.push(PropertyKey {
                frame: 0,
                visible_byte: 1,
                ik: on(&mut pb.iter().flat_map(|k| &k.ik)),
            });
            report.inserted += 1;
        }
        if pa.is_empty() {
            out.extend(pb.iter().cloned());
            return out;
        }
        let b_first = self.sb.source_keys(crate::format::Section::Property).first();
        let first = b_first.and_then(|order| order.first()).map(|&i| &pb[i]);
        let mut opening = match first {
            Some(k) => PropertyKey { frame: self.start, ..k.clone() },
            None => PropertyKey { frame: self.start, visible_byte: 1, ik: Vec::new() },
        };
        for state in on(&mut pa.iter().flat_map(|k| &k.ik)) {
            if !opening.ik.iter().any(|s| s.name.bytes() == state.name.bytes()) {
                opening.ik.push(state);
            }
        }
        let b_keys = pb.iter().cloned();
        match first {
            Some(k) if k.frame == self.start => {
                // B's own first key is at its start: complete it in place.
                out.extend(b_keys.map(|key| {
                    if key.frame == self.start {
                        PropertyKey { ik: opening.ik.clone(), ..key }
                    } else {
                        key
                    }
                }));
            }
            _ => {
                out.push(opening);
                report.inserted += 1;
                out.extend(b_keys);
            }
        }
        out
    }
}
