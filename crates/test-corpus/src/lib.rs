//! Access to `../shared/corpus`: real MMD files made by other people, read in place and never
//! copied into the repository, with `MANIFEST.tsv`'s expected values.
//!
//! When the corpus is missing, [`corpus_or_skip`] fails under CI (`CI` set) and otherwise prints
//! a notice and lets the test pass as skipped.

#![warn(missing_docs)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};

pub mod alloc;
pub mod alone;
pub mod files;

/// The corpus folder: `$VMDKIT_CORPUS`, or `shared/corpus` beside the workspace.
pub fn corpus_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("VMDKIT_CORPUS") {
        return PathBuf::from(dir);
    }
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    workspace.join("../shared/corpus")
}

/// The keypoint and motion-capture folder: `$VMDKIT_POSE`, or `shared/pose` beside the
/// workspace.
pub fn pose_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("VMDKIT_POSE") {
        return PathBuf::from(dir);
    }
    corpus_dir().join("../pose")
}

/// A file of the pose folder, or `None` (after a notice) when it is missing outside CI. Panics
/// under CI, where the folder must be present.
pub fn pose_file_or_skip(test: &str, name: &str) -> Option<PathBuf> {
    let path = pose_dir().join(name);
    if path.is_file() {
        return Some(path);
    }
    if std::env::var_os("CI").is_some() {
        panic!("{test}: the shared pose data is required under CI: {} is missing", path.display());
    }
    eprintln!("SKIPPED {test}: no shared pose file at {}", path.display());
    None
}

/// The parsed manifest, or `None` (after a notice) when the corpus is missing outside CI.
/// Panics under CI, where the corpus must be present.
pub fn corpus_or_skip(test: &str) -> Option<Manifest> {
    let dir = corpus_dir();
    match Manifest::load(&dir) {
        Ok(manifest) => Some(manifest),
        Err(err) if std::env::var_os("CI").is_some() => {
            panic!("{test}: the shared corpus is required under CI: {}: {err}", dir.display())
        }
        Err(err) => {
            eprintln!("SKIPPED {test}: no shared corpus at {} ({err})", dir.display());
            None
        }
    }
}

/// One row of `MANIFEST.tsv`.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Where the file is on disk (the corpus folder joined with `local_path`).
    pub path: PathBuf,
    /// The file's path inside the corpus folder, as the manifest names it.
    pub local_path: String,
    fields: HashMap<String, String>,
}

impl Entry {
    /// A column's value ("" when empty).
    pub fn get(&self, column: &str) -> &str {
        self.fields.get(column).map_or("", |s| s.as_str())
    }

    /// A count column: `None` when blank (the section is absent).
    pub fn count(&self, column: &str) -> Option<u64> {
        self.get(column).parse().ok()
    }

    /// The file's kind: `vmd`, `pmx`, `pmd` or `vpd`.
    pub fn kind(&self) -> &str {
        self.get("kind")
    }

    /// Whether the manifest says the file reads without error.
    pub fn parse_ok(&self) -> bool {
        self.get("parse_ok") == "yes"
    }

    /// The file's bytes, read in place; panics (naming the file) when it cannot be read.
    pub fn bytes(&self) -> Vec<u8> {
        std::fs::read(&self.path).unwrap_or_else(|e| panic!("{}: {e}", self.path.display()))
    }
}

/// The whole manifest.
#[derive(Clone, Debug)]
pub struct Manifest {
    /// The corpus folder the manifest was read from.
    pub dir: PathBuf,
    /// Every row, in the manifest's order.
    pub entries: Vec<Entry>,
}

impl Manifest {
    /// Reads `MANIFEST.tsv` in `dir`; columns are named by its header line.
    pub fn load(dir: &Path) -> std::io::Result<Manifest> {
        let text = std::fs::read_to_string(dir.join("MANIFEST.tsv"))?;
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap_or("").split('\t').collect();
        let entries = lines
            .filter(|l| !l.trim().is_empty())
            .map(|line| {
                let fields: HashMap<String, String> = header
                    .iter()
                    .zip(line.split('\t'))
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect();
                let local_path = fields["local_path"].clone();
                Entry { path: dir.join(&local_path), local_path, fields }
            })
            .collect();
        Ok(Manifest { dir: dir.to_path_buf(), entries })
    }

    /// Entries of one kind: `vmd`, `pmx`, `pmd` or `vpd`.
    pub fn of_kind<'a>(&'a self, kind: &'a str) -> impl Iterator<Item = &'a Entry> + 'a {
        self.entries.iter().filter(move |e| e.kind() == kind)
    }

    /// The largest file of a kind.
    pub fn largest(&self, kind: &str) -> &Entry {
        self.entries
            .iter()
            .filter(|e| e.kind() == kind)
            .max_by_key(|e| e.get("bytes").parse::<u64>().unwrap_or(0))
            .expect("the corpus has files of this kind")
    }
}
