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
//! A pelvis missing from the file is implied as the mean of the hips, and a neck base (thorax)
//! as the mean of the shoulders, as for the built-in layouts without them.

use super::{normalize, JointLayout, JointLayoutError, LayoutJoint, SyntheticPoint};
use crate::roles::Role;
use std::path::Path;

/// One joint as the file gives it: its line, name and role text (`None`: JSON `null`).
struct Entry {
    line: usize,
    name: String,
    role: Option<String>,
}

impl JointLayout {
    /// A layout from a user mapping (text or JSON; see the module documentation), called `name`.
    pub fn from_mapping(name: &str, text: &str) -> Result<JointLayout, JointLayoutError> {
        let (name, entries) = if text.trim_start().starts_with('{') {
            json_entries(name, text)?
        } else {
            (name.to_string(), text_entries(text)?)
        };
        build(name, entries)
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

fn text_entries(text: &str) -> Result<Vec<Entry>, JointLayoutError> {
    let mut entries = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
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
    Ok(entries)
}

#[cfg(feature = "json")]
fn json_entries(name: &str, text: &str) -> Result<(String, Vec<Entry>), JointLayoutError> {
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
        return Ok((name.to_string(), entries));
    }
    let mut layout_name = name.to_string();
    let mut entries = Vec::new();
    for (key, value) in &object.0 {
        match (key.as_str(), value) {
            ("name", Value::String(s)) => layout_name = s.clone(),
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
    Ok((layout_name, entries))
}

#[cfg(not(feature = "json"))]
fn json_entries(_: &str, _: &str) -> Result<(String, Vec<Entry>), JointLayoutError> {
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

fn build(name: String, entries: Vec<Entry>) -> Result<JointLayout, JointLayoutError> {
    if entries.is_empty() {
        return Err(error(0, "the mapping names no joints"));
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
    let mut layout = JointLayout { name, joints, synthetic: Vec::new(), face: None };
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
