//! Per frame, the face's shape as scale-free ratios: eye openness, mouth opening and width,
//! corner lift, brow heights, iris position. Every length is divided by the distance between the
//! outer eye corners (a rigid span no expression changes), so image-space (pixels, aspect kept)
//! and world-space landmarks give the same numbers.
//!
//! The point indices: MediaPipe Face Mesh, from its canonical mesh (google-ai-edge/mediapipe
//! `mediapipe/modules/face_geometry/data/canonical_face_model_uv_visualization.png` and the
//! `FACEMESH_LEFT_EYE` / `_LIPS` / `_LEFT_EYEBROW` / `_IRISES` connection lists of
//! `mediapipe/python/solutions/face_mesh_connections.py`): eye corners 33/133 (subject's right)
//! and 263/362 (left), lids 160/144, 158/153 and 385/380, 387/373 (the pairs of the usual
//! six-point eye aspect ratio), inner lips 13/14, outer lips 0/17, corners 61/291, brows 105/107
//! and 334/336 (middle/inner), forehead 10, chin 152, cheeks 234/454, iris centres 468/473.
//! iBUG 300-W 68 points (Sagonas et al. 2013, 0-based as COCO-WholeBody stores them): jaw 0–16
//! (chin 8), brows 17–21 / 22–26, nose bridge 27, eyes 36–41 / 42–47, mouth 48–59, inner lips
//! 60–67.

use crate::keypoints::FaceMesh;
use glam::{DVec2, DVec3};

/// One eye's points: the corners and two lid pairs.
struct EyePoints {
    outer: usize,
    inner: usize,
    upper: [usize; 2],
    lower: [usize; 2],
}

/// The points a mesh offers for each measure.
pub(crate) struct MeshPoints {
    /// The subject's right eye, then left.
    eyes: [EyePoints; 2],
    /// Mouth corners, subject's right then left.
    corners: [usize; 2],
    /// Inner lips, upper then lower.
    inner_lips: [usize; 2],
    /// Brows per side (right, left): middle then inner end.
    brows: [[usize; 2]; 2],
    /// Forehead (or nose bridge) and chin: the face's up axis.
    pub top: usize,
    /// See `top`.
    pub chin: usize,
    /// The sides of the face, subject's right then left: the face's left axis.
    pub cheeks: [usize; 2],
    /// The iris centres, right then left, when the mesh has them.
    irises: Option<[usize; 2]>,
}

const MEDIAPIPE: MeshPoints = MeshPoints {
    eyes: [
        EyePoints { outer: 33, inner: 133, upper: [160, 158], lower: [144, 153] },
        EyePoints { outer: 263, inner: 362, upper: [385, 387], lower: [380, 373] },
    ],
    corners: [61, 291],
    inner_lips: [13, 14],
    brows: [[105, 107], [334, 336]],
    top: 10,
    chin: 152,
    cheeks: [234, 454],
    irises: None,
};

const IBUG: MeshPoints = MeshPoints {
    eyes: [
        EyePoints { outer: 36, inner: 39, upper: [37, 38], lower: [41, 40] },
        EyePoints { outer: 45, inner: 42, upper: [44, 43], lower: [46, 47] },
    ],
    corners: [48, 54],
    inner_lips: [62, 66],
    brows: [[19, 21], [24, 22]],
    top: 27,
    chin: 8,
    cheeks: [0, 16],
    irises: None,
};

impl MeshPoints {
    /// Every point the measures and the head's frame read, in no order, some twice.
    fn indices(&self) -> impl Iterator<Item = usize> + '_ {
        let eyes = self
            .eyes
            .iter()
            .flat_map(|e| [e.outer, e.inner, e.upper[0], e.upper[1], e.lower[0], e.lower[1]]);
        (eyes.chain(self.corners).chain(self.inner_lips))
            .chain(self.brows.iter().flatten().copied())
            .chain([self.top, self.chin])
            .chain(self.cheeks)
            .chain(self.irises.into_iter().flatten())
    }
}

/// The mesh points [`super::track`] reads, ascending: the only ones conditioning needs to
/// smooth (24 of MediaPipe's 468).
pub(crate) fn read_points(mesh: FaceMesh) -> Vec<usize> {
    let mut read: Vec<usize> = points(mesh).indices().collect();
    read.sort_unstable();
    read.dedup();
    read
}

