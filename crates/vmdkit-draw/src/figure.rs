//! The stick figure: a model's bones posed by a motion, drawn head to parent head.

use crate::bones::{bone_styles, drawn_parents, visible_flags, BoneSet, BoneStyle};
use crate::canvas::{Canvas, Size};
use crate::digits;
use crate::font::Font;
use crate::labels::{place, Label, Wanted};
use crate::projection::{Projection, View};
use crate::style::{Rgb, BACKGROUND, CENTRE, GRID, IK, INK, LEFT, RIGHT};
use glam::Vec3;
use std::sync::Arc;
use vmdkit::eval::MotionSampler;
use vmdkit::model::Model;
use vmdkit::skeleton::{Binding, Pose, PoseOptions, SharedPoser, Skeleton};
use vmdkit::Motion;

/// The joints `set_labels(true)` names, when the model has them (besides every IK goal).
const LABELLED: [&str; 7] = ["頭", "左ひじ", "右ひじ", "左手首", "右手首", "左ひざ", "右ひざ"];

/// Floor grid spacing in MMD units (MMD's own grid is 5 units).
const GRID_STEP: f32 = 5.0;
/// At most this many frames are posed to fit a view over a range of frames.
const MAX_FIT_FRAMES: usize = 1024;

/// Which side of the model a bone is on, from its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Side {
    /// 左, or English `_L`, `.L`, `Left`.
    Left,
    /// 右, or English `_R`, `.R`, `Right`.
    Right,
    /// Neither.
    Centre,
}

impl Side {
    /// The side a bone name says.
    pub fn of_name(name: &str) -> Side {
        let lower = name.to_ascii_lowercase();
        if name.contains('左')
            || lower.ends_with("_l")
            || lower.ends_with(".l")
            || lower.contains("left")
        {
            Side::Left
        } else if name.contains('右')
            || lower.ends_with("_r")
            || lower.ends_with(".r")
            || lower.contains("right")
        {
            Side::Right
        } else {
            Side::Centre
        }
    }

    /// The colour bones of this side are drawn in.
    pub fn colour(self) -> Rgb {
        match self {
            Side::Left => LEFT,
            Side::Right => RIGHT,
            Side::Centre => CENTRE,
        }
    }
}

/// Poses a model by a motion and draws the stick figure; the canvas is reused from frame to
/// frame.
pub struct FigureRenderer {
    poser: SharedPoser,
    binding: Arc<Binding>,
    pose: Pose,
    sides: Vec<Side>,
    /// Bones that are the goal of an IK chain: drawn as squares, without a line to the parent.
    ik_goal: Vec<bool>,
    /// Floor-level roots: drawn as a dot, without lines to their children.
    floor_root: Vec<bool>,
    /// Each bone's visible flag in the model.
    visible: Vec<bool>,
    /// How each bone is drawn under the chosen [`BoneSet`].
    styles: Vec<BoneStyle>,
    /// The bone each drawn bone's line goes to.
    drawn_parent: Vec<Option<usize>>,
    /// Each bone's English name in the model (for labels when the font lacks kanji).
    english: Vec<String>,
    canvas: Canvas,
    font: Option<Font>,
    grid_half: f32,
    /// Bones whose names are drawn beside their joints (needs a font).
    labelled: Vec<usize>,
    /// The labels of the last frame drawn.
    placed: Vec<Label>,
}

impl FigureRenderer {
    /// A renderer of `model` posed by `motion`, MMD's IK solver on.
    pub fn new(model: &Model, motion: &Motion, size: Size) -> FigureRenderer {
        FigureRenderer::with_options(model, motion, size, PoseOptions::default())
    }

    /// A renderer with chosen posing options (IK solver, IK off).
    pub fn with_options(model: &Model, motion: &Motion, size: Size, options: PoseOptions) -> Self {
        let skeleton = Arc::new(Skeleton::new(model));
        let sampler = Arc::new(MotionSampler::new(motion));
        let binding = Arc::new(Binding::new(&skeleton, &sampler));
        let n = skeleton.bone_count();
        let sides = skeleton.bone_names().iter().map(|name| Side::of_name(name)).collect();
        // A root at floor level (全ての親) moves the whole figure but is not part of the body:
        // no line joins it to its children.
        let floor_root: Vec<bool> = (0..n)
            .map(|b| skeleton.parent(b).is_none() && skeleton.rest_position(b).y.abs() < 1e-3)
            .collect();
        let mut ik_goal = vec![false; n];
        for k in 0..skeleton.ik_count() {
            ik_goal[skeleton.ik_bone(k)] = true;
        }
        let pose = Pose::new(&skeleton);
        let visible = visible_flags(model, &skeleton);
        let styles = bone_styles(&skeleton, &visible, BoneSet::default());
        let drawn_parent = drawn_parents(&skeleton, &styles, &ik_goal, &floor_root);
        let english = (0..n)
            .map(|b| model.bones.get(b).map_or(String::new(), |bone| bone.name_en.clone()))
            .collect();
        FigureRenderer {
            poser: SharedPoser::with_options(skeleton, sampler, Arc::clone(&binding), options),
            binding,
            pose,
            sides,
            ik_goal,
            floor_root,
            visible,
            styles,
            drawn_parent,
            english,
            canvas: Canvas::new(size),
            font: None,
            grid_half: 20.0,
            labelled: Vec::new(),
            placed: Vec::new(),
        }
    }

