//! [`BoneSubset`]: the bones a caller reads off a pose, closed under everything posing them
//! reads, so that [`PoseEvaluator::evaluate_subset`](super::PoseEvaluator::evaluate_subset)
//! can pose those alone and give them exactly (bit for bit) what a full evaluation gives.
//!
//! A bone's update reads its parent's world transform and its append source's state; an IK
//! chain writes only its links' IK rotations and the bones its links move (its refresh list:
//! the links' descendants and the bones appending from them). So the closure is: a bone brings
//! its parent and its append source; a chain with a wanted link brings its IK bone (the goal),
//! its effector and every link (all read by the solve), until nothing more is added. A chain
//! with no wanted link moves no wanted bone (whatever it moves descends from a link, and the
//! closure would have brought that link), so it is skipped; the bones kept deform in the same
//! order, reading the same values, as in the full evaluation.

use super::ik::IkChain;
use super::Skeleton;

/// One (pass, layer) group of the skeleton, reduced to the subset.
#[derive(Clone, Debug)]
pub(crate) struct SubsetGroup {
    /// One past the group's last position in [`BoneSubset::order`].
    pub end: u32,
    /// The group's chains that move a wanted bone: chain index (for its IK switch) and the
    /// chain with its refresh list cut to the subset.
    pub iks: Vec<(u32, IkChain)>,
}

/// Bones to pose and what they need; see the module documentation.
#[derive(Clone, Debug)]
pub(crate) struct BoneSubset {
    /// Per skeleton bone: whether it is posed.
    pub wanted: Vec<bool>,
    /// The posed bones in deform order.
    pub order: Vec<u32>,
    /// Per group of the skeleton, in order (empty ones kept, so that the IK order is the same).
    pub groups: Vec<SubsetGroup>,
}

impl BoneSubset {
    /// The subset that poses `bones` of `skeleton` exactly.
    pub(crate) fn new(skeleton: &Skeleton, bones: impl IntoIterator<Item = usize>) -> BoneSubset {
        let n = skeleton.bone_count();
        let mut wanted = vec![false; n];
        let mut stack: Vec<usize> = bones.into_iter().filter(|&b| b < n).collect();
        loop {
            while let Some(b) = stack.pop() {
                if std::mem::replace(&mut wanted[b], true) {
                    continue;
                }
                let bone = &skeleton.bones[b];
                stack.extend(bone.parent.map(|p| p as usize));
                stack.extend(bone.append.map(|a| a.source as usize));
            }
            for chain in
                (skeleton.iks.iter()).filter(|c| c.links.iter().any(|l| wanted[l.bone as usize]))
            {
                let reads = [chain.ik_bone, chain.target].into_iter();
                let reads = reads.chain(chain.links.iter().map(|l| l.bone));
                stack.extend(reads.map(|b| b as usize).filter(|&b| !wanted[b]));
            }
            if stack.is_empty() {
                break;
            }
        }
        let mut order = Vec::new();
        let mut groups = Vec::with_capacity(skeleton.groups.len());
        let mut start = 0;
        for group in &skeleton.groups {
            let end = group.end as usize;
            order.extend(skeleton.order[start..end].iter().filter(|&&b| wanted[b as usize]));
            start = end;
            let iks = (group.iks.iter())
                .filter(|&&k| {
                    let links = &skeleton.iks[k as usize].links;
                    links.iter().any(|l| wanted[l.bone as usize])
                })
                .map(|&k| {
                    let mut chain = skeleton.iks[k as usize].clone();
                    chain.refresh.retain(|&b| wanted[b as usize]);
                    (k, chain)
                })
                .collect();
            groups.push(SubsetGroup { end: order.len() as u32, iks });
        }
        BoneSubset { wanted, order, groups }
    }

    /// Whether `bone` is posed.
    pub(crate) fn contains(&self, bone: usize) -> bool {
        self.wanted.get(bone).copied().unwrap_or(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::MotionSampler;
    use crate::model::Model;
    use crate::skeleton::{Binding, Pose, Poser};

    /// Corpus models and a motion made for each (local paths).
    const PAIRS: [(&str, &str); 5] = [
        (
            "MMD-Blender__blender_mmd_tools/samples__pmx__初音ミク.pmx",
            "takahirox__mmd-viewer-js/vmd__wavefile_v2.vmd",
        ),
        (
            "mmdagent__mmdagent-mirror/MMDAgent_Example__Model__mei__mei.pmd",
            "takahirox__mmd-viewer-js/vmd__wavefile_v2.vmd",
        ),
        (
            "miu200521358__mmd_base/tests__resources__ボーンツリーテストモデル.pmx",
            "miu200521358__mmd_base/tests__resources__サンプルモーション2.vmd",
        ),
        (
            "yohawing__three-mmd-loader/test__fixtures__test_append_bone.pmx",
            "yohawing__three-mmd-loader/data__unittest__test_append_bone.vmd",
        ),
        (
            "miu200521358__mmd-auto-trace-3/data__pmx__trace_check_base_model.pmx",
            "miu200521358__mmd-auto-trace-4/data__pmx__IK_step__0001_20240523_211829_右腕捩.vmd",
        ),
    ];

    /// Every bone posed alone (with what it needs) is bit for bit where the full pose puts it,
    /// on corpus models with IK, appends and fixed axes, at whole and fractional frames.
    #[test]
    fn skeleton_subset_poses_each_bone_exactly_as_the_full_pose() {
        let Some(manifest) = test_corpus::corpus_or_skip("skeleton_subset_poses_each_bone") else {
            return;
        };
        let mut checked = 0;
        for (model, motion) in PAIRS {
            let (Some(model), Some(motion)) = (
                manifest.entries.iter().find(|e| e.local_path == model),
                manifest.entries.iter().find(|e| e.local_path == motion),
            ) else {
                continue;
            };
            let model = Model::read_file(&model.path).unwrap();
            let motion = crate::Motion::read_file(&motion.path).unwrap();
            let skeleton = Skeleton::new(&model);
            let sampler = MotionSampler::new(&motion);
            let binding = Binding::new(&skeleton, &sampler);
            let mut full = Poser::new(&skeleton, &sampler, &binding);
            let mut partial = Poser::new(&skeleton, &sampler, &binding);
            let (mut a, mut b) = (Pose::new(&skeleton), Pose::new(&skeleton));
            let last = sampler.last_frame().unwrap_or(0) as f64;
            let subsets: Vec<BoneSubset> =
                (0..skeleton.bone_count()).map(|b| BoneSubset::new(&skeleton, [b])).collect();
            for i in 0..=12 {
                let t = (last * i as f64 / 12.0).floor() + if i % 2 == 1 { 0.5 } else { 0.0 };
                full.pose_at(t, &mut a);
                for (bone, subset) in subsets.iter().enumerate() {
                    partial.pose_subset_at(t, &mut b, subset);
                    let matrix = |p: &Pose| p.world_matrix(bone).to_cols_array().map(f32::to_bits);
                    assert!(
                        bits(a.position(bone)) == bits(b.position(bone))
                            && a.rotation(bone).to_array().map(f32::to_bits)
                                == b.rotation(bone).to_array().map(f32::to_bits)
                            && matrix(&a) == matrix(&b),
                        "{} at {t}: {} differs",
                        model.name,
                        skeleton.bone_name(bone)
                    );
                    checked += 1;
                }
            }
        }
        eprintln!("{checked} bone poses checked");
    }

    fn bits(v: glam::Vec3) -> [u32; 3] {
        v.to_array().map(f32::to_bits)
    }
}
