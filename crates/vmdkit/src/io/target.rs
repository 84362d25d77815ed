//! What an output path names once its symlinks are followed.

use std::fs::{self, Metadata};
use std::io;
use std::path::{Path, PathBuf};

/// Where the bytes for an output path go.
#[derive(Debug)]
pub(super) enum Target {
    /// A regular file, replaced through a temporary file beside it (or created), with the
    /// metadata of the file it replaces.
    File { path: PathBuf, existing: Option<Metadata> },
    /// A device, FIFO or other special file: opened and written in place, since a rename
    /// would put a regular file where the device was and its reader would get nothing.
    InPlace(PathBuf),
}

/// Linux's own limit (ELOOP), so a link cycle ends with an error rather than a hang.
const MAX_LINKS: usize = 40;

/// Follows `path`'s symlinks one at a time, rather than with `fs::canonicalize`, because a
/// dangling link (or a chain ending in one) must still give the file to create: its target
/// taken relative to the link's folder, as the kernel does when it opens through the link.
pub(super) fn resolve(path: &Path) -> io::Result<Target> {
    let mut current = path.to_path_buf();
    for _ in 0..=MAX_LINKS {
        let meta = match fs::symlink_metadata(&current) {
            Ok(meta) => meta,
            Err(err) if err.kind() == io::ErrorKind::NotFound => {
                return Ok(Target::File { path: current, existing: None });
            }
            Err(err) => return Err(err),
        };
        let kind = meta.file_type();
        if kind.is_symlink() {
            let link = fs::read_link(&current)?;
            // An absolute link replaces the whole path in `join`.
            current = match current.parent() {
                Some(dir) => dir.join(link),
                None => link,
            };
        } else if kind.is_file() {
            return Ok(Target::File { path: current, existing: Some(meta) });
        } else if kind.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::IsADirectory,
                format!("{} is a folder", current.display()),
            ));
        } else if is_socket(&meta) {
            // open(2) would fail with the obscure "No such device or address".
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{} is a socket, which cannot be written as a file", current.display()),
            ));
        } else {
            return Ok(Target::InPlace(current));
        }
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("{}: too many levels of symbolic links", path.display()),
    ))
}

#[cfg(unix)]
fn is_socket(meta: &Metadata) -> bool {
    use std::os::unix::fs::FileTypeExt;
    meta.file_type().is_socket()
}

#[cfg(not(unix))]
fn is_socket(_: &Metadata) -> bool {
    false
}