    /// Chooses which bones are drawn ([`BoneSet::Body`] unless set); see [`BoneStyle`].
    pub fn set_bones(&mut self, set: BoneSet) {
        let skeleton = self.poser.skeleton();
        self.styles = bone_styles(skeleton, &self.visible, set);
        self.drawn_parent = drawn_parents(skeleton, &self.styles, &self.ik_goal, &self.floor_root);
    }

    /// How bone `bone` is drawn under the chosen [`BoneSet`].
    pub fn bone_style(&self, bone: usize) -> BoneStyle {
        self.styles[bone]
    }

    /// The bone that `bone`'s line goes to (its nearest drawn ancestor), or `None` when no
    /// line is drawn for it.
    pub fn drawn_parent(&self, bone: usize) -> Option<usize> {
        self.drawn_parent[bone]
    }

    /// The labels of the last frame [`FigureRenderer::draw`] drew: text and box, pairwise
    /// disjoint.
    pub fn labels(&self) -> &[Label] {
        &self.placed
    }

    /// Draws the frame counter with `font` rather than seven-segment digits.
    pub fn set_font(&mut self, font: Option<Font>) {
        self.font = font;
    }

    /// Names the head, elbows, wrists, knees and IK goals that are drawn beside their
    /// joints, in the script the font can draw ([`Font::bone_label`]); nothing without a
    /// font. Labels that would overlap are moved, or left out when there is no room.
    pub fn set_labels(&mut self, on: bool) {
        let skeleton = self.poser.skeleton();
        self.labelled = if on {
            // The named joints first, in LABELLED's order, then the IK goals: the first win
            // contested places.
            let named = LABELLED
                .iter()
                .filter_map(|name| skeleton.bone_names().iter().position(|b| b == name));
            let goals = (0..skeleton.bone_count()).filter(|&b| self.ik_goal[b]);
            named.chain(goals).filter(|&b| self.styles[b] != BoneStyle::Hidden).collect()
        } else {
            Vec::new()
        };
    }

    /// The skeleton being posed.
    pub fn skeleton(&self) -> &Skeleton {
        self.poser.skeleton()
    }

    /// How the motion's tracks bound to the skeleton's bones and morphs.
    pub fn binding(&self) -> &Binding {
        &self.binding
    }

    /// The side bone `bone` is drawn for.
    pub fn side(&self, bone: usize) -> Side {
        self.sides[bone]
    }

    /// Whether `bone` is an IK goal (drawn as a square, without a line to its parent).
    pub fn is_ik_goal(&self, bone: usize) -> bool {
        self.ik_goal[bone]
    }

    /// Whether `bone` is a floor-level root (no lines to its children).
    pub fn is_floor_root(&self, bone: usize) -> bool {
        self.floor_root[bone]
    }

    /// Half the floor grid's width, in MMD units, as the last [`FigureRenderer::fit`] sized it.
    pub fn grid_half(&self) -> f32 {
        self.grid_half
    }

    /// Every bone's model-space position at time `t` (frames at 30 fps).
    pub fn positions_at(&mut self, t: f64) -> &[Vec3] {
        self.poser.pose_at(t, &mut self.pose);
        self.pose.positions()
    }

    /// An orthographic projection of `view` fitted to the drawn bones over `frames` (at most
    /// 1024 of them are posed, evenly spread); the floor grid is sized to the same poses. Call
    /// [`FigureRenderer::set_bones`] first.
    pub fn fit(&mut self, view: View, frames: &[f64]) -> Projection {
        let step = frames.len().div_ceil(MAX_FIT_FRAMES).max(1);
        let mut points = Vec::new();
        for &t in frames.iter().step_by(step).chain(frames.last()) {
            self.poser.pose_at(t, &mut self.pose);
            // Only what is drawn: a hidden helper below the floor must not shrink the figure.
            let drawn = self.pose.positions().iter().zip(&self.styles);
            points.extend(drawn.filter(|(_, &s)| s != BoneStyle::Hidden).map(|(p, _)| *p));
        }
        let reach = points
            .iter()
            .filter(|p| p.is_finite())
            .fold(0f32, |m, p| m.max(p.x.abs()).max(p.z.abs()));
        self.grid_half = ((reach / GRID_STEP).ceil() * GRID_STEP).clamp(2.0 * GRID_STEP, 200.0);
        Projection::fit(view, self.canvas_size(), points)
    }

