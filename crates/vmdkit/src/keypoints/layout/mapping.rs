//! User layout files: the joint order of a file no built-in layout describes, with a role for
//! each joint.
//!
//! The text form has one joint per line, in file order:
//!
//! ```text
//! # my capture rig
//! Hips       = pelvis
//! LeftUpLeg  = left_hip
//! Prop       = -
//! ```
//!
//! Roles are [`Role::name`]s; `-` or `none` marks a joint the retargeting ignores. `#` starts a
//! comment. The JSON form (with the `json` feature) is either `{"joints": [["Hips", "pelvis"],
//! …]}` (optionally with `"name"`) or `{"Hips": "pelvis", …}`, in the order written; `null`
//! stands for no role.
//!
//! A face mesh among the joints is one line `face MESH` (`mediapipe468`, `mediapipe478` or
//! `ibug68`), optionally `face MESH first=N`: the mesh's points come there in the joint order,
//! as joints `face_0`, `face_1`, … without roles, and `first=N` checks that N joints come
//! before them. In JSON's listed form it is a member `"face": "mediapipe478"` or `"face":
//! {"mesh": "mediapipe478", "first": 75}`, the points placed at `first` (by default after the
//! listed joints).
//!
//! A pelvis missing from the file is implied as the mean of the hips, and a neck base (thorax)
//! as the mean of the shoulders, as for the built-in layouts without them.

use super::super::face::{FaceBlock, FaceMesh};
use super::{normalize, JointLayout, JointLayoutError, LayoutJoint, SyntheticPoint};
use crate::roles::Role;
use std::path::Path;

/// One joint as the file gives it: its line, name and role text (`None`: JSON `null`).
struct Entry {
    line: usize,
    name: String,
    role: Option<String>,
}

/// A face mesh declared by a mapping: where its points go among the entries.
struct FaceLine {
    line: usize,
    mesh: FaceMesh,
    /// The number of entries before the mesh.
    at: usize,
    /// The index the file says the mesh starts at, checked against `at`.
    first: Option<usize>,
}

/// The mesh a mapping names, or an error that lists the meshes.
fn mesh_named(line: usize, name: &str) -> Result<FaceMesh, JointLayoutError> {
    FaceMesh::from_name(name).ok_or_else(|| {
        let meshes: Vec<&str> = FaceMesh::ALL.iter().map(|m| m.name()).collect();
        error(line, format!("unknown face mesh `{name}`; meshes are {}", meshes.join(", ")))
    })
}

/// A `face MESH [first=N]` line, if `line` is one (a joint named `face` is `face = role`).
fn face_line(number: usize, line: &str, at: usize) -> Option<Result<FaceLine, JointLayoutError>> {
    let mut words = line.split_whitespace();
    if words.next() != Some("face") {
        return None;
    }
    let mesh = words.next().filter(|w| !w.starts_with('='))?;
    let mut parse = || {
        let mesh = mesh_named(number, mesh)?;
        let first = match words.next() {
            None => None,
            Some(word) => {
                let n = word.strip_prefix("first=").and_then(|n| n.parse().ok());
                Some(n.ok_or_else(|| error(number, format!("expected `first=N`, found `{word}`")))?)
            }
        };
        if let Some(extra) = words.next() {
            return Err(error(number, format!("unexpected `{extra}` after the face mesh")));
        }
        Ok(FaceLine { line: number, mesh, at, first })
    };
    Some(parse())
}

impl JointLayout {
    /// A layout from a user mapping (text or JSON; see the module documentation), called `name`.
    pub fn from_mapping(name: &str, text: &str) -> Result<JointLayout, JointLayoutError> {
        let (name, entries, face) = if text.trim_start().starts_with('{') {
            json_entries(name, text)?
        } else {
            let (entries, face) = text_entries(text)?;
            (name.to_string(), entries, face)
        };
        build(name, entries, face)
    }

    /// [`JointLayout::from_mapping`] of a file, named after the file's stem.
    pub fn from_file(path: impl AsRef<Path>) -> Result<JointLayout, JointLayoutError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path)
            .map_err(|source| JointLayoutError::Read { path: path.to_path_buf(), source })?;
        let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        JointLayout::from_mapping(&name, &text)
    }
}

