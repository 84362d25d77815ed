//! `-` as an input: standard input, read into memory once when a command must tell a model,
//! pose or motion apart by its bytes, so that any of them can come through a pipe.

use std::io::Read;
use std::path::Path;
use std::sync::OnceLock;

/// Whether a file argument is `-` (stdin or stdout).
pub fn is_stdio(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Standard input once read: its bytes, or why it could not be read.
static STDIN: OnceLock<Result<Vec<u8>, String>> = OnceLock::new();

/// Standard input, read completely the first time it is asked for and kept for the process.
pub fn stdin_bytes() -> anyhow::Result<&'static [u8]> {
    let read = STDIN.get_or_init(|| {
        let mut data = Vec::new();
        std::io::stdin().lock().read_to_end(&mut data).map(|_| data).map_err(|e| e.to_string())
    });
    match read {
        Ok(data) => Ok(data),
        Err(e) => Err(anyhow::anyhow!("cannot read stdin: {e}")),
    }
}

/// Standard input if [`stdin_bytes`] has already read it (and could).
pub fn stdin_if_read() -> Option<&'static [u8]> {
    STDIN.get().and_then(|read| read.as_deref().ok())
}

/// The size of an input in bytes: of stdin when it has been read, else of the file (0 when
/// unknown).
pub fn input_size(path: &Path) -> u64 {
    match stdin_if_read() {
        Some(data) if is_stdio(path) => data.len() as u64,
        _ => std::fs::metadata(path).map_or(0, |m| m.len()),
    }
}

/// Up to `n` bytes from the start of `r`, fewer only at its end, however it splits them.
pub fn read_head(r: &mut impl Read, n: usize) -> std::io::Result<Vec<u8>> {
    let mut head = Vec::with_capacity(n);
    r.take(n as u64).read_to_end(&mut head)?;
    Ok(head)
}
