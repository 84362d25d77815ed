//! [`FaceMesh`] and [`FaceBlock`]: the face landmarks a layout carries as one block of
//! consecutive role-less joints. Apart from `layout.rs` so that the built-in tables
//! (`layouts.rs`) can name a mesh without using the layout module that reads them.

/// A face mesh held by a layout as a block of consecutive joints, in the mesh's own order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FaceBlock {
    /// Which mesh, and so which point is which.
    pub mesh: FaceMesh,
    /// The index of the mesh's first point among the layout's joints.
    pub first: usize,
}

/// The face meshes layouts carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FaceMesh {
    /// MediaPipe Face Mesh's 468 points.
    MediaPipe468,
    /// MediaPipe Face Mesh with the irises refined: the 468 points, then 5 for each iris
    /// (468–472 the subject's right iris centre and rim, 473–477 the left, as MediaPipe orders
    /// them).
    MediaPipe478,
    /// The 68 points of the iBUG 300-W annotation, COCO-WholeBody's face.
    Ibug68,
}

impl FaceMesh {
    /// Every mesh, in the order mapping files' messages list them.
    pub const ALL: [FaceMesh; 3] =
        [FaceMesh::MediaPipe468, FaceMesh::MediaPipe478, FaceMesh::Ibug68];

    /// The number of points.
    pub fn len(self) -> usize {
        match self {
            FaceMesh::MediaPipe468 => 468,
            FaceMesh::MediaPipe478 => 478,
            FaceMesh::Ibug68 => 68,
        }
    }

    /// Whether the mesh has iris points, for gaze.
    pub fn has_irises(self) -> bool {
        self == FaceMesh::MediaPipe478
    }

    /// The mesh's name in mapping files: `mediapipe468`, `mediapipe478`, `ibug68`.
    pub fn name(self) -> &'static str {
        match self {
            FaceMesh::MediaPipe468 => "mediapipe468",
            FaceMesh::MediaPipe478 => "mediapipe478",
            FaceMesh::Ibug68 => "ibug68",
        }
    }

    /// The mesh a [`FaceMesh::name`] stands for, compared without case or punctuation
    /// (`MediaPipe-478` finds [`FaceMesh::MediaPipe478`]).
    pub fn from_name(name: &str) -> Option<FaceMesh> {
        let key = crate::roles::normalize(name);
        FaceMesh::ALL.into_iter().find(|m| m.name() == key)
    }
}

impl FaceBlock {
    /// The joint indices the block covers.
    pub fn joints(&self) -> std::ops::Range<usize> {
        self.first..self.first + self.mesh.len()
    }
}