fn error(line: usize, message: impl Into<String>) -> JointLayoutError {
    JointLayoutError::Mapping { line, message: message.into() }
}

type Entries = (Vec<Entry>, Option<FaceLine>);

fn text_entries(text: &str) -> Result<Entries, JointLayoutError> {
    let mut entries = Vec::new();
    let mut face: Option<FaceLine> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if let Some(found) = face_line(i + 1, line, entries.len()) {
            if let Some(earlier) = &face {
                return Err(error(i + 1, format!("a second face; line {} has one", earlier.line)));
            }
            face = Some(found?);
            continue;
        }
        let Some((name, role)) = line.split_once('=') else {
            return Err(error(i + 1, format!("expected `joint = role`, found `{line}`")));
        };
        entries.push(Entry {
            line: i + 1,
            name: name.trim().to_string(),
            role: Some(role.trim().to_string()),
        });
    }
    Ok((entries, face))
}

#[cfg(feature = "json")]
fn json_entries(
    name: &str,
    text: &str,
) -> Result<(String, Vec<Entry>, Option<FaceLine>), JointLayoutError> {
    use serde_json::Value;
    let object: json::Ordered = serde_json::from_str(text)
        .map_err(|e| error(e.line(), format!("not a layout JSON object: {e}")))?;
    // serde gives no positions after parsing: a joint's line is where its name first appears.
    let line_of = |joint: &str| {
        let quoted = serde_json::to_string(joint).unwrap_or_default();
        text.lines().position(|l| l.contains(&quoted)).map_or(0, |i| i + 1)
    };
    let role_of = |joint: &str, value: &Value| match value {
        Value::String(s) => Ok(Some(s.clone())),
        Value::Null => Ok(None),
        _ => Err(error(line_of(joint), format!("the role of `{joint}` is not a string or null"))),
    };
    let listed = object.0.iter().any(|(k, v)| k == "joints" && v.is_array());
    if !listed {
        let entries = object
            .0
            .iter()
            .map(|(joint, value)| {
                Ok(Entry {
                    line: line_of(joint),
                    name: joint.clone(),
                    role: role_of(joint, value)?,
                })
            })
            .collect::<Result<_, JointLayoutError>>()?;
        return Ok((name.to_string(), entries, None));
    }
    let mut layout_name = name.to_string();
    let mut entries = Vec::new();
    let mut face = None;
    for (key, value) in &object.0 {
        match (key.as_str(), value) {
            ("name", Value::String(s)) => layout_name = s.clone(),
            ("face", value) => face = Some(json_face(line_of("face"), value)?),
            ("joints", Value::Array(items)) => {
                for item in items {
                    let pair = item.as_array().filter(|p| p.len() == 2);
                    let Some((Value::String(joint), role)) = pair.map(|p| (&p[0], &p[1])) else {
                        return Err(error(
                            0,
                            format!("a joint is not a [name, role] pair: {item}"),
                        ));
                    };
                    let role = role_of(joint, role)?;
                    entries.push(Entry { line: line_of(joint), name: joint.clone(), role });
                }
            }
            _ => {
                return Err(error(line_of(key), format!("unexpected key `{key}` beside `joints`")))
            }
        }
    }
    // The mesh goes at `first`, or after the joints.
    if let Some(face) = &mut face {
        face.at = face.first.unwrap_or(entries.len()).min(entries.len());
    }
    Ok((layout_name, entries, face))
}

/// A JSON `face` member: a mesh's name, or `{"mesh": name, "first": N}`.
#[cfg(feature = "json")]
fn json_face(line: usize, value: &serde_json::Value) -> Result<FaceLine, JointLayoutError> {
    use serde_json::Value;
    let (mesh, first) = match value {
        Value::String(mesh) => (mesh.as_str(), None),
        Value::Object(o) => {
            let Some(Value::String(mesh)) = o.get("mesh") else {
                return Err(error(line, "the face has no \"mesh\" name"));
            };
            let first = match o.get("first") {
                None => None,
                Some(v) => Some(v.as_u64().ok_or_else(|| {
                    error(line, format!("the face's \"first\" is not a joint index: {v}"))
                })? as usize),
            };
            (mesh.as_str(), first)
        }
        _ => return Err(error(line, format!("the face is not a mesh name or object: {value}"))),
    };
    Ok(FaceLine { line, mesh: mesh_named(line, mesh)?, at: 0, first })
}