    /// The image size.
    pub fn canvas_size(&self) -> Size {
        Size::new(self.canvas.width(), self.canvas.height()).expect("the canvas has a valid size")
    }

    /// Draws the figure at time `t` through `projection`, with `counter` (the frame number) in
    /// the top-left corner when given.
    pub fn draw(&mut self, projection: &Projection, t: f64, counter: Option<&str>) -> &Canvas {
        self.poser.pose_at(t, &mut self.pose);
        self.canvas.clear();
        let size = self.canvas_size();
        let line = (size.width().min(size.height()) as f32 / 170.0).clamp(1.0, 6.0);
        self.draw_grid(projection, line * 0.6);

        let skeleton = self.poser.skeleton();
        let positions = self.pose.positions();
        let mut bones: Vec<(f32, usize, usize)> = (0..skeleton.bone_count())
            .filter_map(|b| {
                let parent = self.drawn_parent[b]?;
                let depth = projection.project((positions[b] + positions[parent]) / 2.0)?.2;
                Some((depth, b, parent))
            })
            .collect();
        // Far bones first, so that near ones are drawn over them.
        bones.sort_by(|a, b| b.0.total_cmp(&a.0));
        for &(_, b, parent) in &bones {
            if let Some((pa, pb)) = projection.segment(positions[b], positions[parent]) {
                let (width, colour) = self.stroke(b, line);
                self.canvas.line(pa, pb, width, colour, &[]);
            }
        }
        for (b, &p) in positions.iter().enumerate() {
            if self.styles[b] == BoneStyle::Hidden {
                continue;
            }
            let Some((x, y, _)) = projection.project(p) else { continue };
            if self.ik_goal[b] {
                self.canvas.square((x, y), line * 2.2, line * 0.8, IK);
            } else {
                let (width, colour) = self.stroke(b, line);
                self.canvas.dot((x, y), width * 1.15, colour);
            }
        }
        self.placed.clear();
        if let Some(font) = &self.font {
            let height = (size.height() as f32 / 40.0).clamp(8.0, 24.0);
            let wanted = self
                .labelled
                .iter()
                .filter_map(|&b| {
                    let (x, y, _) = projection.project(positions[b])?;
                    let text = font.bone_label(skeleton.bone_name(b), &self.english[b], b);
                    Some(Wanted {
                        bone: b,
                        width: font.width(&text, height),
                        height: font.line_height(height),
                        text,
                        joint: (x, y),
                        // The model's right side is the image's left: its names go left.
                        left: self.sides[b] == Side::Right,
                    })
                })
                .collect();
            let (w, h) = (size.width() as f32, size.height() as f32);
            self.placed = place(wanted, line * 3.0, w, h);
            for label in &self.placed {
                font.draw(&mut self.canvas, &label.text, label.x, label.y, height, INK);
            }
        }
        if let Some(text) = counter {
            let height = (size.height() as f32 / 24.0).clamp(8.0, 48.0);
            let margin = height * 0.5;
            match &self.font {
                Some(font) => font.draw(&mut self.canvas, text, margin, margin, height, INK),
                None => digits::draw(&mut self.canvas, text, margin, margin, height * 0.8, INK),
            }
        }
        &self.canvas
    }

    /// Fits `view` to the figure over `fit_frames` and draws time `t`: one still image.
    pub fn render_ortho(&mut self, view: View, fit_frames: &[f64], t: f64) -> &Canvas {
        let projection = self.fit(view, fit_frames);
        self.draw(&projection, t, None)
    }

    /// The width and colour of bone `b`'s line, `line` pixels for the body: physics chains
    /// are half as wide and half-way to the background, so that they read as hair and cloth.
    fn stroke(&self, b: usize, line: f32) -> (f32, Rgb) {
        let colour = self.sides[b].colour();
        match self.styles[b] {
            BoneStyle::Physics => (line * 0.5, colour.towards(BACKGROUND, 0.5)),
            _ => (line, colour),
        }
    }

    fn draw_grid(&mut self, projection: &Projection, width: f32) {
        let g = self.grid_half;
        let lines = (2.0 * g / GRID_STEP).round() as i32;
        for i in 0..=lines {
            let c = -g + i as f32 * GRID_STEP;
            for (a, b) in [
                (Vec3::new(c, 0.0, -g), Vec3::new(c, 0.0, g)),
                (Vec3::new(-g, 0.0, c), Vec3::new(g, 0.0, c)),
            ] {
                if let Some((pa, pb)) = projection.segment(a, b) {
                    self.canvas.line(pa, pb, width, GRID, &[]);
                }
            }
        }
    }
}
