//! Names met while a document is read, encoded once the whole document has been read.
//!
//! A name's bytes depend on the document's encoding (and whether its raw field decodes to it),
//! which JSON may give after the keys (`jq -S` sorts `bones` first) and CSV in a `#meta` row
//! anywhere. Rather than hold every key's text until then, each key gets a placeholder field
//! holding the number of its distinct (text, raw field) pair, and [`DeferredNames::resolve`]
//! puts the encoded fields in their place. A motion repeats a few hundred names over millions of
//! keys, so this keeps only those few texts and encodes each once.

use crate::convert::fields::{NamesIn, Warnings};
use crate::format::Motion;
use crate::text::RawName;
use std::collections::HashMap;

/// The raw fields met with one text, each with its number.
type Variants<const N: usize> = Vec<(Option<[u8; N]>, u32)>;

/// The distinct names of one field width, in order of first appearance.
struct Table<const N: usize> {
    by_text: HashMap<Box<str>, Variants<N>>,
    /// Text, raw field and where it first appeared (the start of its warnings).
    entries: Vec<(Box<str>, Option<[u8; N]>, String)>,
}

impl<const N: usize> Table<N> {
    fn new() -> Self {
        Table { by_text: HashMap::new(), entries: Vec::new() }
    }

    fn placeholder(
        &mut self,
        text: &str,
        raw: Option<&[u8; N]>,
        field: impl FnOnce() -> String,
    ) -> RawName<N> {
        let raw = raw.copied();
        let variants = match self.by_text.get_mut(text) {
            Some(variants) => variants,
            None => self.by_text.entry(text.into()).or_default(),
        };
        let id = match variants.iter().find(|(r, _)| *r == raw) {
            Some(&(_, id)) => id,
            None => {
                // Each id stands for at least one key, and a section holds at most u32::MAX.
                let id = self.entries.len() as u32;
                variants.push((raw, id));
                self.entries.push((text.into(), raw, field()));
                id
            }
        };
        let mut placeholder = [0u8; N];
        placeholder[..4].copy_from_slice(&id.to_le_bytes());
        RawName(placeholder)
    }

    fn encode(&self, names: &mut NamesIn, warnings: &mut Warnings) -> Vec<RawName<N>> {
        let fields = self
            .entries
            .iter()
            .map(|(text, raw, field)| names.name(text, raw.as_ref(), field))
            .collect();
        warnings.append(&mut names.warnings);
        fields
    }
}

fn id<const N: usize>(placeholder: &RawName<N>) -> usize {
    u32::from_le_bytes(placeholder.0[..4].try_into().unwrap()) as usize
}

/// Placeholders handed out for key names (15 bytes) and IK names (20 bytes).
pub(crate) struct DeferredNames {
    keys: Table<15>,
    ik: Table<20>,
}

impl DeferredNames {
    pub fn new() -> Self {
        DeferredNames { keys: Table::new(), ik: Table::new() }
    }

    /// The placeholder of a bone or morph name; `field` names where it is (`bones[3].name`,
    /// `CSV line 12: name`) and is asked only for a name not met before.
    pub fn key_name(
        &mut self,
        text: &str,
        raw: Option<&[u8; 15]>,
        field: impl FnOnce() -> String,
    ) -> RawName<15> {
        self.keys.placeholder(text, raw, field)
    }

    /// The placeholder of an IK name.
    pub fn ik_name(
        &mut self,
        text: &str,
        raw: Option<&[u8; 20]>,
        field: impl FnOnce() -> String,
    ) -> RawName<20> {
        self.ik.placeholder(text, raw, field)
    }

    /// Encodes each distinct name with `names` and puts the fields in place of the placeholders
    /// in `motion`, whose every bone, morph and IK name must be one. Returns the lossy encodings,
    /// once per distinct name, each starting with where the name first appeared.
    pub fn resolve(self, motion: &mut Motion, names: &mut NamesIn) -> Warnings {
        let mut warnings = Warnings::new();
        let keys = self.keys.encode(names, &mut warnings);
        let ik = self.ik.encode(names, &mut warnings);
        for key in &mut motion.bones {
            key.name = keys[id(&key.name)];
        }
        for key in &mut motion.morphs {
            key.name = keys[id(&key.name)];
        }
        for state in motion.properties.iter_mut().flat_map(|p| &mut p.ik) {
            state.name = ik[id(&state.name)];
        }
        warnings
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{BoneKey, IkState, MorphKey, PropertyKey};
    use crate::text::{KeyName, LongName, TextEncoding};

    #[test]
    fn names_are_encoded_once_with_the_encoding_known_at_the_end() {
        let mut deferred = DeferredNames::new();
        let mut motion = Motion::default();
        let mut asked = 0;
        for (i, text) in ["左手腕", "左手腕", "头", "左手腕"].into_iter().enumerate() {
            let name = deferred.key_name(text, None, || {
                asked += 1;
                format!("bones[{i}].name")
            });
            motion.bones.push(BoneKey::new(name, i as u32));
        }
        assert_eq!(asked, 2, "the field is asked for once per distinct name");
        let raw = KeyName::encode_as("头", TextEncoding::Gbk).0;
        let name = deferred.key_name("头", Some(&raw.0), || "morphs[0].name".into());
        motion.morphs.push(MorphKey { name, frame: 0, weight: 1.0 });
        let ik = deferred.ik_name("一二三四五六七八九十一", None, || "ik".into());
        motion.properties.push(PropertyKey {
            frame: 0,
            visible_byte: 1,
            ik: vec![IkState { name: ik, enabled_byte: 1 }],
        });

        let mut names = NamesIn::new(TextEncoding::Gbk);
        let warnings = deferred.resolve(&mut motion, &mut names);
        let gbk = |text| KeyName::encode_as(text, TextEncoding::Gbk).0;
        let bones: Vec<KeyName> = motion.bones.iter().map(|k| k.name).collect();
        assert_eq!(bones, [gbk("左手腕"), gbk("左手腕"), gbk("头"), gbk("左手腕")]);
        assert_eq!(motion.morphs[0].name, raw);
        assert_eq!(
            motion.properties[0].ik[0].name,
            LongName::encode_as("一二三四五六七八九十", TextEncoding::Gbk).0
        );
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        let warning = warnings[0].to_string();
        assert!(warning.starts_with("ik: ") && warning.contains("shortened"));
    }
}
