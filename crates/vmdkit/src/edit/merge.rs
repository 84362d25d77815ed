//! Merging several motions into one (a dance, its facial motion and a camera, say).
//!
//! Two keys from different inputs *meet* when they have the same track (bone or morph name
//! bytes up to the NUL; the camera, light and self-shadow sections are one track each) and the
//! same frame; property keys meet by frame.
//!
//! * **Identical keys are kept once.** A later input's key with the same values as a key
//!   already merged at its track and frame (translation, rotation, curves, weight, ...) is
//!   dropped and counted in [`MergeReport::duplicates`]: merging a motion with itself gives
//!   the motion back.
//! * **Otherwise the later input wins.** Its key takes the earlier input's key's place and
//!   [`MergeReport::collisions`] counts it, per input and section. Property keys at one frame
//!   merge their IK states by IK name, the later input winning for a name it lists, and the
//!   later visibility wins.
//!
//! Duplicates inside one input are left as they are (the sampler keeps the last, as it would
//! have in that file). Every other key is appended in input order. Curves are untouched. The
//! header (model name) is the first input's that is not a camera/light motion (`カメラ・照明`),
//! else the first input's; other model names are reported. Bytes after the last section are
//! not carried over.

use crate::format::{
    BoneKey, CameraKey, Keyframe, LightKey, MorphKey, Motion, PropertyKey, ShadowKey,
};
use crate::names::decode_clean;
use std::collections::HashMap;

/// What [`merge`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MergeReport {
    /// For each input, how many of its keys replaced a different key of an earlier input, by
    /// section in [`Section::ALL`](crate::format::Section::ALL) order. The first input's
    /// counts are always 0.
    pub collisions: Vec<[usize; 6]>,
    /// For each input, how many of its keys were dropped because an earlier input has the
    /// same key (same track, frame and values), by section as `collisions`.
    pub duplicates: Vec<[usize; 6]>,
    /// The model name the output carries.
    pub model_name: String,
    /// Model names of other inputs that differ from it (camera/light motions aside).
    pub other_model_names: Vec<String>,
}

impl MergeReport {
    /// Total collisions (keys overridden by a later input) over all inputs and sections.
    pub fn total(&self) -> usize {
        self.collisions.iter().flatten().sum()
    }

    /// Total identical keys dropped over all inputs and sections.
    pub fn total_duplicates(&self) -> usize {
        self.duplicates.iter().flatten().sum()
    }
}

/// What became of one key offered to [`Merged::add`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Added {
    /// Appended: nothing from an earlier input was at its track and frame.
    New,
    /// It took the place of an earlier input's different key.
    Replaced,
    /// An earlier input has the same key; it was dropped.
    Duplicate,
}

/// Keys of one section with the input each came from, and where the keys of each
/// (track, frame) are.
struct Merged<K> {
    keys: Vec<(usize, K)>,
    at: HashMap<(Vec<u8>, u32), Vec<usize>>,
}

impl<K: MergeKey> Merged<K> {
    fn new() -> Self {
        Merged { keys: Vec::new(), at: HashMap::new() }
    }

    /// Adds `key` from input `input`.
    fn add(&mut self, input: usize, key: K) -> Added {
        let slots = self.at.entry((key.track_name().to_vec(), key.frame())).or_default();
        let earlier = |slot: &usize| self.keys[*slot].0 < input;
        if slots.iter().filter(|s| earlier(s)).any(|&s| K::same(&self.keys[s].1, &key)) {
            return Added::Duplicate;
        }
        // The last of an earlier input's keys here is the one players use: the new key takes
        // its place, unless this input already has a key here (a duplicate inside one input).
        let own = slots.iter().any(|&s| self.keys[s].0 == input);
        match slots.iter().rev().find(|s| earlier(s)) {
            Some(&slot) if !own => {
                let old = &mut self.keys[slot];
                old.0 = input;
                K::combine(&mut old.1, key);
                Added::Replaced
            }
            _ => {
                slots.push(self.keys.len());
                self.keys.push((input, key));
                Added::New
            }
        }
    }

    fn into_keys(self) -> Vec<K> {
        self.keys.into_iter().map(|(_, k)| k).collect()
    }
}

/// How a later input's key meets an earlier one at the same track and frame.
trait MergeKey: Keyframe + PartialEq {
    /// Whether two keys at the same track and frame hold the same values. Names are already
    /// known to match up to their NUL, so the bytes after it (padding) do not count.
    fn same(a: &Self, b: &Self) -> bool {
        a == b
    }

    /// `old` after `new` collided with it; by default `new` replaces it.
    fn combine(old: &mut Self, new: Self) {
        *old = new;
    }
}

impl MergeKey for BoneKey {
    fn same(a: &BoneKey, b: &BoneKey) -> bool {
        BoneKey { name: a.name, ..*b } == *a
    }
}

impl MergeKey for MorphKey {
    fn same(a: &MorphKey, b: &MorphKey) -> bool {
        MorphKey { name: a.name, ..*b } == *a
    }
}

impl MergeKey for CameraKey {}
impl MergeKey for LightKey {}
impl MergeKey for ShadowKey {}

impl MergeKey for PropertyKey {
    /// Property keys at one frame: the later visibility, IK states merged by name.
    fn combine(old: &mut PropertyKey, new: PropertyKey) {
        old.visible_byte = new.visible_byte;
        for state in new.ik {
            match old.ik.iter_mut().find(|s| s.name.bytes() == state.name.bytes()) {
                Some(slot) => *slot = state,
                None => old.ik.push(state),
            }
        }
    }
}

