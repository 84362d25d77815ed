//! Name tables: the distinct names of a section, in order of first appearance, and each key's
//! index into them.
//!
//! Names are told apart by their bytes up to the NUL, as the sampler groups tracks (so the
//! table's order is `MotionSampler::bone_names` order), not by the whole field: two fields
//! that differ only after the NUL name one track.

use std::collections::HashMap;
use vmdkit::{RawName, TextEncoding};

/// The distinct names of one kind of field, and which one each entry has.
pub struct NameTable<const N: usize> {
    /// Per distinct name, the field of its first entry, in order of first appearance.
    pub fields: Vec<RawName<N>>,
    /// Per entry, in entry order, the index of its name in `fields`.
    pub index: Vec<u32>,
}

impl<const N: usize> NameTable<N> {
    /// The table of `fields`, in their order.
    pub fn new(fields: impl Iterator<Item = RawName<N>>) -> Self {
        let mut by_field: HashMap<[u8; N], u32> = HashMap::new();
        // Keyed by the name alone: the field with zeros from the NUL on.
        let mut by_name: HashMap<[u8; N], u32> = HashMap::new();
        let mut firsts: Vec<RawName<N>> = Vec::new();
        let mut index = Vec::with_capacity(fields.size_hint().0);
        // Files keep a bone's keys together, so most keys repeat the previous key's field:
        // comparing with it first skips the hash lookups for nearly all of them.
        let mut last: Option<([u8; N], u32)> = None;
        for field in fields {
            let i = match last {
                Some((f, i)) if f == field.0 => i,
                _ => {
                    let i = *by_field.entry(field.0).or_insert_with(|| {
                        let mut name = [0u8; N];
                        name[..field.bytes().len()].copy_from_slice(field.bytes());
                        let next = by_name.len() as u32;
                        *by_name.entry(name).or_insert_with(|| {
                            firsts.push(field);
                            next
                        })
                    });
                    last = Some((field.0, i));
                    i
                }
            };
            index.push(i);
        }
        NameTable { fields: firsts, index }
    }

    /// The names' bytes up to the NUL.
    pub fn raw(&self) -> impl ExactSizeIterator<Item = &[u8]> + '_ {
        self.fields.iter().map(|f| f.bytes())
    }

    /// The names decoded in `encoding`; undecodable bytes become U+FFFD.
    pub fn texts(&self, encoding: TextEncoding) -> Vec<String> {
        self.fields.iter().map(|f| f.decode(encoding).text.into_owned()).collect()
    }

    /// Each name as [`vmdkit::detect_encoding`] takes it.
    pub fn for_detection(&self) -> impl Iterator<Item = (&[u8], bool)> + Clone + '_ {
        self.fields.iter().map(|f| f.for_detection())
    }
}
