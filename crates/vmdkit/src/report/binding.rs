//! What did not bind when a motion is applied to a model, as short messages.
//!
//! A model and a motion are often meant for each other only in part (a dance made for another
//! model, facial morphs the model lacks), so these are warnings to show, not errors.

use crate::skeleton::{Binding, Skeleton};

/// Names shown in a message before the rest are only counted.
const SHOWN_NAMES: usize = 8;

/// One message per problem: the skeleton's notes (`"model: ..."`), then the bone tracks and IK
/// switches that name nothing in the model and the bone tracks another track shadows
/// (`"LABEL: ..."`, `label` naming the motion). Without the "warning: " a printer adds.
pub fn binding_warnings(label: &str, skeleton: &Skeleton, binding: &Binding) -> Vec<String> {
    let mut messages: Vec<String> =
        skeleton.notes().iter().map(|note| format!("model: {note}")).collect();
    let report = binding.report();
    if !report.unbound_bone_tracks.is_empty() {
        let names: Vec<String> =
            report.unbound_bone_tracks.iter().map(|n| n.to_string_lossy()).collect();
        messages.push(format!(
            "{label}: {} bone tracks name no bone of the model: {}",
            names.len(),
            name_list(&names)
        ));
    }
    if !report.unbound_ik_tracks.is_empty() {
        let names: Vec<String> =
            report.unbound_ik_tracks.iter().map(|n| n.to_string_lossy()).collect();
        messages.push(format!(
            "{label}: {} IK switches name no IK bone: {}",
            names.len(),
            name_list(&names)
        ));
    }
    if !report.shadowed_bone_tracks.is_empty() {
        messages.push(format!(
            "{label}: {} bone tracks name a bone another track already drives; ignored",
            report.shadowed_bone_tracks.len()
        ));
    }
    messages
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
