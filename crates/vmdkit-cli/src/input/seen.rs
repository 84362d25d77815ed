//! The files this run has read, so that no output of the run replaces one of them: every
//! reader of an input calls [`note_input`], and the one writer of outputs
//! (`crate::output::write_output`) asks [`input_same_as`] before it writes, so that no command
//! has to list its inputs itself (a list per command is one a new flag can miss).

use crate::input::stdio::is_stdio;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The files this run has read, to be kept from being written over (see [`note_input`]).
static INPUTS: Mutex<Vec<(same_file::Handle, PathBuf)>> = Mutex::new(Vec::new());

/// Notes that `path` is one of the command's inputs (a motion, model, pose, camera, keypoint
/// or mapping file), so that no output of the run replaces it.
///
/// Only regular files are noted: a device or FIFO is not replaced by writing to it, and
/// opening a FIFO to identify it would wait for a writer.
pub fn note_input(path: &Path) {
    if is_stdio(path) || !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return;
    }
    // The handle keeps the identity (device and inode, or the Windows file index) of the file
    // read, whatever its path names by the time the output is written.
    if let Ok(handle) = same_file::Handle::from_path(path) {
        let mut inputs = INPUTS.lock().unwrap_or_else(|e| e.into_inner());
        inputs.push((handle, path.to_path_buf()));
    }
}

/// The input noted by [`note_input`] that is the same file as `output` (the same device and
/// inode, through links and other spellings of its path), as it was named; `None` for `-`,
/// devices, FIFOs and files not yet there.
pub fn input_same_as(output: &Path) -> Option<PathBuf> {
    if is_stdio(output) || !std::fs::metadata(output).is_ok_and(|m| m.is_file()) {
        return None;
    }
    let out = same_file::Handle::from_path(output).ok()?;
    let inputs = INPUTS.lock().unwrap_or_else(|e| e.into_inner());
    inputs.iter().find(|(input, _)| *input == out).map(|(_, input)| input.clone())
}
