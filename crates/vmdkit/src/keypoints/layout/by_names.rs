//! Detection of a built-in layout from a file's joint names ([`JointLayout::detect_with`]).

use super::super::face::{FaceBlock, FaceMesh};
use super::super::layouts::{Builtin, Kind, BUILTINS};
use super::{from_table_joints, on_side, side_of, JointLayout, JointLayoutError};
use crate::roles::{normalize, Role, Side};
use std::collections::HashMap;

/// How well a built-in layout recognises a file's names.
struct NameMatch {
    table: &'static Builtin,
    roles: Vec<Option<Role>>,
    recognised: usize,
    renamed: usize,
}

impl NameMatch {
    /// Best first: more names recognised, fewer of them through aliases, fewer of the layout's
    /// joints absent from the file.
    fn rank(&self) -> (std::cmp::Reverse<usize>, usize, usize) {
        (std::cmp::Reverse(self.recognised), self.renamed, self.table.len() - self.recognised)
    }
}

fn match_names(table: &'static Builtin, keys: &[String]) -> NameMatch {
    let table_joints = table.joints();
    // The table's names normalised once, not once per key: a file may name a hundred thousand
    // joints. The first joint or alias of a name is the one that counts.
    let mut joints: HashMap<String, usize> = HashMap::with_capacity(table_joints.len());
    for (i, (name, _)) in table_joints.iter().enumerate() {
        joints.entry(normalize(name)).or_insert(i);
    }
    let mut aliases: HashMap<String, String> = HashMap::with_capacity(table.aliases.len());
    for (alias, name) in table.aliases {
        aliases.entry(normalize(alias)).or_insert_with(|| normalize(name));
    }
    let find = |key: &str| joints.get(key).copied();
    let mut used = vec![false; table_joints.len()];
    let mut found = NameMatch { table, roles: Vec::new(), recognised: 0, renamed: 0 };
    for key in keys {
        let direct = find(key);
        let index = direct.or_else(|| find(aliases.get(key)?));
        // A second name for a joint already matched is left without a role.
        let index = index.filter(|&i| !std::mem::replace(&mut used[i], true));
        found.roles.push(index.and_then(|i| table_joints[i].1));
        if index.is_some() {
            found.recognised += 1;
            found.renamed += direct.is_none() as usize;
        }
    }
    found
}

/// The table's face mesh where the file names all of its points in order, from the first
/// (`face_0`) on; a 478-point mesh of which the file has the first 468 is the 468-point mesh.
fn face_in_file(table: &Builtin, keys: &[String]) -> Option<FaceBlock> {
    let (block, prefix) = (table.face()?, table.face_prefix()?);
    let first = keys.iter().position(|k| *k == normalize(&format!("{prefix}0")))?;
    let run = keys[first..]
        .iter()
        .enumerate()
        .take(block.mesh.len())
        .take_while(|(i, k)| **k == normalize(&format!("{prefix}{i}")))
        .count();
    let mesh = match block.mesh {
        mesh if run == mesh.len() => mesh,
        FaceMesh::MediaPipe478 if run >= FaceMesh::MediaPipe468.len() => FaceMesh::MediaPipe468,
        _ => return None,
    };
    Some(FaceBlock { mesh, first })
}

/// Whether a layout detected by names gives what its kind of table must: a body's roles, or a
/// hand or a face.
fn usable(kind: Kind, layout: &JointLayout) -> bool {
    match kind {
        Kind::Body => layout.has_body(),
        Kind::Parts | Kind::UnsidedHand => {
            layout.has_face() || Side::BOTH.into_iter().any(|s| layout.has_hand(s))
        }
    }
}

/// The built-in layout the names fit best, read on `hand`'s side if it is an unsided hand;
/// `None` when none fits.
pub(super) fn detect(
    names: &[String],
    hand: Option<Side>,
) -> Result<Option<JointLayout>, JointLayoutError> {
    let keys: Vec<String> = names.iter().map(|n| normalize(n)).collect();
    // An unsided hand is judged on the left until it wins: its side only names its roles.
    let side = hand.unwrap_or(Side::Left);
    let layout_of = |m: &NameMatch| {
        let joints = names.iter().zip(&m.roles).map(|(name, &role)| (name.clone(), role));
        let side = if m.table.kind == Kind::UnsidedHand { side } else { Side::Left };
        let mut layout = from_table_joints(
            m.table,
            joints.map(|(name, role)| (name, on_side(role, side))).collect(),
        );
        layout.face = face_in_file(m.table, &keys);
        layout
    };
    let mut matches: Vec<(NameMatch, JointLayout)> = BUILTINS
        .iter()
        .map(|table| match_names(table, &keys))
        .filter(|m| m.recognised * 2 >= names.len())
        .map(|m| {
            let layout = layout_of(&m);
            (m, layout)
        })
        .filter(|(m, layout)| usable(m.table.kind, layout))
        .collect();
    matches.sort_by_key(|(m, _)| m.rank());
    let Some(best) = matches.first().map(|(m, _)| m.rank()) else {
        return Ok(None);
    };
    let tied: Vec<&(NameMatch, JointLayout)> =
        matches.iter().filter(|(m, _)| m.rank() == best).collect();
    // Layouts that agree on every joint's role differ only in name: take the first.
    if tied.iter().any(|(m, _)| m.roles != tied[0].0.roles) {
        return Err(JointLayoutError::Ambiguous {
            what: "the joint names".to_string(),
            candidates: tied.iter().map(|(m, _)| m.table.name).collect(),
        });
    }
    let (best, layout) = matches.into_iter().next().expect("a best match");
    side_of(best.table, hand)?;
    Ok(Some(layout))
}
