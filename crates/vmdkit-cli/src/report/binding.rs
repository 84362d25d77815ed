//! What did not bind when a motion is applied to a model, as short messages.
//!
//! A model and a motion are often meant for each other only in part (a dance made for another
//! model, facial morphs the model lacks), so these are warnings to show, not errors.

use vmdkit::skeleton::{Binding, Skeleton};
use vmdkit::RawName;

/// One message per problem: the skeleton's notes (`"model: ..."`), then the bone tracks and IK
/// switches that name nothing in the model and the bone tracks another track shadows
/// (`"LABEL: ..."`, `label` naming the motion). Without the "warning: " a printer adds.
pub fn binding_warnings(label: &str, skeleton: &Skeleton, binding: &Binding) -> Vec<String> {
    let mut messages: Vec<String> =
        skeleton.notes().iter().map(|note| format!("model: {note}")).collect();
    let report = binding.report();
    let mut unbound = |names: Vec<String>, what: &str| {
        if !names.is_empty() {
            let list = vmdkit::shown::shown_list(&names);
            messages.push(format!("{label}: {} {what}: {list}", names.len()));
        }
    };
    unbound(lossy(&report.unbound_bone_tracks), "bone tracks name no bone of the model");
    unbound(lossy(&report.unbound_ik_tracks), "IK switches name no IK bone");
    if !report.shadowed_bone_tracks.is_empty() {
        messages.push(format!(
            "{label}: {} bone tracks name a bone another track already drives; ignored",
            report.shadowed_bone_tracks.len()
        ));
    }
    messages
}

/// Raw names decoded as CP932, as [`BindingReport`](vmdkit::skeleton::BindingReport) advises.
fn lossy<const N: usize>(names: &[RawName<N>]) -> Vec<String> {
    names.iter().map(|n| n.to_string_lossy()).collect()
}
