//! The owned motion: every keyframe decoded into typed records.

use super::layout::{ReadOptions, Section, Version, SIGNATURE_LEN, SIGNATURE_V2};
use super::records::{bone_refs, BoneKey, CameraKey, LightKey, MorphKey, PropertyKey, ShadowKey};
use super::repair::Repair;
use super::view::MotionView;
use crate::error::{Error, ReadError};
use crate::text::{detect_encoding, LongName, RawName, TextEncoding};
use std::path::Path;

/// The model name a camera/light motion carries: `カメラ・照明` in CP932.
pub const CAMERA_MODEL_NAME: &[u8] = b"\x83\x4A\x83\x81\x83\x89\x81\x45\x8F\xC6\x96\xBE";

/// The signature and model name fields, kept raw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// All 30 bytes of the signature field, padding included.
    pub signature: [u8; SIGNATURE_LEN],
    /// The model name field. Version 1 files use only the first 10 bytes; the rest is zero.
    pub model_name: LongName,
}

impl Header {
    /// The header MMD writes for a model motion: signature, five NULs, the name padded with
    /// a NUL and 0xFD.
    pub fn new(model_name: LongName) -> Self {
        let mut signature = [0u8; SIGNATURE_LEN];
        signature[..25].copy_from_slice(SIGNATURE_V2);
        Header { signature, model_name }
    }

    pub(crate) fn from_bytes(data: &[u8], version: Version) -> Self {
        let signature = data[..SIGNATURE_LEN].try_into().unwrap();
        let mut model_name = [0u8; 20];
        let len = version.model_name_len();
        model_name[..len].copy_from_slice(&data[SIGNATURE_LEN..SIGNATURE_LEN + len]);
        Header { signature, model_name: RawName(model_name) }
    }

    /// The version the signature announces; an unknown signature read leniently counts as 2.
    pub fn version(&self) -> Version {
        Version::from_signature(&self.signature).unwrap_or(Version::V2)
    }

    /// The model name field's bytes as stored in the file (10 or 20 bytes).
    pub fn model_name_field(&self) -> &[u8] {
        &self.model_name.0[..self.version().model_name_len()]
    }

    /// Whether this is a camera/light motion (model name `カメラ・照明`).
    pub fn is_camera_motion(&self) -> bool {
        self.model_name.bytes() == CAMERA_MODEL_NAME
    }
}

impl Default for Header {
    fn default() -> Self {
        Header::new(LongName::default())
    }
}

/// A whole motion with typed keyframes, in file order.
///
/// Reading then writing reproduces the file byte for byte: names keep their bytes after the
/// NUL, interpolation blocks are raw, absent trailing sections stay absent and bytes after the
/// last section are kept (unless reading was asked to keep only some of them, see
/// [`ReadOptions::max_trailing`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Motion {
    /// The signature and model name; the name decides whether MMD applies this as a model or a
    /// camera/light motion.
    pub header: Header,
    /// Bone keys in file order, not sorted: files are not guaranteed sorted by frame or name.
    pub bones: Vec<BoneKey>,
    /// Morph (facial) keys in file order.
    pub morphs: Vec<MorphKey>,
    /// Camera keys in file order; MMD uses them only in a camera/light motion.
    pub cameras: Vec<CameraKey>,
    /// Light keys in file order.
    pub lights: Vec<LightKey>,
    /// Self-shadow keys in file order.
    pub shadows: Vec<ShadowKey>,
    /// Property keys (visibility, IK on/off) in file order.
    pub properties: Vec<PropertyKey>,
    /// How many sections the file had, from the bone section on (0–6). Writing emits at least
    /// these, and any later section that has keys.
    pub sections_present: usize,
    /// Bytes after the last section.
    pub trailing: Vec<u8>,
    /// How many more bytes followed `trailing` in the file than it holds: left unread by
    /// [`ReadOptions::max_trailing`], or cut from a text document (its `trailing_len`). Writing
    /// cannot give them back, so a motion with any omitted makes a VMD that differs from the
    /// file; 0 for a motion read in full.
    pub trailing_omitted: u64,
}

impl Default for Motion {
    fn default() -> Self {
        Motion::new(LongName::default())
    }
}

/// A motion read leniently, with what was repaired.
#[derive(Clone, Debug)]
pub struct Parsed {
    /// The motion as read, repairs applied.
    pub motion: Motion,
    /// What lenient reading changed to read it, in file order; empty when the file was sound.
    pub repairs: Vec<Repair>,
}

