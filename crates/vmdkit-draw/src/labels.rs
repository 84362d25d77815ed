//! Placing joint labels so that no two overlap: each goes beside its joint on its preferred
//! side, else on the other side, above or below; a label with no free place is left out.

/// A label as drawn: its text and its box on the image (top-left corner, width, height).
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    /// The bone it names (index in the model).
    pub bone: usize,
    /// The text drawn.
    pub text: String,
    /// Left edge, pixels.
    pub x: f32,
    /// Top edge, pixels.
    pub y: f32,
    /// Width, pixels.
    pub width: f32,
    /// Height, pixels.
    pub height: f32,
}

impl Label {
    /// Whether the two boxes share any area.
    pub fn overlaps(&self, other: &Label) -> bool {
        self.x < other.x + other.width
            && other.x < self.x + self.width
            && self.y < other.y + other.height
            && other.y < self.y + self.height
    }
}

/// One label to place: the joint it names at `joint` (pixels), `left` when it prefers the
/// joint's left (the model's right side is the image's left).
pub(crate) struct Wanted {
    pub bone: usize,
    pub text: String,
    pub joint: (f32, f32),
    pub left: bool,
    pub width: f32,
    pub height: f32,
}

/// Places `wanted` in order (earlier ones win a contested place), `gap` pixels from their
/// joints, inside a `w` × `h` image; boxes keep a one-pixel margin between them and stay off
/// every labelled joint's mark (a square `gap` pixels across each side of the joint).
pub(crate) fn place(wanted: Vec<Wanted>, gap: f32, w: f32, h: f32) -> Vec<Label> {
    let marks: Vec<Label> = wanted
        .iter()
        .map(|m| Label {
            bone: m.bone,
            text: String::new(),
            x: m.joint.0 - gap * 0.8,
            y: m.joint.1 - gap * 0.8,
            width: gap * 1.6,
            height: gap * 1.6,
        })
        .collect();
    let mut placed: Vec<Label> = Vec::new();
    for want in wanted {
        let (x, y) = want.joint;
        let (lw, lh) = (want.width, want.height);
        let left = (x - gap - lw, y - lh / 2.0);
        let right = (x + gap, y - lh / 2.0);
        let (near, far) = if want.left { (left, right) } else { (right, left) };
        let above = (x - lw / 2.0, y - gap - lh);
        let below = (x - lw / 2.0, y + gap);
        let candidates = [
            near,
            far,
            (near.0, near.1 - lh),
            (near.0, near.1 + lh),
            above,
            below,
            (far.0, far.1 - lh),
            (far.0, far.1 + lh),
        ];
        let free = candidates.into_iter().find_map(|(cx, cy)| {
            let label = Label {
                bone: want.bone,
                text: want.text.clone(),
                x: cx,
                y: cy,
                width: lw,
                height: lh,
            };
            let margin = Label {
                x: cx - 1.0,
                y: cy - 1.0,
                width: lw + 2.0,
                height: lh + 2.0,
                ..label.clone()
            };
            let inside = cx >= 0.0 && cy >= 0.0 && cx + lw <= w && cy + lh <= h;
            let taken = placed.iter().chain(&marks).any(|p| p.overlaps(&margin));
            (inside && !taken).then_some(label)
        });
        placed.extend(free);
    }
    placed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn want(bone: usize, joint: (f32, f32), left: bool) -> Wanted {
        Wanted { bone, text: format!("b{bone}"), joint, left, width: 40.0, height: 10.0 }
    }

    #[test]
    fn crowded_joints_get_disjoint_boxes_or_none() {
        // Knees a few pixels apart, as in a front view of crossed legs.
        let wanted = (0..6).map(|i| want(i, (100.0 + i as f32, 100.0), i % 2 == 0)).collect();
        let placed = place(wanted, 4.0, 200.0, 200.0);
        assert!(placed.len() >= 4, "{placed:?}");
        for (i, a) in placed.iter().enumerate() {
            for b in &placed[i + 1..] {
                assert!(!a.overlaps(b), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn a_lone_label_goes_on_its_preferred_side() {
        let placed = place(vec![want(0, (100.0, 100.0), true)], 4.0, 200.0, 200.0);
        assert_eq!(placed[0].x, 56.0);
    }
}
