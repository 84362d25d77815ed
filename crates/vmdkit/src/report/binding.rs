//! What did not bind when a motion is applied to a model, as short messages.
//!
//! A model and a motion are often meant for each other only in part (a dance made for another
//! model, facial morphs the model lacks), so these are warnings to show, not errors.

use crate::skeleton::{Binding, Skeleton};
use crate::text::RawName;

/// Names shown in a message before the rest are only counted.
const SHOWN_NAMES: usize = 8;

/// One message per problem: the skeleton's notes (`"model: ..."`), then the bone tracks and IK
/// switches that name nothing in the model and the bone tracks another track shadows
/// (`"LABEL: ..."`, `label` naming the motion). Without the "warning: " a printer adds.
pub fn binding_warnings(label: &str, skeleton: &Skeleton, binding: &Binding) -> Vec<String> {
    let mut messages: Vec<String> =
        skeleton.notes().iter().map(|note| format!("model: {note}")).collect();
    let report = binding.report();
    let mut unbound = |names: Vec<String>, what: &str| {
        if !names.is_empty() {
            messages.push(format!("{label}: {} {what}: {}", names.len(), name_list(&names)));
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

/// Raw names decoded as CP932, as [`BindingReport`](crate::skeleton::BindingReport) advises.
fn lossy<const N: usize>(names: &[RawName<N>]) -> Vec<String> {
    names.iter().map(|n| n.to_string_lossy()).collect()
}

/// The first few names, then "and N more".
fn name_list(names: &[String]) -> String {
    let shown = names[..names.len().min(SHOWN_NAMES)].join(", ");
    match names.len().saturating_sub(SHOWN_NAMES) {
        0 => shown,
        more => format!("{shown} and {more} more"),
    }
}

#[cfg(test)]
mod tests {
    use super::name_list;

    #[test]
    fn long_name_lists_are_cut() {
        let names: Vec<String> = (0..10).map(|i| i.to_string()).collect();
        assert_eq!(name_list(&names[..2]), "0, 1");
        assert_eq!(name_list(&names), "0, 1, 2, 3, 4, 5, 6, 7 and 2 more");
    }
}