impl Motion {
    /// An empty motion for a model, written the way MMD writes one (all six counts present).
    pub fn new(model_name: LongName) -> Self {
        Motion {
            header: Header::new(model_name),
            bones: Vec::new(),
            morphs: Vec::new(),
            cameras: Vec::new(),
            lights: Vec::new(),
            shadows: Vec::new(),
            properties: Vec::new(),
            sections_present: 6,
            trailing: Vec::new(),
            trailing_omitted: 0,
        }
    }

    /// An empty camera/light motion, with the model name MMD gives such files.
    pub fn new_camera() -> Self {
        Motion::new(LongName::from_bytes_mmd(CAMERA_MODEL_NAME))
    }

    /// Parses strictly: any damage is an error.
    pub fn parse(data: &[u8]) -> Result<Motion, Error> {
        Ok(Self::parse_with(data, ReadOptions::STRICT)?.motion)
    }

    /// Parses with `options`, returning what lenient reading repaired.
    pub fn parse_with(data: &[u8], options: ReadOptions) -> Result<Parsed, Error> {
        let view = MotionView::with_options(data, options)?;
        Ok(Parsed {
            motion: Motion::from_view(&view, options.max_trailing, &mut |_| {}),
            repairs: view.repairs().to_vec(),
        })
    }

    /// Decodes every record of a validated view, and at most `max_trailing` of the bytes after
    /// the last section (the rest are counted in [`trailing_omitted`](Motion::trailing_omitted)).
    /// `consumed` is told each byte offset up to which the input is no longer needed, so a
    /// memory-mapped reader can release it.
    pub fn from_view(
        view: &MotionView<'_>,
        max_trailing: usize,
        consumed: &mut dyn FnMut(usize),
    ) -> Motion {
        let layout = view.layout();
        let mut bones = Vec::with_capacity(view.count(Section::Bone));
        // Decode the bone section, nearly all of a large file, in slices so the input can be
        // released as we go.
        if let Some(span) = layout.span(Section::Bone) {
            let mut done = span.start;
            for chunk in view.records(Section::Bone).chunks(BoneKey::SIZE * 65536) {
                bones.extend(bone_refs(chunk).map(|r| r.to_key()));
                done += chunk.len();
                consumed(done);
            }
        }
        let morphs = view.morphs().map(|r| r.to_key()).collect();
        let mut motion = Motion {
            header: view.header(),
            bones,
            morphs,
            cameras: view.cameras().map(|r| r.to_key()).collect(),
            lights: view.lights().map(|r| r.to_key()).collect(),
            shadows: view.shadows().map(|r| r.to_key()).collect(),
            properties: view.properties().map(|r| r.to_key()).collect(),
            sections_present: layout.sections.len(),
            trailing: Vec::new(),
            trailing_omitted: 0,
        };
        // Copied in slices too: a file can be padded with gigabytes, which should not sit in
        // memory twice (mapped and copied).
        let all = view.trailing();
        let kept = &all[..all.len().min(max_trailing)];
        motion.trailing.reserve_exact(kept.len());
        let mut done = layout.end;
        for chunk in kept.chunks(1 << 20) {
            motion.trailing.extend_from_slice(chunk);
            done += chunk.len();
            consumed(done);
        }
        motion.trailing_omitted = (all.len() - kept.len()) as u64;
        motion
    }

    /// Reads a file strictly. With the `mmap` feature the file is memory-mapped and released as
    /// it is decoded, so the peak memory is about the size of the decoded motion, not twice the
    /// file; without it the file is read into memory first.
    pub fn read_file(path: impl AsRef<Path>) -> Result<Motion, ReadError> {
        Ok(Self::read_file_with(path, ReadOptions::STRICT)?.motion)
    }

    /// Reads a file with `options`.
    pub fn read_file_with(
        path: impl AsRef<Path>,
        options: ReadOptions,
    ) -> Result<Parsed, ReadError> {
        let path = path.as_ref();
        let file = std::fs::File::open(path).map_err(|e| ReadError::io(path, e))?;
        let metadata = file.metadata().map_err(|e| ReadError::io(path, e))?;
        if metadata.is_dir() {
            // Mapping a folder fails with "No such device", which says nothing useful.
            return Err(ReadError::io(path, std::io::ErrorKind::IsADirectory.into()));
        }
        let len = metadata.len();
        if len == 0 {
            return Self::parse_with(&[], options).map_err(|e| e.with_path(path));
        }
        Self::read_open_file(file, path, options)
    }

