//! Words for messages about motions and edits: key counts, short lists of names, the largest
//! errors of a fit.

use vmdkit::Motion;

/// Key counts for messages: "1234 bone, 56 morph, 7 camera keys".
pub fn counts(m: &Motion) -> String {
    let mut parts = vec![format!("{} bone", m.bones.len()), format!("{} morph", m.morphs.len())];
    for (n, what) in [
        (m.cameras.len(), "camera"),
        (m.lights.len(), "light"),
        (m.shadows.len(), "self-shadow"),
        (m.properties.len(), "property"),
    ] {
        if n > 0 {
            parts.push(format!("{n} {what}"));
        }
    }
    format!("{} keys", parts.join(", "))
}

/// A short list for messages: the first `max` items (each cut and escaped, as names from files
/// are), then "and N more".
pub fn list<T: AsRef<str>>(items: &[T], max: usize) -> String {
    vmdkit::shown::shown_list(items).at_most(max).to_string()
}

/// The largest errors, for messages.
pub fn errors(e: &vmdkit::edit::MeasuredErrors) -> String {
    let mut s =
        format!("bones {:.4} units / {:.3}°, morphs {:.4}", e.position, e.angle_degrees, e.morph);
    if e.camera_position > 0.0 || e.camera_angle_degrees > 0.0 {
        s.push_str(&format!(
            ", camera {:.4} units / {:.3}°",
            e.camera_position, e.camera_angle_degrees
        ));
    }
    s
}
