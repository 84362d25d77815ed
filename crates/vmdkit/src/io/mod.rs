//! File output that never leaves a half-written file behind.
//!
//! [`write_atomic_with`] writes a regular file through a temporary file `.NAME.PID.tmp` in the
//! same folder and a rename, so that a failure never leaves a partial file and never touches
//! the existing one. What the path names decides the rest:
//!
//! * A symlink (or a chain of them) is followed: the file it points to is replaced, or created
//!   when the link dangles (its target taken relative to the link's folder), and the link stays
//!   a link. The temporary file goes in the target's folder, so the rename stays atomic there.
//! * An existing file keeps its permissions; on Unix also its owner and group where the process
//!   may set them (as root). Set-user-ID and set-group-ID bits are dropped, as `cp` drops them:
//!   the content is new. A new file gets the default mode, less the umask.
//! * A device, FIFO or other special file (`/dev/null`, `/dev/stdout`, a named pipe) is opened
//!   and written in place, since a rename would put a regular file where it was and its reader
//!   would get nothing. So is a regular file reached through one of `/proc`'s magic links
//!   (`/dev/stdout` redirected to a file), which names no folder to rename in. Nothing is
//!   atomic there, and nothing can seek ([`writes_in_place`] tells beforehand). Every error is
//!   returned, a full device's included: the buffer is flushed and checked.
//! * A folder or a socket is an error naming it.
//!
//! The temporary files being written are listed process-wide, so that a program stopped by a
//! signal can delete them with [`remove_temporary_files`]; this crate installs no signal
//! handler itself.

mod target;
mod temporary;
#[cfg(test)]
mod tests;

use std::fs::{File, Metadata};
use std::io::{self, Write};
use std::path::Path;
use target::Target;
use temporary::Temporary;

pub use temporary::remove_temporary_files;

/// Writes `bytes` to `path` through a temporary file in the same folder and a rename (see the
/// [module docs](self) for symlinks, devices and FIFOs).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomic_with(path, |file| file.write_all(bytes))
}

/// Like [`write_atomic`], with the content produced by `fill`. The writer seeks, except on a
/// path that [`writes_in_place`].
pub fn write_atomic_with(
    path: &Path,
    fill: impl FnOnce(&mut io::BufWriter<&File>) -> io::Result<()>,
) -> io::Result<()> {
    match target::resolve(path)? {
        Target::File { path, existing } => replace(&path, existing.as_ref(), fill),
        Target::InPlace(path) => write_in_place(&path, fill),
    }
}

/// Whether [`write_atomic_with`] would write `path` in place (a device or FIFO, possibly
/// through a symlink) rather than through a temporary file: such output cannot seek, so a
/// writer that seeks back (a zip's member sizes) has to be buffered first. False for paths that
/// cannot be written at all, whose error the write itself reports.
pub fn writes_in_place(path: &Path) -> bool {
    matches!(target::resolve(path), Ok(Target::InPlace(_)))
}

fn write_in_place(
    path: &Path,
    fill: impl FnOnce(&mut io::BufWriter<&File>) -> io::Result<()>,
) -> io::Result<()> {
    // Truncation as a shell's `>` asks for it: devices and FIFOs ignore it, and a regular file
    // reached through a magic link (`/dev/stdout > out.json`) must not keep a longer old tail.
    let file = std::fs::OpenOptions::new().write(true).truncate(true).open(path)?;
    let mut writer = io::BufWriter::new(&file);
    fill(&mut writer)?;
    // Not `sync_all`: pipes and character devices refuse fsync (EINVAL).
    writer.flush()
}

fn replace(
    path: &Path,
    existing: Option<&Metadata>,
    fill: impl FnOnce(&mut io::BufWriter<&File>) -> io::Result<()>,
) -> io::Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = path.file_name().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} is not a file path", path.display()),
        )
    })?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".{}.tmp", std::process::id()));
    let (tmp, file) = Temporary::create(dir.join(tmp_name))?;
    // Before any content is written, so a private file's new content is never readable by
    // others, not even while it is being written.
    if let Some(existing) = existing {
        keep_permissions(&file, existing)?;
    }
    let mut writer = io::BufWriter::new(&file);
    fill(&mut writer)?;
    writer.flush()?;
    drop(writer);
    file.sync_all()?;
    std::fs::rename(tmp.path(), path)?;
    tmp.keep();
    Ok(())
}

/// Gives the new file the owner, group and permission bits of the one it replaces.
#[cfg(unix)]
fn keep_permissions(file: &File, existing: &Metadata) -> io::Result<()> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let new = file.metadata()?;
    if (new.uid(), new.gid()) != (existing.uid(), existing.gid()) {
        // Best effort, as editors do: only root may give a file away, a user only to one of
        // their own groups, and the output is still written when neither is allowed.
        let (uid, gid) = (existing.uid(), existing.gid());
        if std::os::unix::fs::fchown(file, Some(uid), Some(gid)).is_err() {
            let _ = std::os::unix::fs::fchown(file, None, Some(gid));
        }
    }
    // After chown, which clears set-id bits.
    file.set_permissions(std::fs::Permissions::from_mode(existing.mode() & 0o1777))
}

/// Elsewhere the default permissions: std can copy only a read-only flag there, and replacing a
/// read-only file fails anyway.
#[cfg(not(unix))]
fn keep_permissions(_: &File, _: &Metadata) -> io::Result<()> {
    Ok(())
}
