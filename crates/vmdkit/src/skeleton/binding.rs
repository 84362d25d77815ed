//! [`Binding`]: which motion track drives which bone, morph and IK switch.
//!
//! Names are compared as raw CP932 bytes, never decoded (reference §5). A VMD bone or morph key
//! holds 15 bytes and an IK switch 20, so a longer model name is matched by its first 15 (20)
//! bytes, cut where MMD cuts, even mid-character ([`Model::bone_for_key`]); a name cut instead
//! at the last whole character (as some tools write it) binds too, when nothing matches exactly.
//! When several bones share a key, the first in model order gets the track, as in MMD.
//!
//! [`BindingReport`] lists what bound to nothing: tracks naming no bone (morph, IK bone), and
//! bones (morphs, IK bones) no track names.
//!
//! [`Model::bone_for_key`]: crate::model::Model::bone_for_key

use super::Skeleton;
use crate::eval::MotionSampler;
use crate::text::{KeyName, LongName, RawName, TextEncoding};
use std::collections::HashMap;

/// Track-to-skeleton links for one (skeleton, motion) pair.
#[derive(Clone, Debug, Default)]
pub struct Binding {
    /// (track index in the sampler, bone index).
    pub(crate) bones: Vec<(u32, u32)>,
    /// (morph track index, skeleton morph index).
    pub(crate) morphs: Vec<(u32, u32)>,
    /// (IK track index, IK chain index).
    pub(crate) iks: Vec<(u32, u32)>,
    report: BindingReport,
}

/// What did not bind. Names are the raw fields; decode them with
/// [`RawName::to_string_lossy`](crate::text::RawName::to_string_lossy).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BindingReport {
    /// Bone tracks that name no bone of the model.
    pub unbound_bone_tracks: Vec<KeyName>,
    /// Bone tracks that name a bone another track already drives (matched through a cut name).
    pub shadowed_bone_tracks: Vec<KeyName>,
    /// Bones no track names: they stay at rest (unless IK or append moves them).
    pub unkeyed_bones: Vec<usize>,
    /// Bone tracks bound through a name cut at the field's width: (track name, bone).
    pub cut_name_matches: Vec<(KeyName, usize)>,
    /// Morph tracks that name no bone or group morph. Vertex, UV and material morphs are not
    /// kept by the model reader, so facial tracks land here too.
    pub unbound_morph_tracks: Vec<KeyName>,
    /// Bone and group morphs no track names.
    pub unkeyed_morphs: Vec<usize>,
    /// IK switches (property keys) that name no IK bone.
    pub unbound_ik_tracks: Vec<LongName>,
    /// IK chains no switch names: always on.
    pub unswitched_iks: Vec<usize>,
}

impl BindingReport {
    /// True when every track bound and every bone, morph and IK chain has a track.
    pub fn is_complete(&self) -> bool {
        *self
            == BindingReport {
                cut_name_matches: self.cut_name_matches.clone(),
                ..Default::default()
            }
    }
}

/// Lead bytes of CP932 double-byte characters.
fn is_lead(b: u8) -> bool {
    matches!(b, 0x81..=0x9F | 0xE0..=0xFC)
}

/// The keys a name may appear under in a `width`-byte field: the exact bytes when they fit;
/// else the first `width` bytes (MMD's cut), then the cut at the last whole character when that
/// differs.
fn keys(name: &str, width: usize) -> (Vec<u8>, Option<Vec<u8>>) {
    let full = encoded(name);
    if full.len() <= width {
        return (full, None);
    }
    let mut boundary = 0;
    while boundary < full.len() {
        let next = boundary + if is_lead(full[boundary]) { 2 } else { 1 };
        if next > width {
            break;
        }
        boundary = next;
    }
    let alt = (boundary < width).then(|| full[..boundary].to_vec());
    (full[..width].to_vec(), alt)
}

/// Name bytes → (index, exact). Exact keys are inserted for every entry before any cut
/// alternative, and the first entry to claim a key keeps it.
struct Lookup(HashMap<Vec<u8>, (u32, bool)>);

impl Lookup {
    fn new(entries: impl Iterator<Item = (Vec<u8>, Option<Vec<u8>>)>) -> Lookup {
        let entries: Vec<_> = entries.collect();
        let mut map = HashMap::with_capacity(entries.len() * 2);
        for (i, (exact, _)) in entries.iter().enumerate() {
            map.entry(exact.clone()).or_insert((i as u32, true));
        }
        for (i, (_, alt)) in entries.iter().enumerate() {
            if let Some(alt) = alt {
                map.entry(alt.clone()).or_insert((i as u32, false));
            }
        }
        Lookup(map)
    }

    fn get(&self, name: &[u8]) -> Option<(u32, bool)> {
        self.0.get(name).copied()
    }
}

/// Morph and IK tracks bound one to one: each track to the entry its name finds, the first
/// track to find an entry keeping it.
struct Once<const N: usize> {
    /// (track index, entry index), by track index.
    pairs: Vec<(u32, u32)>,
    /// Tracks that found no entry, or only one an earlier track holds.
    unbound: Vec<RawName<N>>,
    /// Entries no track found.
    unkeyed: Vec<usize>,
}

impl<const N: usize> Once<N> {
    fn bind(lookup: &Lookup, names: impl Iterator<Item = RawName<N>>, count: usize) -> Self {
        let mut taken = vec![false; count];
        let (mut pairs, mut unbound) = (Vec::new(), Vec::new());
        for (t, name) in names.enumerate() {
            match lookup.get(name.bytes()) {
                Some((e, _)) if !taken[e as usize] => {
                    taken[e as usize] = true;
                    pairs.push((t as u32, e));
                }
                _ => unbound.push(name),
            }
        }
        let unkeyed = (0..count).filter(|&e| !taken[e]).collect();
        Once { pairs, unbound, unkeyed }
    }
}

