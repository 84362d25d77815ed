//! Writing a motion: the exact inverse of reading.

use super::layout::Section;
use super::motion::Motion;
use super::records::{BoneKey, CameraKey, LightKey, MorphKey, ShadowKey};
use std::io::{self, Write};
use std::path::Path;

impl Motion {
    /// The sections that will be written: those the file had, and any later one with keys.
    pub fn sections_to_write(&self) -> usize {
        let last_with_keys = Section::ALL.iter().rposition(|&s| self.count(s) > 0).map_or(0, |i| i + 1);
        self.sections_present.max(last_with_keys)
    }

    /// The size of the encoded file in bytes.
    pub fn encoded_len(&self) -> usize {
        let sections = self.sections_to_write();
        let mut len = self.header.version().header_len() + 4 * sections + self.trailing.len();
        for &section in &Section::ALL[..sections] {
            len += match section.record_size() {
                Some(size) => size * self.count(section),
                None => self.properties.iter().map(|p| p.encoded_len()).sum(),
            };
        }
        len
    }

    /// Encodes the motion into a new buffer.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.encoded_len());
        self.encode_into(&mut out);
        out
    }

    /// Appends the encoded motion to `out`.
    pub fn encode_into(&self, out: &mut Vec<u8>) {
        out.reserve(self.encoded_len());
        out.extend_from_slice(&self.header.signature);
        out.extend_from_slice(self.header.model_name_field());
        let sections = self.sections_to_write();
        for &section in &Section::ALL[..sections] {
            out.extend_from_slice(&(self.count(section) as u32).to_le_bytes());
            match section {
                Section::Bone => put_records(out, &self.bones, BoneKey::encode),
                Section::Morph => put_records(out, &self.morphs, MorphKey::encode),
                Section::Camera => put_records(out, &self.cameras, CameraKey::encode),
                Section::Light => put_records(out, &self.lights, LightKey::encode),
                Section::SelfShadow => put_records(out, &self.shadows, ShadowKey::encode),
                Section::Property => self.properties.iter().for_each(|k| k.encode_into(out)),
            }
        }
        out.extend_from_slice(&self.trailing);
    }

    /// Writes the encoded motion to `writer`.
    pub fn write_to(&self, mut writer: impl Write) -> io::Result<()> {
        writer.write_all(&self.to_bytes())
    }

    /// Writes to `path` atomically: a temporary file beside it, then a rename, so that a failure
    /// never leaves a half-written file or touches an existing one.
    pub fn write_file(&self, path: impl AsRef<Path>) -> io::Result<()> {
        crate::io::write_atomic(path.as_ref(), &self.to_bytes())
    }
}

/// Appends each key's `N`-byte record to `out`.
///
/// Kept out of line on purpose: inlined into `encode_into`'s section loop, the compiler staged
/// every record on the stack and copied it again, which halved the speed.
#[inline(never)]
fn put_records<K, const N: usize>(out: &mut Vec<u8>, keys: &[K], encode: impl Fn(&K) -> [u8; N]) {
    out.reserve(keys.len() * N);
    for key in keys {
        out.extend_from_slice(&encode(key));
    }
}
