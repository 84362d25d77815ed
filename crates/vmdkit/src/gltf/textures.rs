//! Material textures: looked up next to the model (within its folder, regular files only,
//! embedded within a size cap: see `texture_file`), checked to be PNG or JPEG (the only image
//! formats of core glTF), then referenced by a path relative to the output or embedded.
//! A texture that is refused, missing, unreadable or of another format is reported and left
//! out; its materials keep their colour.

use super::buffer::{Builder, Usage};
use super::texture_file::{self, Refused, TextureAccess};
use super::GltfNote;
use gltf_json as json;
use json::texture::{MagFilter, MinFilter, WrappingMode};
use json::validation::Checked;
use json::Index;
use std::path::{Component, Path, PathBuf};

/// What to do with a model's textures.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub enum Textures {
    /// Write none (materials keep their colours).
    #[default]
    Skip,
    /// Refer to each texture by its path relative to the GLB's folder.
    Reference {
        /// The folder the model's texture paths are relative to (the model file's).
        model_dir: PathBuf,
        /// The folder the GLB is written to.
        output_dir: PathBuf,
    },
    /// Copy each texture's bytes into the GLB.
    Embed {
        /// The folder the model's texture paths are relative to (the model file's).
        model_dir: PathBuf,
    },
}

/// A texture written: its index, and whether its image may have transparent pixels.
#[derive(Clone, Copy)]
pub(super) struct Written {
    pub index: Index<json::Texture>,
    pub alpha: bool,
}

enum Format {
    Png,
    Jpeg,
}

fn sniff(head: &[u8]) -> Option<Format> {
    if head.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some(Format::Png)
    } else if head.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some(Format::Jpeg)
    } else {
        None
    }
}

/// PNG colour types 4 and 6 carry alpha; a palette or grey image with a `tRNS` chunk does too,
/// which the first 4 KiB show when the chunk is there at all (it precedes the image data).
fn png_alpha(head: &[u8]) -> bool {
    matches!(head.get(25), Some(4 | 6)) || head.windows(4).any(|w| w == b"tRNS")
}

/// The textures `used` (indices into `paths`), each written or reported.
pub(super) fn write(
    b: &mut Builder,
    paths: &[String],
    used: &[bool],
    mode: &Textures,
    access: &TextureAccess,
    notes: &mut Vec<GltfNote>,
) -> Vec<Option<Written>> {
    let mut out = vec![None; paths.len()];
    let model_dir = match mode {
        Textures::Skip => return out,
        Textures::Reference { model_dir, .. } | Textures::Embed { model_dir } => model_dir,
    };
    let mut sampler = None;
    for (i, path) in paths.iter().enumerate().filter(|&(i, _)| used[i]) {
        let file = texture_file::path_of(model_dir, path);
        let skip = |reason: String| GltfNote::TextureSkipped { path: path.clone(), reason };
        let embed = matches!(mode, Textures::Embed { .. });
        let bytes = match texture_file::read(model_dir, path, access, embed) {
            Ok(bytes) => bytes,
            Err(refused) => {
                notes.push(match refused {
                    Refused::Outside { resolved } => {
                        GltfNote::TextureOutside { path: path.clone(), resolved }
                    }
                    Refused::TooLarge { bytes } => GltfNote::TextureTooLarge {
                        path: path.clone(),
                        bytes,
                        limit: access.max_bytes,
                    },
                    Refused::Other(reason) => skip(reason),
                });
                continue;
            }
        };
        let Some(format) = sniff(&bytes) else {
            notes.push(skip("not a PNG or JPEG image (core glTF has no other)".to_string()));
            continue;
        };
        let alpha = matches!(format, Format::Png) && png_alpha(&bytes[..bytes.len().min(4096)]);
        let image = match mode {
            Textures::Embed { .. } => {
                let view = b.view(&bytes, Usage::Other);
                let mime = match format {
                    Format::Png => "image/png",
                    Format::Jpeg => "image/jpeg",
                };
                json::Image {
                    buffer_view: Some(view),
                    mime_type: Some(json::image::MimeType(mime.to_string())),
                    name: Some(path.clone()),
                    uri: None,
                    extensions: None,
                    extras: Default::default(),
                }
            }
            Textures::Reference { output_dir, .. } => match relative_uri(&file, output_dir) {
                Some(uri) => json::Image {
                    buffer_view: None,
                    mime_type: None,
                    name: Some(path.clone()),
                    uri: Some(uri),
                    extensions: None,
                    extras: Default::default(),
                },
                None => {
                    notes.push(skip("no path from the output's folder to it".to_string()));
                    continue;
                }
            },
            Textures::Skip => unreachable!("returned above"),
        };
        let source = b.root.push(image);
        let sampler = *sampler.get_or_insert_with(|| {
            b.root.push(json::texture::Sampler {
                mag_filter: Some(Checked::Valid(MagFilter::Linear)),
                min_filter: Some(Checked::Valid(MinFilter::LinearMipmapLinear)),
                name: None,
                wrap_s: Checked::Valid(WrappingMode::Repeat),
                wrap_t: Checked::Valid(WrappingMode::Repeat),
                extensions: None,
                extras: Default::default(),
            })
        });
        let index = b.root.push(json::Texture {
            name: None,
            sampler: Some(sampler),
            source,
            extensions: None,
            extras: Default::default(),
        });
        out[i] = Some(Written { index, alpha });
    }
    out
}

/// `file` relative to `dir`, `/`-separated and percent-encoded as a URI reference.
fn relative_uri(file: &Path, dir: &Path) -> Option<String> {
    let file = normalise(&std::path::absolute(file).ok()?);
    let dir = normalise(&std::path::absolute(dir).ok()?);
    let common = file.iter().zip(dir.iter()).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return None;
    }
    let mut parts: Vec<String> = dir.iter().skip(common).map(|_| "..".to_string()).collect();
    for part in file.iter().skip(common) {
        parts.push(percent_encode(part.to_str()?));
    }
    Some(parts.join("/"))
}

/// `.` and `..` resolved lexically (the texture need not exist for the path to be made).
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

fn percent_encode(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    for &byte in segment.as_bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_uris_climb_and_encode() {
        let uri = relative_uri(Path::new("/a/model/tex/肌 1.png"), Path::new("/a/out")).unwrap();
        assert_eq!(uri, "../model/tex/%E8%82%8C%201.png");
        let same = relative_uri(Path::new("/a/out/./t.png"), Path::new("/a/out")).unwrap();
        assert_eq!(same, "t.png");
    }

    #[test]
    fn formats_are_told_by_their_bytes() {
        assert!(matches!(sniff(b"\x89PNG\r\n\x1a\nrest"), Some(Format::Png)));
        assert!(matches!(sniff(&[0xFF, 0xD8, 0xFF, 0xE0]), Some(Format::Jpeg)));
        assert!(sniff(b"BM\x00\x00").is_none());
    }
}