/// One section of every input merged, counting each input's collisions and duplicates.
fn merge_section<K: MergeKey>(motions: &[Motion], report: &mut MergeReport) -> Vec<K> {
    let mut merged = Merged::new();
    for (i, m) in motions.iter().enumerate() {
        for k in K::section(m) {
            match merged.add(i, k.clone()) {
                Added::New => {}
                Added::Replaced => report.collisions[i][K::SECTION as usize] += 1,
                Added::Duplicate => report.duplicates[i][K::SECTION as usize] += 1,
            }
        }
    }
    merged.into_keys()
}

/// Merges `motions` in order (see the module documentation). An empty slice gives an empty
/// motion.
pub fn merge(motions: &[Motion]) -> (Motion, MergeReport) {
    let mut report = MergeReport {
        collisions: vec![[0; 6]; motions.len()],
        duplicates: vec![[0; 6]; motions.len()],
        ..MergeReport::default()
    };
    let header_from = motions.iter().position(|m| !m.header.is_camera_motion()).unwrap_or(0);
    let mut out = match motions.get(header_from) {
        Some(m) => Motion { header: m.header, ..Motion::default() },
        None => return (Motion::default(), report),
    };
    let name_of = |m: &Motion| {
        decode_clean(&m.header.model_name, m.detect_encoding())
            .unwrap_or_else(|| m.header.model_name.to_string_lossy())
    };
    report.model_name = name_of(&motions[header_from]);
    for m in motions.iter().filter(|m| !m.header.is_camera_motion()) {
        let name = name_of(m);
        if name != report.model_name && !report.other_model_names.contains(&name) {
            report.other_model_names.push(name);
        }
    }

    out.bones = merge_section(motions, &mut report);
    out.morphs = merge_section(motions, &mut report);
    out.cameras = merge_section(motions, &mut report);
    out.lights = merge_section(motions, &mut report);
    out.shadows = merge_section(motions, &mut report);
    out.properties = merge_section(motions, &mut report);
    out.sections_present =
        motions.iter().map(|m| m.sections_present).fold(out.sections_present, usize::max);
    (out, report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::Section;
    use crate::text::KeyName;

    #[test]
    fn later_inputs_win_collisions_and_are_counted() {
        let dance = crate::example::example_motion();
        let mut facial = Motion::new(dance.header.model_name);
        let blink = KeyName::encode("まばたき").0;
        facial.morphs.push(MorphKey { name: blink, frame: 23, weight: 0.5 }); // collides
        facial.morphs.push(MorphKey { name: blink, frame: 40, weight: 1.0 });
        let mut arm = BoneKey::new(KeyName::encode("右腕").0, 15); // collides
        arm.translation.x = 9.0;
        facial.bones.push(arm);
        let mut camera = Motion::new_camera();
        camera.cameras = dance.cameras.clone();
        camera.cameras[0].distance += 1.0; // collides; the other camera key is the same
        let (merged, report) = merge(&[dance.clone(), facial, camera]);
        assert_eq!(report.collisions[0], [0; 6]);
        assert_eq!(report.collisions[1][Section::Bone as usize], 1);
        assert_eq!(report.collisions[1][Section::Morph as usize], 1);
        assert_eq!(report.collisions[2][Section::Camera as usize], 1);
        assert_eq!(report.duplicates[2][Section::Camera as usize], dance.cameras.len() - 1);
        assert_eq!(report.total(), 3);
        assert_eq!(merged.cameras[0].distance, dance.cameras[0].distance + 1.0);
        assert_eq!(merged.bones.len(), dance.bones.len());
        assert_eq!(merged.morphs.len(), dance.morphs.len() + 1);
        assert_eq!(merged.header, dance.header);
        let s = crate::eval::MotionSampler::new(&merged);
        assert_eq!(
            s.bone_track(KeyName::encode("右腕").0.bytes()).unwrap().sample(15).translation.x,
            9.0
        );
        assert_eq!(s.morph_track(blink.bytes()).unwrap().sample(23), 0.5);
    }

    #[test]
    fn identical_keys_are_kept_once_and_counted() {
        let mut m = crate::example::example_motion();
        // A duplicate inside the input (as real files have) stays, once.
        let blink = m.morphs[0];
        m.morphs.push(blink);
        let (merged, report) = merge(&[m.clone(), m.clone()]);
        assert_eq!(merged.bones, m.bones);
        assert_eq!(merged.morphs, m.morphs);
        assert_eq!(merged.cameras, m.cameras);
        assert_eq!(merged.properties, m.properties);
        assert_eq!(report.total(), 0, "{report:?}");
        assert_eq!(report.duplicates[0], [0; 6]);
        assert_eq!(report.duplicates[1][Section::Morph as usize], m.morphs.len());
        assert_eq!(
            report.total_duplicates(),
            m.bones.len()
                + m.morphs.len()
                + m.cameras.len()
                + m.lights.len()
                + m.shadows.len()
                + m.properties.len()
        );

        // Padding after the NUL does not make a key different; a changed value does.
        let mut later = Motion::new(m.header.model_name);
        let mut padded = m.bones[0];
        let len = padded.name.bytes().len();
        padded.name.0[len + 1..].fill(0);
        let mut moved = m.bones[1];
        moved.translation.y += 1.0;
        later.bones = vec![padded, moved];
        let (merged, report) = merge(&[m.clone(), later]);
        assert_eq!(report.duplicates[1][Section::Bone as usize], 1);
        assert_eq!(report.collisions[1][Section::Bone as usize], 1);
        assert_eq!(merged.bones.len(), m.bones.len());
        assert_eq!(merged.bones[1], moved);
    }
}