/// The point table of `mesh`.
pub(crate) fn points(mesh: FaceMesh) -> MeshPoints {
    match mesh {
        FaceMesh::Ibug68 => IBUG,
        FaceMesh::MediaPipe478 => MeshPoints { irises: Some([468, 473]), ..MEDIAPIPE },
        _ => MEDIAPIPE,
    }
}

/// One frame's measures, every length over the outer-eye-corner distance.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Features {
    /// Eye aspect ratio per eye (subject's right, left): the two lid gaps' mean over the eye's
    /// width. About 0.3 open, under 0.15 closed.
    pub eye_aspect: [f64; 2],
    /// The gap between the inner lips.
    pub mouth_gap: f64,
    /// The distance between the mouth corners.
    pub mouth_width: f64,
    /// How far up the corners sit between the inner lips: 0 at the lower lip, 1 at the upper
    /// (0.5 when the lips touch). A jaw dropped with relaxed lips leaves them near 0.5; a
    /// smile that parts the lips pulls them up to the upper lip.
    pub corner_position: f64,
    /// The corners' height above the inner lips' midpoint, along the face's up axis.
    pub corner_lift: f64,
    /// Each brow's middle above its eye's centre (right, left).
    pub brow_height: [f64; 2],
    /// Each brow's inner end above its eye's centre, less its middle's height.
    pub brow_inner: [f64; 2],
    /// Each iris centre from its eye's centre, over the eye's width: x toward the subject's
    /// left, y up. Only with a 478-point mesh.
    pub iris: Option<[DVec2; 2]>,
}

/// Measures one frame whose point `i` is `at(i)`; `None` when a point it needs is missing.
pub(crate) fn measure(at: impl Fn(usize) -> Option<DVec3>, table: &MeshPoints) -> Option<Features> {
    let [er, el] = &table.eyes;
    let iod = (at(el.outer)? - at(er.outer)?).length();
    let up = (at(table.top)? - at(table.chin)?).normalize_or_zero();
    if iod <= 0.0 || up == DVec3::ZERO {
        return None;
    }
    let mut eye_aspect = [0.0; 2];
    let mut centres = [DVec3::ZERO; 2];
    for (k, e) in table.eyes.iter().enumerate() {
        let (o, i) = (at(e.outer)?, at(e.inner)?);
        let width = (i - o).length().max(1e-9);
        let lids = (at(e.upper[0])? - at(e.lower[0])?).length()
            + (at(e.upper[1])? - at(e.lower[1])?).length();
        eye_aspect[k] = lids / (2.0 * width);
        centres[k] = (o + i) / 2.0;
    }
    let [cr, cl] = [at(table.corners[0])?, at(table.corners[1])?];
    let [ul, ll] = [at(table.inner_lips[0])?, at(table.inner_lips[1])?];
    let corners = (cr + cl) / 2.0;
    let lip_span = (ul - ll).dot(up);
    // Below a tenth of a centimetre's worth of gap the position is noise: call it halfway.
    let corner_position = if lip_span > 0.01 * iod {
        ((corners - ll).dot(up) / lip_span).clamp(-1.0, 2.0)
    } else {
        0.5
    };
    let mut brow_height = [0.0; 2];
    let mut brow_inner = [0.0; 2];
    for k in 0..2 {
        let mid = (at(table.brows[k][0])? - centres[k]).dot(up) / iod;
        let inner = (at(table.brows[k][1])? - centres[k]).dot(up) / iod;
        brow_height[k] = mid;
        brow_inner[k] = inner - mid;
    }
    let iris = match table.irises {
        Some(irises) => {
            let mut out = [DVec2::ZERO; 2];
            for (k, e) in table.eyes.iter().enumerate() {
                let (o, i) = (at(e.outer)?, at(e.inner)?);
                // Subject's right to left, whichever corner is which on this eye.
                let across = if k == 0 { i - o } else { o - i };
                let width = across.length().max(1e-9);
                let d = at(irises[k])? - centres[k];
                out[k] = DVec2::new(d.dot(across / width), d.dot(up)) / width;
            }
            Some(out)
        }
        None => None,
    };
    Some(Features {
        eye_aspect,
        mouth_gap: (ul - ll).length() / iod,
        mouth_width: (cl - cr).length() / iod,
        corner_position,
        corner_lift: (corners - (ul + ll) / 2.0).dot(up) / iod,
        brow_height,
        brow_inner,
        iris,
    })
}
