//! Models and poses: PMX and PMD bone tables, VPD pose files.
//!
//! [`Model::parse`] reads PMX 2.0/2.1 and PMD 1.0 into one [`Model`]: the whole bone table
//! (PMD converted to PMX terms), the morphs that move bones, and the physics rigid bodies and
//! joints ([`Model::physics_problems`] says which a simulation cannot use). The other sections
//! are walked and checked but not kept. Damaged input gives a [`ModelError`] naming the section, record
//! and byte offset; every count is checked against the bytes left before anything is
//! allocated, so no input can cause a large allocation or a panic.
//!
//! [`Model::parse_bone_csv`] reads PmxEditor's bone-table CSV export as a model with bones only;
//! [`Model::parse`] and [`Model::read_file`] recognise it too, so a CSV serves wherever a model
//! is asked for. Its errors name the line and column.
//!
//! [`Mesh::parse`] reads the same files' vertices, faces, materials and vertex morphs, for
//! exports that draw the model (glTF).
//!
//! [`VpdPose`] reads and writes VPD pose files, and turns a pose into a one-frame motion and a
//! motion at any time into a pose ([`VpdPose::to_motion`], [`VpdPose::from_motion`]).
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

pub(crate) mod bone_csv;
mod error;
mod mesh;
mod physics_check;
mod pmd;
mod pmd_mesh;
mod pmd_physics;
mod pmx;
mod pmx_mesh;
mod reader;
mod rigid;
mod types;
mod vpd;
mod vpd_motion;

#[cfg(test)]
mod tests;

pub use error::{CsvProblem, ModelError, ModelErrorKind, ModelSection};
pub use mesh::{GroupMorph, Material, Mesh, VertexMorph, VertexWeights, WeightKind};
pub use physics_check::{JointEnd, PhysicsItem, PhysicsProblem, PhysicsProblemKind};
pub use types::*;
pub use vpd::{VpdBone, VpdError, VpdErrorKind, VpdPose};
pub use vpd_motion::PoseNameNotes;

use crate::error::{read_and_parse, FileError};

/// Which reader a mesh needs; here, above the readers, so that `mesh.rs` (the types) and the
/// PMX and PMD mesh readers import one way.
impl Mesh {
    /// Reads a PMX or PMD file's mesh. A bone CSV has none: that is
    /// [`ModelErrorKind::NotAModel`].
    pub fn parse(data: &[u8]) -> Result<Mesh, ModelError> {
        if data.starts_with(b"PMX ") {
            pmx_mesh::parse(data)
        } else if data.starts_with(b"Pmd") {
            pmd_mesh::parse(data)
        } else {
            Err(ModelError {
                kind: ModelErrorKind::NotAModel {
                    what: "only PMX and PMD files have a mesh".to_string(),
                },
                section: ModelSection::Header,
                record: None,
                offset: 0,
            })
        }
    }

    /// Reads a PMX or PMD file's mesh ([`Mesh::parse`]).
    pub fn read_file(path: impl AsRef<std::path::Path>) -> Result<Mesh, FileError<ModelError>> {
        read_and_parse(path.as_ref(), Mesh::parse)
    }
}

impl Model {
    /// Reads a PMX or PMD file's bytes, or a bone CSV's ([`Model::parse_bone_csv`]); the format
    /// is chosen by the magic bytes, or for the CSV by a first non-empty line that starts with
    /// `;Bone` or `Bone,`. A CSV may be UTF-8 (with or without a byte order mark) or
    /// Shift-JIS; error offsets count the file's bytes in either encoding.
    pub fn parse(data: &[u8]) -> Result<Model, ModelError> {
        if pmx::is_pmx(data) {
            pmx::parse(data)
        } else if pmd::is_pmd(data) {
            pmd::parse(data)
        } else if crate::file_kind::is_bone_csv(data) {
            bone_csv::parse_bytes(data)
        } else {
            let start = &data[..data.len().min(8)];
            let what = match crate::FileKind::detect(data) {
                crate::FileKind::Vmd => "a VMD motion file".to_string(),
                crate::FileKind::Vpd => "a VPD pose file".to_string(),
                crate::FileKind::Text | crate::FileKind::Binary | crate::FileKind::Json => {
                    format!("it starts with {:?}", String::from_utf8_lossy(start))
                }
                kind => format!("this is {kind}"),
            };
            Err(ModelError {
                kind: ModelErrorKind::NotAModel { what },
                section: ModelSection::Header,
                record: None,
                offset: 0,
            })
        }
    }

    /// Reads a PMX, PMD or bone CSV file ([`Model::parse`]).
    pub fn read_file(path: impl AsRef<std::path::Path>) -> Result<Model, FileError<ModelError>> {
        read_and_parse(path.as_ref(), Model::parse)
    }
}

impl Model {
    /// Reads a PmxEditor bone-table CSV export: `Bone` rows (the 40 columns of the export's
    /// `;Bone` header) and `IKLink` rows (IK bone, link bone, limit flag, then min and max
    /// per axis in degrees); `;` lines are comments and rows of other kinds are skipped.
    ///
    /// The model has the bones and IK chains only, as [`ModelFormat::BoneCsv`]: no name,
    /// comment or morphs. Names are resolved after all rows are read, so a row may name a
    /// later bone; an empty name means none, and a name no bone has is an error, except as a
    /// display tail, which is left unset. Angles (IK unit angle, link limits) are converted
    /// from degrees to radians. Errors say the line, column and field name, with the bone's
    /// index as [`ModelError::record`] (for `IKLink` rows, the link row's).
    ///
    /// ```
    /// let csv = "Bone,センター,center,0,0,0,8,0,1,1,0,1,1,,1,,0,0,0,0,0,0,1,,0,0,0,0,0,1,0,0,0,0,1,0,0,,0,57.29578\n\
    ///            Bone,上半身,upper body,0,0,0,13,0,1,0,0,1,1,センター,1,,0,0,0,0,0,0,1,,0,0,0,0,0,1,0,0,0,0,1,0,0,,0,57.29578\n";
    /// let model = vmdkit::model::Model::parse_bone_csv(csv).unwrap();
    /// assert_eq!(model.bones[1].parent, Some(0));
    /// ```
    pub fn parse_bone_csv(text: &str) -> Result<Model, ModelError> {
        bone_csv::parse(text)
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
