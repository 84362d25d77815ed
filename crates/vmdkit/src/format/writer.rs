//! Writing a motion: the exact inverse of reading.

use super::layout::Section;
use super::motion::Motion;
use super::records::{BoneKey, CameraKey, LightKey, MorphKey, ShadowKey};
use std::io::{self, Write};
use std::path::Path;

impl Motion {
    /// The sections that will be written: those the file had, and any later one with keys.
    pub fn sections_to_write(&self) -> usize {
        let last_with_keys =
            Section::ALL.iter().rposition(|&s| self.count(s) > 0).map_or(0, |i| i + 1);
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
        let never_fails: io::Result<()> = self.encode_in_chunks(out, usize::MAX, |_| Ok(()));
        never_fails.expect("appending to a Vec cannot fail");
    }

    /// Streams the encoded motion to `writer` in chunks of about 1 MiB, so that writing a
    /// large motion does not hold a second copy of it in memory.
    pub fn write_to(&self, mut writer: impl Write) -> io::Result<()> {
        const CHUNK_BYTES: usize = 1 << 20;
        let mut buf = Vec::with_capacity(CHUNK_BYTES + 4096);
        self.encode_in_chunks(&mut buf, CHUNK_BYTES, |buf| {
            writer.write_all(buf)?;
            buf.clear();
            Ok(())
        })?;
        writer.write_all(&buf)
    }

    /// Encodes into `buf`, handing it to `flush` whenever it holds `chunk_bytes` or more.
    /// The one place that knows the order of a file's parts.
    fn encode_in_chunks(
        &self,
        buf: &mut Vec<u8>,
        chunk_bytes: usize,
        mut flush: impl FnMut(&mut Vec<u8>) -> io::Result<()>,
    ) -> io::Result<()> {
        buf.extend_from_slice(&self.header.signature);
        buf.extend_from_slice(self.header.model_name_field());
        let sections = self.sections_to_write();
        for &section in &Section::ALL[..sections] {
            buf.extend_from_slice(&(self.count(section) as u32).to_le_bytes());
            let keys_per_chunk =
                section.record_size().map_or(1, |size| (chunk_bytes / size).max(1));
            match section {
                Section::Bone => {
                    for_chunks(buf, &self.bones, keys_per_chunk, &mut flush, BoneKey::encode)?
                }
                Section::Morph => {
                    for_chunks(buf, &self.morphs, keys_per_chunk, &mut flush, MorphKey::encode)?
                }
                Section::Camera => {
                    for_chunks(buf, &self.cameras, keys_per_chunk, &mut flush, CameraKey::encode)?
                }
                Section::Light => {
                    for_chunks(buf, &self.lights, keys_per_chunk, &mut flush, LightKey::encode)?
                }
                Section::SelfShadow => {
                    for_chunks(buf, &self.shadows, keys_per_chunk, &mut flush, ShadowKey::encode)?
                }
                Section::Property => {
                    for key in &self.properties {
                        key.encode_into(buf);
                        if buf.len() >= chunk_bytes {
                            flush(buf)?;
                        }
                    }
                }
            }
        }
        // In chunks as well: a file padded with gigabytes is not copied whole into the buffer.
        for chunk in self.trailing.chunks(chunk_bytes) {
            buf.extend_from_slice(chunk);
            if buf.len() >= chunk_bytes {
                flush(buf)?;
            }
        }
        Ok(())
    }

    /// Writes to `path` atomically: a temporary file beside it, then a rename, so that a failure
    /// never leaves a half-written file or touches an existing one.
    pub fn write_file(&self, path: impl AsRef<Path>) -> io::Result<()> {
        crate::io::write_atomic_with(path.as_ref(), |w| self.write_to(w))
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

/// Appends `keys` in chunks of `per_chunk`, flushing after each chunk that fills the buffer.
fn for_chunks<K, const N: usize>(
    buf: &mut Vec<u8>,
    keys: &[K],
    per_chunk: usize,
    flush: &mut impl FnMut(&mut Vec<u8>) -> io::Result<()>,
    encode: impl Fn(&K) -> [u8; N] + Copy,
) -> io::Result<()> {
    for chunk in keys.chunks(per_chunk) {
        put_records(buf, chunk, encode);
        if chunk.len() == per_chunk {
            flush(buf)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn chunked_encoding_gives_the_same_bytes_at_any_chunk_size() {
        let mut motion = crate::example::example_motion();
        let extra = motion.bones.clone();
        for _ in 0..40 {
            motion.bones.extend_from_slice(&extra);
        }
        motion.trailing = (0..3000u32).map(|i| i as u8).collect();
        let whole = motion.to_bytes();
        for chunk_bytes in [1, 100, 111, 500, 4096] {
            let mut out = Vec::new();
            let mut buf = Vec::new();
            let mut flushes = 0;
            motion
                .encode_in_chunks(&mut buf, chunk_bytes, |b| {
                    flushes += 1;
                    out.append(b);
                    Ok(())
                })
                .unwrap();
            out.append(&mut buf);
            assert_eq!(out, whole, "chunk size {chunk_bytes}");
            assert!(flushes > 0);
        }
        let mut streamed = Vec::new();
        motion.write_to(&mut streamed).unwrap();
        assert_eq!(streamed, whole);
    }
}