    /// Reads an open, non-empty file into memory and parses it.
    #[cfg(not(feature = "mmap"))]
    fn read_open_file(
        mut file: std::fs::File,
        path: &Path,
        options: ReadOptions,
    ) -> Result<Parsed, ReadError> {
        use std::io::Read;
        let mut data = Vec::new();
        file.read_to_end(&mut data).map_err(|e| ReadError::io(path, e))?;
        Self::parse_with(&data, options).map_err(|e| e.with_path(path))
    }

    /// Maps an open, non-empty file and decodes it, dropping pages behind the decoder.
    #[cfg(feature = "mmap")]
    fn read_open_file(
        file: std::fs::File,
        path: &Path,
        options: ReadOptions,
    ) -> Result<Parsed, ReadError> {
        // SAFETY: the map is read-only and private to this call; a file changed underneath us
        // gives wrong bytes, never unsoundness in safe code that reads them as plain bytes.
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|e| ReadError::io(path, e))?;
        let view = MotionView::with_options(&map, options).map_err(|e| e.with_path(path))?;
        let mut released = 0usize;
        let page = 1 << 20;
        let motion = Motion::from_view(&view, options.max_trailing, &mut |upto| {
            let upto = upto / page * page;
            if upto > released {
                // SAFETY: the pages are file-backed and read-only: dropping them only means they
                // are read from the file again if touched, and nothing reads them again.
                let _ = unsafe {
                    map.unchecked_advise_range(
                        memmap2::UncheckedAdvice::DontNeed,
                        released,
                        upto - released,
                    )
                };
                released = upto;
            }
        });
        Ok(Parsed { motion, repairs: view.repairs().to_vec() })
    }

    /// The encoding of the file's names, detected over every name in it.
    pub fn detect_encoding(&self) -> TextEncoding {
        let names = std::iter::once(self.header.model_name.for_detection())
            .chain(self.bones.iter().map(|k| k.name.for_detection()))
            .chain(self.morphs.iter().map(|k| k.name.for_detection()))
            .chain(
                self.properties.iter().flat_map(|p| p.ik.iter().map(|i| i.name.for_detection())),
            );
        detect_encoding(names)
    }

    /// The number of keys in `section`.
    pub fn count(&self, section: Section) -> usize {
        match section {
            Section::Bone => self.bones.len(),
            Section::Morph => self.morphs.len(),
            Section::Camera => self.cameras.len(),
            Section::Light => self.lights.len(),
            Section::SelfShadow => self.shadows.len(),
            Section::Property => self.properties.len(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_trailing_keeps_the_head_and_counts_the_rest() {
        let mut motion = crate::example::example_motion();
        motion.trailing = b"0123456789".to_vec();
        let bytes = motion.to_bytes();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tail.vmd");
        std::fs::write(&path, &bytes).unwrap();
        for options in [ReadOptions::STRICT, ReadOptions::LENIENT] {
            for max in [0, 4, 10, usize::MAX] {
                let options = options.with_max_trailing(max);
                let parsed = Motion::parse_with(&bytes, options).unwrap().motion;
                let read = Motion::read_file_with(&path, options).unwrap().motion;
                for m in [&parsed, &read] {
                    let kept = max.min(10);
                    assert_eq!(m.trailing, &b"0123456789"[..kept], "max {max}");
                    assert_eq!(m.trailing_omitted, 10 - kept as u64, "max {max}");
                    assert_eq!(m.bones, motion.bones);
                }
            }
        }
        assert_eq!(ReadOptions::default(), ReadOptions::STRICT);
        assert_eq!(Motion::read_file(&path).unwrap().to_bytes(), bytes);
    }

    #[test]
    fn a_folder_is_named_as_one() {
        let dir = tempfile::tempdir().unwrap();
        let err = Motion::read_file(dir.path()).unwrap_err();
        assert!(
            matches!(&err, ReadError::Io { error, .. }
            if error.kind() == std::io::ErrorKind::IsADirectory),
            "{err}"
        );
        assert_eq!(err.to_string(), format!("{}: is a directory", dir.path().display()));
    }
}
