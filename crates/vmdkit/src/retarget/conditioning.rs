//! The keypoints as the solver should see them: at 30 fps, without one-frame left/right swaps
//! or spikes, short gaps filled, and smoothed without lag. Everything works on positions, so no
//! rotation is ever filtered component by component.

use super::{face, RetargetError, RetargetOptions};
use crate::keypoints::{self, JointLayout, Keypoints};
use crate::math::FPS;

/// The conditioned keypoints and what conditioning changed, for the report.
pub(crate) struct Conditioned {
    /// The joints the retargeting reads, in the input's order: all of them, or, for a layout
    /// with a face mesh, all but the mesh's points nothing reads ([`Conditioned::column`]).
    pub keypoints: Keypoints,
    /// Each input joint's column in `keypoints`, `None` for a joint left out.
    columns: Vec<Option<usize>>,
    pub notes: ConditioningNotes,
}

impl Conditioned {
    /// Input joint `joint`'s column in [`Conditioned::keypoints`], `None` where it was left
    /// out (never read) or is beyond the input's joints.
    pub fn column(&self, joint: usize) -> Option<usize> {
        self.columns.get(joint).copied().flatten()
    }
}

/// What conditioning changed.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct ConditioningNotes {
    /// Input frames.
    pub input_frames: usize,
    /// Frames after resampling to 30 fps.
    pub frames: usize,
    /// Left/right pairs swapped back, frame by frame.
    pub swaps_repaired: usize,
    /// Single-frame spikes removed (then filled).
    pub outliers_removed: usize,
    /// Missing or unconfident samples filled by interpolation.
    pub samples_filled: usize,
    /// Samples held at the nearest present value (long or end gaps).
    pub samples_held: usize,
}

/// Gaps up to a third of a second are interpolated; longer ones are held.
const MAX_GAP: usize = 10;
/// A spike is this many times the clip's typical per-frame motion away from its neighbours.
const OUTLIER_THRESHOLD: f32 = 8.0;

pub(crate) fn condition(
    input: &Keypoints,
    layout: &JointLayout,
    options: &RetargetOptions,
) -> Result<Conditioned, RetargetError> {
    let mut notes = ConditioningNotes { input_frames: input.frame_count, ..Default::default() };
    // A face mesh's other points are never read: conditioning them would be most of the work
    // (444 of a Holistic frame's 543 points).
    let read = read_joints(layout, input.joint_count);
    let mut kp = match &read {
        Some(read) => gather(input, read),
        None => input.clone(),
    };
    let at = |joint: usize| match &read {
        Some(read) => read.binary_search(&joint).ok(),
        None => Some(joint),
    };
    let pairs: Vec<(usize, usize)> = (layout.joints.iter().enumerate())
        .filter_map(|(i, j)| {
            let role = j.role?;
            if !role.name().starts_with("left_") {
                return None;
            }
            Some((at(i)?, at(layout.joint_of(role.mirrored())?)?))
        })
        .collect();
    let smoothing = options.smoothing.cutoff_hz().is_some();
    if smoothing {
        notes.swaps_repaired = keypoints::repair_swaps(&mut kp, &pairs);
        notes.outliers_removed = keypoints::reject_outliers(&mut kp, OUTLIER_THRESHOLD);
    }
    let gaps = keypoints::fill_gaps(&mut kp, options.min_confidence, MAX_GAP);
    // Filled and held samples are positions the solver should use, at a low weight: otherwise
    // a hand that drops below the threshold for a few frames would vanish and snap the arm.
    if let Some(confidence) = kp.confidence.as_mut() {
        let usable = options.min_confidence + 0.05;
        for (c, p) in confidence.iter_mut().zip(&kp.positions) {
            if p.is_finite() && *c <= options.min_confidence {
                *c = usable;
            }
        }
    }
    notes.samples_filled = gaps.total_filled();
    notes.samples_held = gaps.total_held();
    if smoothing {
        keypoints::smooth(&mut kp, options.fps, options.smoothing);
    }
    // At 30 fps already (the usual case) the clip is kept as it is, not copied again.
    let kp = keypoints::resample_owned(kp, options.fps, FPS)
        .map_err(|e| RetargetError::Option(e.to_string()))?;
    notes.frames = kp.frame_count;
    // The joints stay where conditioning left them, in their compact columns: spreading them
    // back over the input's width would cost an allocation as large as the input (156 MB for
    // ten minutes of Holistic) and a pass over it, for points nothing reads.
    let mut columns = vec![None; input.joint_count];
    match &read {
        Some(read) => (read.iter().enumerate()).for_each(|(c, &j)| columns[j] = Some(c)),
        None => (columns.iter_mut().enumerate()).for_each(|(j, c)| *c = Some(j)),
    }
    Ok(Conditioned { keypoints: kp, columns, notes })
}

