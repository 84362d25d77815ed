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

/// Linux's own limit (ELOOP), so that a link cycle ends with an error rather than a hang.
const MAX_LINKS: usize = 40;

/// Asks the kernel first (`stat` follows every link, `/proc`'s magic ones included, which
/// name pipes and deleted files rather than paths), and follows links by hand only when they
/// dangle.
pub(super) fn resolve(path: &Path) -> io::Result<Target> {
    match fs::metadata(path) {
        Ok(meta) => existing(path, meta),
        Err(err) if err.kind() == io::ErrorKind::NotFound => {
            Ok(Target::File { path: dangling_end(path)?, existing: None })
        }
        Err(err) => Err(err),
    }
}

fn existing(path: &Path, meta: Metadata) -> io::Result<Target> {
    let kind = meta.file_type();
    if kind.is_file() {
        // The file's real path, so that the temporary file goes in its folder and the rename
        // replaces the file, not the link.
        return Ok(match fs::canonicalize(path) {
            Ok(real) if is_same_file(&real, &meta) => {
                Target::File { path: real, existing: Some(meta) }
            }
            // A magic link (`/dev/stdout` redirected to a file) names no path to rename over:
            // write the file it opens.
            _ => Target::InPlace(path.to_path_buf()),
        });
    }
    if kind.is_dir() {
        let real = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        return Err(io::Error::new(
            io::ErrorKind::IsADirectory,
            format!("{} is a folder", real.display()),
        ));
    }
    if is_socket(&meta) {
        // open(2) would fail with the obscure "No such device or address".
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} is a socket, which cannot be written as a file", path.display()),
        ));
    }
    Ok(Target::InPlace(path.to_path_buf()))
}

/// The path a dangling link (or chain of links) ends at: the file to create. Each target is
/// taken relative to its link's folder, as the kernel does when it creates through a link;
/// `fs::canonicalize` cannot help, since it fails on a path that does not exist.
fn dangling_end(path: &Path) -> io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..=MAX_LINKS {
        match fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = fs::read_link(&current)?;
                // An absolute link replaces the whole path in `join`.
                current = match current.parent() {
                    Some(dir) => dir.join(link),
                    None => link,
                };
            }
            Err(err) if err.kind() != io::ErrorKind::NotFound => return Err(err),
            // Missing (the file to create), or created since `resolve` looked.
            _ => return Ok(current),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("{}: too many levels of symbolic links", path.display()),
    ))
}

#[cfg(unix)]
fn is_same_file(path: &Path, meta: &Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    fs::metadata(path).is_ok_and(|m| (m.dev(), m.ino()) == (meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn is_same_file(_: &Path, _: &Metadata) -> bool {
    true
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
