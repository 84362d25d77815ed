//! Folders given where files are taken: expanded to the `*.vmd` files under them.

use crate::error::usage;
use crate::input::format::Format;
use crate::input::stdio::is_stdio;
use anyhow::Context;
use std::path::{Path, PathBuf};

/// Expands folders to the `*.vmd` files under them (sorted, so output order is stable); files
/// are kept as given, whatever their extension. A folder without any VMD is an error, so that
/// `vmdkit check folder/` never passes by checking nothing.
pub fn expand_inputs(args: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    if args.iter().filter(|a| is_stdio(a)).count() > 1 {
        return Err(usage("- (stdin) can be given once"));
    }
    let mut files = Vec::new();
    for arg in args {
        if arg.is_dir() {
            let before = files.len();
            collect_vmds(arg, &mut files)?;
            files[before..].sort();
            anyhow::ensure!(
                files.len() > before,
                "{}: no .vmd files in this folder",
                arg.display()
            );
        } else {
            files.push(arg.clone());
        }
    }
    Ok(files)
}

fn collect_vmds(dir: &Path, out: &mut Vec<PathBuf>) -> anyhow::Result<()> {
    let entries =
        std::fs::read_dir(dir).with_context(|| format!("cannot list {}", dir.display()))?;
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot list {}", dir.display()))?;
        let path = entry.path();
        // The entry's own type: symlinked folders are not followed, so a link loop cannot
        // recurse forever; symlinked files are read.
        let kind = entry.file_type().with_context(|| format!("cannot read {}", path.display()))?;
        if kind.is_dir() {
            collect_vmds(&path, out)?;
        } else if Format::from_path(&path) == Some(Format::Vmd) && path.is_file() {
            out.push(path);
        }
    }
    Ok(())
}