/// The joints the retargeting reads, ascending, when that is not all of them: every joint but
/// a face mesh's, of which only those with a role and the points the face's measures read.
fn read_joints(layout: &JointLayout, joint_count: usize) -> Option<Vec<usize>> {
    let block = layout.face?;
    let mesh = block.joints();
    let measured = face::read_points(block.mesh);
    let read: Vec<usize> = (0..joint_count)
        .filter(|j| {
            !mesh.contains(j)
                || layout.joints.get(*j).is_some_and(|joint| joint.role.is_some())
                || measured.binary_search(&(j - mesh.start)).is_ok()
        })
        .collect();
    (!read.is_empty() && read.len() < joint_count).then_some(read)
}

/// The joints `read` of `input`, in that order.
fn gather(input: &Keypoints, read: &[usize]) -> Keypoints {
    let width = input.joint_count;
    Keypoints {
        frame_count: input.frame_count,
        joint_count: read.len(),
        positions: pick(&input.positions, width, read),
        confidence: input.confidence.as_deref().map(|c| pick(c, width, read)),
        names: None,
        fps: input.fps,
        units: input.units,
        up: input.up,
    }
}

/// Columns `read` of rows `width` long.
fn pick<T: Copy>(values: &[T], width: usize, read: &[usize]) -> Vec<T> {
    (values.chunks_exact(width)).flat_map(|row| read.iter().map(|&j| row[j])).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    /// A Holistic clip whose every point swings smoothly on its own phase: nothing to repair.
    fn holistic_clip(layout: &JointLayout, frames: usize) -> Keypoints {
        let joints = layout.joints.len();
        let mut kp = Keypoints::missing(frames, joints);
        for (i, p) in kp.positions.iter_mut().enumerate() {
            let (f, j) = ((i / joints) as f32, (i % joints) as f32);
            *p = Vec3::new(j * 0.01 + (f * 0.1 + j).sin(), (f * 0.07 + 2.0 * j).cos(), j * 0.002);
        }
        kp.confidence = Some(vec![0.9; frames * joints]);
        kp
    }

    #[test]
    fn a_face_mesh_is_conditioned_only_where_it_is_read() {
        let layout = JointLayout::builtin("holistic").unwrap();
        let block = layout.face.unwrap();
        let kp = holistic_clip(&layout, 120);
        let options = RetargetOptions::default();
        let read = read_joints(&layout, kp.joint_count).expect("a subset");
        // The body's 33 points, both hands' 42 and the 24 of the mesh's 468 that the face's
        // measures read.
        assert_eq!(block.mesh.len(), 468);
        assert_eq!(read.len(), 33 + 42 + 24);
        let some = condition(&kp, &layout, &options).unwrap();
        let everything =
            condition(&kp, &JointLayout { face: None, ..layout.clone() }, &options).unwrap();
        assert_eq!(everything.column(kp.joint_count - 1), Some(kp.joint_count - 1));
        let (kept, everything) = (&some.keypoints, everything.keypoints);
        assert_eq!((kept.frame_count, kept.joint_count), (everything.frame_count, read.len()));
        assert_eq!(some.column(kp.joint_count), None);
        for j in 0..kp.joint_count {
            let Some(c) = some.column(j) else {
                assert!(block.joints().contains(&j) && !read.contains(&j), "joint {j}");
                continue;
            };
            assert_eq!(read[c], j);
            for f in 0..kp.frame_count {
                assert_eq!(kept.frame(f)[c], everything.frame(f)[j], "joint {j} frame {f}");
            }
        }
    }
}
