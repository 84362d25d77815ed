//! Merging several motions into one (a dance, its facial motion and a camera, say).
//!
//! **Rule for colliding keys: the later input wins.** Two keys collide when they come from
//! different inputs and have the same track (bone or morph name bytes up to the NUL; the camera,
//! light and self-shadow sections are one track each) and the same frame. The later input's key
//! takes the earlier key's place and [`MergeReport::collisions`] counts it, per input and
//! section. Property keys collide by frame; their IK states merge by IK name, the later input
//! winning for a name it lists, and the later visibility wins. Duplicates inside one input are
//! left as they are (the sampler keeps the last, as it would have in that file).
//!
//! Every other key is appended in input order. Curves are untouched. The header (model name)
//! is the first input's that is not a camera/light motion (`カメラ・照明`), else the first
//! input's; other model names are reported. Bytes after the last section are not carried over.

use super::names::decode_clean;
use crate::format::{
    BoneKey, CameraKey, Keyframe, LightKey, MorphKey, Motion, PropertyKey, ShadowKey,
};
use std::collections::HashMap;

/// What [`merge`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MergeReport {
    /// For each input, how many of its keys replaced a key of an earlier input, by section in
    /// [`Section::ALL`](crate::format::Section::ALL) order. The first input's counts are always 0.
    pub collisions: Vec<[usize; 6]>,
    /// The model name the output carries.
    pub model_name: String,
    /// Model names of other inputs that differ from it (camera/light motions aside).
    pub other_model_names: Vec<String>,
}

impl MergeReport {
    /// Total collisions over all inputs and sections.
    pub fn total(&self) -> usize {
        self.collisions.iter().flatten().sum()
    }
}

/// Keys of one section with the input each came from, and where each (track, frame) is.
struct Merged<K> {
    keys: Vec<(usize, K)>,
    at: HashMap<(Vec<u8>, u32), usize>,
}

impl<K> Merged<K> {
    fn new() -> Self {
        Merged { keys: Vec::new(), at: HashMap::new() }
    }

    /// Adds `key` from input `input`; true when it replaced an earlier input's key.
    fn add(
        &mut self,
        input: usize,
        track: &[u8],
        frame: u32,
        key: K,
        combine: impl FnOnce(&mut K, K),
    ) -> bool {
        match self.at.get(&(track.to_vec(), frame)) {
            Some(&slot) if self.keys[slot].0 < input => {
                let old = &mut self.keys[slot];
                old.0 = input;
                combine(&mut old.1, key);
                true
            }
            _ => {
                self.at.insert((track.to_vec(), frame), self.keys.len());
                self.keys.push((input, key));
                false
            }
        }
    }

    fn into_keys(self) -> Vec<K> {
        self.keys.into_iter().map(|(_, k)| k).collect()
    }
}

/// How a later input's key takes the place of an earlier one at the same track and frame.
trait MergeKey: Keyframe {
    /// `old` after `new` collided with it; by default `new` replaces it.
    fn combine(old: &mut Self, new: Self) {
        *old = new;
    }
}

impl MergeKey for BoneKey {}
impl MergeKey for MorphKey {}
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

/// One section of every input merged, counting each input's collisions into `collisions`.
fn merge_section<K: MergeKey>(motions: &[Motion], collisions: &mut [[usize; 6]]) -> Vec<K> {
    let mut merged = Merged::new();
    for (i, m) in motions.iter().enumerate() {
        for k in K::section(m) {
            let hit = merged.add(i, k.track_name(), k.frame(), k.clone(), K::combine);
            collisions[i][K::SECTION as usize] += usize::from(hit);
        }
    }
    merged.into_keys()
}

/// Merges `motions` in order (see the module documentation). An empty slice gives an empty
/// motion.
pub fn merge(motions: &[Motion]) -> (Motion, MergeReport) {
    let mut report =
        MergeReport { collisions: vec![[0; 6]; motions.len()], ..MergeReport::default() };
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

    let c = &mut report.collisions;
    out.bones = merge_section(motions, c);
    out.morphs = merge_section(motions, c);
    out.cameras = merge_section(motions, c);
    out.lights = merge_section(motions, c);
    out.shadows = merge_section(motions, c);
    out.properties = merge_section(motions, c);
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
        let (merged, report) = merge(&[dance.clone(), facial, camera]);
        assert_eq!(report.collisions[0], [0; 6]);
        assert_eq!(report.collisions[1][Section::Bone as usize], 1);
        assert_eq!(report.collisions[1][Section::Morph as usize], 1);
        assert_eq!(report.collisions[2][Section::Camera as usize], 2);
        assert_eq!(report.total(), 4);
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
}