#[cfg(not(feature = "json"))]
fn json_entries(
    _: &str,
    _: &str,
) -> Result<(String, Vec<Entry>, Option<FaceLine>), JointLayoutError> {
    Err(error(1, "JSON layout files need vmdkit's `json` feature; use the text form"))
}

#[cfg(feature = "json")]
mod json {
    use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
    use serde_json::Value;

    /// A JSON object's members in the order written, which `serde_json::Map` (sorted without
    /// `preserve_order`) would lose.
    pub(super) struct Ordered(pub Vec<(String, Value)>);

    impl<'de> Deserialize<'de> for Ordered {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Ordered, D::Error> {
            struct Members;
            impl<'de> Visitor<'de> for Members {
                type Value = Ordered;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("an object")
                }
                fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Ordered, A::Error> {
                    let mut members = Vec::new();
                    while let Some(member) = map.next_entry()? {
                        members.push(member);
                    }
                    Ok(Ordered(members))
                }
            }
            deserializer.deserialize_map(Members)
        }
    }
}

fn build(
    name: String,
    mut entries: Vec<Entry>,
    face: Option<FaceLine>,
) -> Result<JointLayout, JointLayoutError> {
    if entries.is_empty() && face.is_none() {
        return Err(error(0, "the mapping names no joints"));
    }
    if let Some(face) = &face {
        if face.first.is_some_and(|first| first != face.at) {
            let message = format!(
                "the face mesh is said to start at joint {}, but {} joints come before it",
                face.first.unwrap_or(0),
                face.at
            );
            return Err(error(face.line, message));
        }
        let points = (0..face.mesh.len()).map(|i| Entry {
            line: face.line,
            name: format!("face_{i}"),
            role: None,
        });
        entries.splice(face.at..face.at, points);
    }
    let mut joints: Vec<LayoutJoint> = Vec::with_capacity(entries.len());
    let mut lines = Vec::with_capacity(entries.len());
    for entry in entries {
        if entry.name.is_empty() {
            return Err(error(entry.line, "a joint without a name"));
        }
        let key = normalize(&entry.name);
        if let Some(i) = joints.iter().position(|j| normalize(&j.name) == key) {
            let message = format!("joint `{}` repeats line {}", entry.name, lines[i]);
            return Err(error(entry.line, message));
        }
        let role = match entry.role.as_deref().map(str::trim) {
            None | Some("-") => None,
            Some(text) if text.eq_ignore_ascii_case("none") => None,
            Some(text) => Some(Role::from_name(&text.to_ascii_lowercase()).ok_or_else(|| {
                let roles: Vec<&str> = Role::ALL.iter().map(|r| r.name()).collect();
                let message = format!(
                    "unknown role `{text}` for `{}`; roles are -, none, {}",
                    entry.name,
                    roles.join(", ")
                );
                error(entry.line, message)
            })?),
        };
        if let Some(i) = role.and_then(|r| joints.iter().position(|j| j.role == Some(r))) {
            let role = role.map_or("", Role::name);
            return Err(error(entry.line, format!("role {role} is already line {}'s", lines[i])));
        }
        joints.push(LayoutJoint { name: entry.name, role });
        lines.push(entry.line);
    }
    let face = face.map(|f| FaceBlock { mesh: f.mesh, first: f.at });
    let mut layout = JointLayout { name, joints, synthetic: Vec::new(), face };
    for (role, of) in [
        (Role::Pelvis, [Role::LeftHip, Role::RightHip]),
        (Role::Thorax, [Role::LeftShoulder, Role::RightShoulder]),
    ] {
        if !layout.has(role) && of.iter().all(|r| layout.has(*r)) {
            layout.synthetic.push(SyntheticPoint { role, mean_of: of.to_vec() });
        }
    }
    Ok(layout)
}
