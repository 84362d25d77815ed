//! Reading a texture a model names, which is untrusted input: a model file can name any path
//! (`../../secret/key.png`, `/home/me/photo.jpg`, a link that leaves its folder), a device
//! (`/dev/zero` never ends), a named pipe (opening it waits for a writer forever) or a file of
//! gigabytes. So a texture is read only when
//!
//! * its path, after following every link, lies inside the model's folder (also after
//!   following links), unless [`TextureAccess::allow_outside`] says otherwise;
//! * it is a regular file, checked before it is opened (a FIFO would block the open) and again
//!   on the opened handle (the path may have been swapped in between);
//! * when its whole content is read (embedding), it is at most [`TextureAccess::max_bytes`],
//!   by its size and by reading at most one byte more (a file that grows is caught too).

use crate::shown::Shown;
use std::fs::{File, FileType};
use std::io::Read;
use std::path::{Path, PathBuf};

/// The default largest texture embedded: 64 MiB. MMD textures are a few MiB at most; an
/// uncompressed 4096 × 4096 RGBA image is 64 MiB.
pub const DEFAULT_MAX_TEXTURE_BYTES: u64 = 64 << 20;

/// Which texture files an export may read: the model's texture paths are untrusted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextureAccess {
    /// Read textures whose path resolves outside the model's folder (`..`, an absolute path,
    /// a link leaving the folder). Off by default: such a texture is left out with
    /// [`GltfNote::TextureOutside`](super::GltfNote::TextureOutside).
    pub allow_outside: bool,
    /// The largest texture copied into the output, in bytes ([`DEFAULT_MAX_TEXTURE_BYTES`]).
    /// Referenced textures are only sniffed (their first 4 KiB), whatever their size.
    pub max_bytes: u64,
}

impl Default for TextureAccess {
    fn default() -> Self {
        TextureAccess { allow_outside: false, max_bytes: DEFAULT_MAX_TEXTURE_BYTES }
    }
}

/// Why a texture was not read.
#[derive(Debug)]
pub(super) enum Refused {
    /// Its path resolves outside the model's folder, to `resolved`.
    Outside { resolved: PathBuf },
    /// Larger than the limit.
    TooLarge { bytes: u64 },
    /// Anything else (missing, unreadable, not a regular file), as the reason to show.
    Other(String),
}

/// How many bytes tell a texture's format and whether it has alpha.
const HEAD_BYTES: u64 = 4096;

/// The file the model's texture `name` names, under `model_dir`: `\` is read as `/`, as
/// Windows tools write them.
pub(super) fn path_of(model_dir: &Path, name: &str) -> PathBuf {
    model_dir.join(name.replace('\\', "/"))
}

/// The bytes of the model's texture `name`: all of them when `whole` (embedding), else the
/// first 4 KiB. See the module's documentation for what is refused.
pub(super) fn read(
    model_dir: &Path,
    name: &str,
    access: &TextureAccess,
    whole: bool,
) -> Result<Vec<u8>, Refused> {
    let file = path_of(model_dir, name);
    // Paths come from the model: messages show them cut and escaped.
    let shown = file.display().to_string();
    let io = |e: std::io::Error| Refused::Other(format!("{}: {e}", Shown(&shown)));
    let resolved = std::fs::canonicalize(&file).map_err(io)?;
    if !access.allow_outside {
        // An empty folder (a model named without one) is the current folder.
        let dir = if model_dir.as_os_str().is_empty() { Path::new(".") } else { model_dir };
        let dir = std::fs::canonicalize(dir)
            .map_err(|e| Refused::Other(format!("the model's folder {}: {e}", dir.display())))?;
        if !resolved.starts_with(&dir) {
            return Err(Refused::Outside { resolved });
        }
    }
    // The type before opening: opening a FIFO would wait for a writer.
    let kind = std::fs::metadata(&resolved).map_err(io)?.file_type();
    refuse_special(&resolved, kind)?;
    let f = File::open(&resolved).map_err(io)?;
    let meta = f.metadata().map_err(io)?;
    refuse_special(&resolved, meta.file_type())?;
    let cap = if whole { access.max_bytes } else { HEAD_BYTES };
    if whole && meta.len() > cap {
        return Err(Refused::TooLarge { bytes: meta.len() });
    }
    let mut bytes = Vec::with_capacity(meta.len().min(cap) as usize);
    // One byte more than allowed tells a file that grew since its size was read.
    f.take(cap.saturating_add(1)).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > cap {
        if whole {
            return Err(Refused::TooLarge { bytes: bytes.len() as u64 });
        }
        bytes.truncate(cap as usize);
    }
    Ok(bytes)
}

/// Refuses anything but a regular file, naming what it is.
fn refuse_special(path: &Path, kind: FileType) -> Result<(), Refused> {
    if kind.is_file() {
        return Ok(());
    }
    let shown = path.display().to_string();
    Err(Refused::Other(format!("{}: is {}, not a regular file", Shown(&shown), describe(kind))))
}

fn describe(kind: FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a folder"
    } else {
        "a special file"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_files_inside_the_folder_are_read_and_within_the_cap() {
        let dir = tempfile::tempdir().unwrap();
        let model_dir = dir.path().join("model");
        std::fs::create_dir_all(model_dir.join("tex")).unwrap();
        std::fs::write(dir.path().join("secret.png"), b"secret").unwrap();
        std::fs::write(model_dir.join("tex/a.png"), b"0123456789").unwrap();
        let access = TextureAccess::default();
        assert_eq!(read(&model_dir, "tex\\a.png", &access, true).unwrap(), b"0123456789");
        for name in ["../secret.png", "..\\secret.png", "tex/../../secret.png"] {
            let refused = read(&model_dir, name, &access, true).unwrap_err();
            assert!(matches!(refused, Refused::Outside { .. }), "{name}: {refused:?}");
        }
        let open = TextureAccess { allow_outside: true, ..access };
        assert_eq!(read(&model_dir, "../secret.png", &open, true).unwrap(), b"secret");
        let small = TextureAccess { max_bytes: 4, ..access };
        let refused = read(&model_dir, "tex/a.png", &small, true).unwrap_err();
        assert!(matches!(refused, Refused::TooLarge { bytes: 10 }), "{refused:?}");
        // Sniffing reads the head only, whatever the cap.
        assert_eq!(read(&model_dir, "tex/a.png", &small, false).unwrap().len(), 10);
        let refused = read(&model_dir, "tex", &access, false).unwrap_err();
        assert!(matches!(&refused, Refused::Other(m) if m.contains("a folder")), "{refused:?}");
    }
}
