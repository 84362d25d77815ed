//! The property section of a carried motion: the body fit's IK switches for the IK bones it
//! keys, the source's for every other IK bone both models have, and the source's visibility.

use crate::format::{IkState, Motion, PropertyKey};
use crate::model::Model;
use crate::text::LongName;

/// The merged property keys, and the IK bones whose switches came from the source.
pub(super) fn properties(
    source: &Motion,
    solved: &Motion,
    target: &Model,
    fit_owned: &[bool],
) -> (Vec<PropertyKey>, Vec<String>) {
    let Some(fit) = solved.properties.first() else {
        return (solved.properties.clone(), Vec::new());
    };
    let mut sorted: Vec<&PropertyKey> = source.properties.iter().collect();
    sorted.sort_by_key(|k| k.frame);
    let mut frames: Vec<u32> =
        std::iter::once(fit.frame).chain(sorted.iter().map(|k| k.frame)).collect();
    frames.sort_unstable();
    frames.dedup();
    let owned = |state: &IkState| {
        let name = target
            .bones
            .iter()
            .position(|b| LongName::encode(&b.name).0.bytes() == state.name.bytes());
        name.is_some_and(|b| fit_owned.get(b).copied().unwrap_or(false))
    };
    let mut kept: Vec<String> = Vec::new();
    let keys = frames
        .iter()
        .map(|&frame| {
            let latest = sorted.iter().rev().find(|k| k.frame <= frame);
            let ik = fit
                .ik
                .iter()
                .map(|state| {
                    if owned(state) {
                        return *state;
                    }
                    // The source's latest switch for this bone; on where it never says, as
                    // MMD plays a motion without one.
                    let from_source =
                        sorted.iter().rev().filter(|k| k.frame <= frame).find_map(|k| {
                            k.ik.iter().find(|s| s.name.bytes() == state.name.bytes())
                        });
                    if from_source.is_some() {
                        let name = state.name.to_string_lossy();
                        if !kept.contains(&name) {
                            kept.push(name);
                        }
                    }
                    IkState {
                        name: state.name,
                        enabled_byte: from_source.map_or(1, |s| s.enabled_byte),
                    }
                })
                .collect();
            PropertyKey { frame, visible_byte: latest.map_or(1, |k| k.visible_byte), ik }
        })
        .collect();
    (keys, kept)
}