impl Binding {
    /// Binds every bone, morph and IK track of `sampler` to `skeleton`.
    pub fn new(skeleton: &Skeleton, sampler: &MotionSampler) -> Binding {
        let mut binding = Binding::default();
        binding.bind_bones(skeleton, sampler);

        let morph_keys = Lookup::new((0..skeleton.morph_count()).map(|m| {
            let stored = skeleton.morph_keys[m].bytes().to_vec();
            (stored, keys(skeleton.morph_name(m), 15).1)
        }));
        let names = sampler.morph_tracks().iter().map(|t| *t.name());
        let morphs = Once::bind(&morph_keys, names, skeleton.morph_count());
        (binding.morphs, binding.report.unbound_morph_tracks) = (morphs.pairs, morphs.unbound);
        binding.report.unkeyed_morphs = morphs.unkeyed;

        let ik_keys = Lookup::new(
            (0..skeleton.ik_count()).map(|k| keys(skeleton.bone_name(skeleton.ik_bone(k)), 20)),
        );
        let names = sampler.ik_tracks().iter().map(|t| *t.name());
        let iks = Once::bind(&ik_keys, names, skeleton.ik_count());
        (binding.iks, binding.report.unbound_ik_tracks) = (iks.pairs, iks.unbound);
        binding.report.unswitched_iks = iks.unkeyed;
        binding
    }

    /// Binds the bone tracks: exact names before cut ones, the first track to name a bone
    /// driving it, and cut-name matches reported.
    fn bind_bones(&mut self, skeleton: &Skeleton, sampler: &MotionSampler) {
        let n = skeleton.bone_count();
        // The stored key bytes first (for PMD they are the file's own bytes), then the name
        // encoded afresh, which also yields the whole-character cut.
        let bone_keys = Lookup::new((0..n).map(|b| {
            let stored = skeleton.key_names[b].bytes().to_vec();
            let (exact, alt) = keys(skeleton.bone_name(b), 15);
            (stored, alt.or_else(|| (exact != skeleton.key_names[b].bytes()).then_some(exact)))
        }));
        let report = &mut self.report;
        let mut keyed = vec![false; n];
        let mut pending = Vec::new();
        for (t, track) in sampler.bone_tracks().iter().enumerate() {
            match bone_keys.get(track.name().bytes()) {
                None => report.unbound_bone_tracks.push(*track.name()),
                Some((b, exact)) => pending.push((t as u32, b, exact)),
            }
        }
        // Exact matches win over cut ones for the same bone.
        pending.sort_by_key(|&(t, _, exact)| (!exact, t));
        for (t, b, exact) in pending {
            let name = *sampler.bone_tracks()[t as usize].name();
            if keyed[b as usize] {
                report.shadowed_bone_tracks.push(name);
                continue;
            }
            keyed[b as usize] = true;
            if !exact || encoded(skeleton.bone_name(b as usize)).len() > 15 {
                report.cut_name_matches.push((name, b as usize));
            }
            self.bones.push((t, b));
        }
        self.bones.sort_unstable();
        report.unkeyed_bones = (0..n).filter(|&b| !keyed[b]).collect();
    }

    /// What did not bind.
    pub fn report(&self) -> &BindingReport {
        &self.report
    }

    /// (bone track index, bone) for every bound bone track, by track index.
    pub fn bone_tracks(&self) -> impl ExactSizeIterator<Item = (usize, usize)> + '_ {
        self.bones.iter().map(|&(t, b)| (t as usize, b as usize))
    }

    /// (morph track index, skeleton morph) for every bound morph track.
    pub fn morph_tracks(&self) -> impl ExactSizeIterator<Item = (usize, usize)> + '_ {
        self.morphs.iter().map(|&(t, m)| (t as usize, m as usize))
    }

    /// (IK track index, IK chain) for every bound IK switch.
    pub fn ik_tracks(&self) -> impl ExactSizeIterator<Item = (usize, usize)> + '_ {
        self.iks.iter().map(|&(t, k)| (t as usize, k as usize))
    }
}

/// The name's CP932 bytes, unencodable characters as `?` (as Windows writes them).
fn encoded(name: &str) -> Vec<u8> {
    // No character takes more bytes in CP932 than in UTF-8 (1 → 1, 2–4 → 1 or 2).
    TextEncoding::ShiftJis.encode(name, name.len()).bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skeleton_binding_keys_cut_like_mmd_and_at_whole_characters() {
        // 8 kanji = 16 bytes: MMD cuts the 8th in half; the whole-character cut keeps 7.
        let (exact, alt) = keys("左腕捩り補助用骨", 15);
        assert_eq!(exact.len(), 15);
        assert_eq!(alt.as_deref().map(<[u8]>::len), Some(14));
        // Half-width characters: the cut lands on a boundary, no alternative.
        let (exact, alt) = keys("abcdefghijklmnopq", 15);
        assert_eq!((exact.as_slice(), alt), (&b"abcdefghijklmno"[..], None));
        let (exact, alt) = keys("センター", 15);
        assert_eq!((exact.len(), alt), (8, None));
        assert_eq!(keys("左足ＩＫ", 20).0, LongName::encode("左足ＩＫ").0.bytes());
    }
}
