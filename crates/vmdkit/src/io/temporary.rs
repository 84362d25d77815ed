//! The process-wide list of temporary files being written, so that a program interrupted by a
//! signal can delete them (an interrupted multi-GB bake would otherwise leave its hidden
//! `.NAME.PID.tmp` behind).

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

struct Registry {
    paths: Vec<PathBuf>,
    /// Set by [`remove_temporary_files`]: the process is about to exit, and a temporary file
    /// created after the sweep would be left behind.
    closed: bool,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry { paths: Vec::new(), closed: false });

/// The registry even after a panic elsewhere: the list stays valid (each change is one push
/// or remove), and a signal handler must still be able to clean up.
fn registry() -> MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A temporary file in the registry. Dropped before [`Temporary::keep`], it deletes the file,
/// so an error or a panic while writing leaves nothing behind.
pub(super) struct Temporary {
    path: PathBuf,
    kept: bool,
}

impl Temporary {
    /// Creates the file at `path` and lists it. Both happen under the registry's lock, so a
    /// concurrent [`remove_temporary_files`] either sees the file or refuses it.
    pub(super) fn create(path: PathBuf) -> io::Result<(Temporary, File)> {
        let mut registry = registry();
        if registry.closed {
            return Err(io::Error::new(
                io::ErrorKind::Interrupted,
                "interrupted: the program is removing its temporary files to exit",
            ));
        }
        let file = File::create(&path)?;
        registry.paths.push(path.clone());
        Ok((Temporary { path, kept: false }, file))
    }

    /// The temporary file's path.
    pub(super) fn path(&self) -> &Path {
        &self.path
    }

    /// Unlists the file without deleting it: it has been renamed to its final name.
    pub(super) fn keep(mut self) {
        self.kept = true;
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        let mut registry = registry();
        if let Some(at) = registry.paths.iter().position(|p| *p == self.path) {
            registry.paths.swap_remove(at);
            if !self.kept {
                let _ = std::fs::remove_file(&self.path);
            }
        }
    }
}

/// Deletes every temporary file that [`write_atomic_with`](super::write_atomic_with) is
/// writing in this process, and makes later writes through a temporary file fail with
/// [`io::ErrorKind::Interrupted`] rather than create one that nobody would remove.
///
/// For a signal handler about to exit the process (vmdkit installs none itself): the outputs
/// in progress are abandoned, and any existing file they would have replaced stays as it was.
/// It takes a lock, so call it from a thread, as `signal-hook`'s iterator or `ctrlc` do,
/// never from inside the signal handler itself.
pub fn remove_temporary_files() {
    let mut registry = registry();
    registry.closed = true;
    for path in registry.paths.drain(..) {
        let _ = std::fs::remove_file(path);
    }
}

/// Whether `path` is listed, for tests that check a write unlists its temporary file.
#[cfg(test)]
pub(super) fn is_listed(path: &Path) -> bool {
    registry().paths.iter().any(|p| p == path)
}
