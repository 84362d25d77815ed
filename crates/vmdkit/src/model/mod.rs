//! Models and poses: PMX and PMD bone tables, VPD pose files.
//!
//! [`Model::parse`] reads PMX 2.0/2.1 and PMD 1.0 into one [`Model`]: the whole bone table
//! (PMD converted to PMX terms) and the morphs that move bones. The other sections are walked
//! and checked but not kept. Damaged input gives a [`ModelError`] naming the section, record
//! and byte offset; every count is checked against the bytes left before anything is
//! allocated, so no input can cause a large allocation or a panic.
//!
//! [`VpdPose`] reads and writes VPD pose files.
//!
//! ```
//! let pose = vmdkit::model::VpdPose::parse(
//!     "Vocaloid Pose Data file\n\nmiku.osm;\n1;\n\nBone0{センター\n  0,1,0;\n  0,0,0,1;\n}\n"
//!         .as_bytes(),
//! )
//! .unwrap();
//! assert_eq!(pose.bones[0].name, "センター");
//! assert_eq!(vmdkit::model::VpdPose::parse(&pose.to_bytes()).unwrap(), pose);
//! ```

mod error;
mod pmd;
mod pmx;
mod reader;
mod types;
mod vpd;

#[cfg(test)]
mod tests;

pub use error::{ModelError, ModelErrorKind, ModelSection};
pub use types::*;
pub use vpd::{VpdBone, VpdError, VpdErrorKind, VpdPose};

use crate::error::{read_and_parse, FileError};

impl Model {
    /// Reads a PMX or PMD file's bytes; the format is chosen by the magic bytes.
    pub fn parse(data: &[u8]) -> Result<Model, ModelError> {
        if pmx::is_pmx(data) {
            pmx::parse(data)
        } else if pmd::is_pmd(data) {
            pmd::parse(data)
        } else {
            let start = &data[..data.len().min(8)];
            let what = if data.starts_with(b"Vocaloid Motion Data") {
                "a VMD motion file".to_string()
            } else if data.starts_with(b"Vocaloid Pose Data") {
                "a VPD pose file".to_string()
            } else {
                format!("it starts with {:?}", String::from_utf8_lossy(start))
            };
            Err(ModelError {
                kind: ModelErrorKind::NotAModel { what },
                section: ModelSection::Header,
                record: None,
                offset: 0,
            })
        }
    }

    /// Reads a PMX or PMD file.
    pub fn read_file(path: impl AsRef<std::path::Path>) -> Result<Model, FileError<ModelError>> {
        read_and_parse(path.as_ref(), Model::parse)
    }
}

impl VpdPose {
    /// Reads a VPD file.
    pub fn read_file(path: impl AsRef<std::path::Path>) -> Result<VpdPose, FileError<VpdError>> {
        read_and_parse(path.as_ref(), VpdPose::parse)
    }

    /// Writes the pose as MMD writes a VPD ([`VpdPose::to_bytes`]), atomically.
    pub fn write_file(&self, path: impl AsRef<std::path::Path>) -> std::io::Result<()> {
        crate::io::write_atomic(path.as_ref(), &self.to_bytes())
    }
}
