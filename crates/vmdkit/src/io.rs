//! File output that never leaves a half-written file behind.

use std::io::{self, Write};
use std::path::Path;

/// Writes `bytes` to `path` through a temporary file in the same folder and a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomic_with(path, |file| file.write_all(bytes))
}

/// Like [`write_atomic`], with the content produced by `fill`.
pub fn write_atomic_with(
    path: &Path,
    fill: impl FnOnce(&mut io::BufWriter<&std::fs::File>) -> io::Result<()>,
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
    let tmp = dir.join(tmp_name);
    let result = (|| {
        let file = std::fs::File::create(&tmp)?;
        let mut writer = io::BufWriter::new(&file);
        fill(&mut writer)?;
        writer.flush()?;
        drop(writer);
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
