//! VPD poses to and from motions: a pose is one key per bone and morph, and a motion gives a
//! pose at every time.
//!
//! A VPD's values are a VMD key's (reference §11: offset from rest and local rotation, MMD's
//! left-handed axes), so nothing is converted; only names change form. A VPD names its model
//! by the `.osm` file MMD saved it from (`初音ミク.osm`); a motion by the model name
//! (`初音ミク`), so the suffix is dropped one way and added the other.

use super::vpd::{VpdBone, VpdPose};
use crate::eval::MotionSampler;
use crate::format::{BoneKey, MorphKey, Motion};
use crate::text::{EncodeStatus, KeyName, LongName};

/// The suffix of the model file a VPD names.
const OSM: &str = ".osm";

/// What [`VpdPose::to_motion`] could not store exactly: names longer than their field (cut as
/// MMD cuts them) or with characters Shift-JIS lacks (written as `?`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PoseNameNotes {
    /// (kind, name) of each name that did not fit or encode: kind is `model`, `bone` or
    /// `morph`.
    pub names: Vec<(&'static str, String)>,
}

impl VpdPose {
    /// The model name a motion for this pose carries: the model file without `.osm`.
    pub fn model_name(&self) -> &str {
        let file = self.model_file.as_str();
        match file.len().checked_sub(OSM.len()) {
            Some(cut) if file.is_char_boundary(cut) && file[cut..].eq_ignore_ascii_case(OSM) => {
                &file[..cut]
            }
            _ => file,
        }
    }

    /// The pose as a motion with one bone key per bone and one morph key per morph, all at
    /// `frame`, with MMD's default (linear) curves, in Shift-JIS. Names are encoded as MMD
    /// encodes them; those that do not fit are listed in the notes. A bone listed twice keeps
    /// both keys, as the file does (players keep the later).
    pub fn to_motion(&self, frame: u32) -> (Motion, PoseNameNotes) {
        let mut notes = PoseNameNotes::default();
        let mut note = |kind, name: &str, status| {
            if status != EncodeStatus::Ok {
                notes.names.push((kind, name.to_string()));
            }
        };
        let (model_name, status) = LongName::encode(self.model_name());
        note("model", self.model_name(), status);
        let mut motion = Motion::new(model_name);
        for bone in &self.bones {
            let (name, status) = KeyName::encode(&bone.name);
            note("bone", &bone.name, status);
            let key = BoneKey {
                translation: bone.translation,
                rotation: bone.rotation,
                ..BoneKey::new(name, frame)
            };
            motion.bones.push(key);
        }
        for (morph, weight) in &self.morphs {
            let (name, status) = KeyName::encode(morph);
            note("morph", morph, status);
            motion.morphs.push(MorphKey { name, frame, weight: *weight });
        }
        (motion, notes)
    }

    /// The pose `motion` gives at time `frame` (fractions allowed), as MMD plays it: every bone
    /// and morph track sampled (curves, the later of duplicate keys), in the motion's track
    /// order, names decoded in the motion's encoding. The model file is the motion's model name
    /// with `.osm`. Bone rotations are the unit quaternions sampling gives.
    pub fn from_motion(motion: &Motion, frame: f64) -> VpdPose {
        let encoding = motion.detect_encoding();
        let sampler = MotionSampler::new(motion);
        let name = |bytes: &[u8]| encoding.decode(bytes, bytes.len() == 15).text.into_owned();
        let bones = sampler
            .bone_names()
            .zip(sampler.bone_tracks())
            .map(|(bytes, track)| {
                let sample = track.sample(frame);
                VpdBone {
                    name: name(bytes),
                    translation: sample.translation,
                    rotation: sample.rotation,
                }
            })
            .collect();
        let morphs = sampler
            .morph_names()
            .zip(sampler.morph_tracks())
            .map(|(bytes, track)| (name(bytes), track.sample(frame)))
            .collect();
        let model = motion.header.model_name.decode(encoding).text.into_owned();
        let model_file = if model.is_empty() { model } else { model + OSM };
        VpdPose { model_file, bones, morphs }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Quat, Vec3};

    #[test]
    fn a_pose_is_a_motion_at_one_frame_and_back() {
        let pose = VpdPose {
            model_file: "初音ミク.osm".into(),
            bones: vec![
                VpdBone {
                    name: "センター".into(),
                    translation: Vec3::new(0.5, -1.0, 2.0),
                    rotation: Quat::IDENTITY,
                },
                VpdBone {
                    name: "左腕".into(),
                    translation: Vec3::ZERO,
                    rotation: Quat::from_rotation_z(0.5),
                },
            ],
            morphs: vec![("まばたき".into(), 0.75)],
        };
        assert_eq!(pose.model_name(), "初音ミク");
        let (motion, notes) = pose.to_motion(12);
        assert!(notes.names.is_empty());
        assert_eq!(motion.header.model_name.to_string_lossy(), "初音ミク");
        assert_eq!(motion.bones.len(), 2);
        assert!(motion.bones.iter().all(|k| k.frame == 12));
        assert_eq!(motion.bones[1].rotation, Quat::from_rotation_z(0.5));
        assert_eq!(VpdPose::from_motion(&motion, 12.0), pose);
        // Before its only key a track holds that key's value.
        assert_eq!(VpdPose::from_motion(&motion, 0.0), pose);

        let long = VpdPose {
            model_file: "m".into(),
            bones: vec![VpdBone {
                name: "とても長いボーンの名前".into(), ..pose.bones[0].clone()
            }],
            morphs: vec![],
        };
        let (_, notes) = long.to_motion(0);
        assert_eq!(notes.names, vec![("bone", "とても長いボーンの名前".to_string())]);
    }

    #[test]
    fn a_motion_gives_the_interpolated_pose() {
        let motion = crate::example::example_motion();
        let sampler = MotionSampler::new(&motion);
        let pose = VpdPose::from_motion(&motion, 7.5);
        let arm = pose.bones.iter().find(|b| b.name == "右腕").unwrap();
        let expected = sampler.bone_track(KeyName::encode("右腕").0.bytes()).unwrap().sample(7.5);
        assert_eq!(arm.rotation, expected.rotation);
        assert_eq!(pose.bones.len(), sampler.bone_count());
        assert_eq!(pose.morphs.len(), sampler.morph_count());
    }
}
