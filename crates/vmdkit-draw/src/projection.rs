//! From MMD's model space to pixels: orthographic views fitted to a figure, or MMD's camera.

use crate::canvas::Size;
use glam::Vec3;
use vmdkit::eval::{CameraSample, CameraView};

/// Where an orthographic view looks from.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum View {
    /// At the model's face (from −Z, like MMD's default camera): its left on the image's right.
    Front,
    /// From the model's left (+X), looking towards −X: the model faces the image's left.
    Side,
    /// From above, the model's face towards the bottom of the image.
    Top,
    /// From the front turned by this many degrees about Y, as MMD's camera Y angle turns it
    /// (90 is [`View::Side`]).
    Orbit(f32),
}

impl View {
    /// Parses `front`, `side`, `top` or an angle in degrees.
    pub fn parse(text: &str) -> Option<View> {
        match text {
            "front" => Some(View::Front),
            "side" => Some(View::Side),
            "top" => Some(View::Top),
            _ => text.parse::<f32>().ok().filter(|a| a.is_finite()).map(View::Orbit),
        }
    }

    /// The camera directions of this view, from MMD's camera formula (reference §7).
    fn camera(self) -> CameraView {
        let rotation = match self {
            View::Front => Vec3::ZERO,
            View::Side => Vec3::new(0.0, 90f32.to_radians(), 0.0),
            View::Top => Vec3::new(-90f32.to_radians(), 0.0, 0.0),
            View::Orbit(deg) => Vec3::new(0.0, deg.to_radians(), 0.0),
        };
        CameraSample { target: Vec3::ZERO, rotation, ..CameraSample::MMD_DEFAULT }.view()
    }
}

/// Nearest depth drawn through a perspective camera, in MMD units in front of the eye.
const NEAR: f32 = 0.5;

/// Projects model-space points to pixel coordinates (x right, y down, pixel centres at .5).
#[derive(Clone, Copy, Debug)]
pub struct Projection {
    view: CameraView,
    size: Size,
    /// Orthographic: pixels per unit and the view-space point at the image centre.
    scale: f32,
    centre: (f32, f32),
    perspective: bool,
}

impl Projection {
    /// An orthographic view of `view` scaled so that every point of `points` fits with a margin
    /// of 6% a side, centred on the image: a set of points symmetric about the view's vertical
    /// axis is drawn symmetric about the image's vertical centre line.
    pub fn fit(view: View, size: Size, points: impl IntoIterator<Item = Vec3>) -> Projection {
        let camera = view.camera();
        let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
        for p in points {
            if p.is_finite() {
                let v = camera.to_view_space(p);
                lo = lo.min(v);
                hi = hi.max(v);
            }
        }
        if lo.x > hi.x {
            (lo, hi) = (Vec3::splat(-10.0), Vec3::splat(10.0));
        }
        let (w, h) = (size.width() as f32, size.height() as f32);
        let extent = (hi - lo).max(Vec3::splat(1e-3));
        let scale = ((w * 0.88) / extent.x).min((h * 0.88) / extent.y);
        Projection {
            view: camera,
            size,
            scale,
            centre: ((lo.x + hi.x) / 2.0, (lo.y + hi.y) / 2.0),
            perspective: false,
        }
    }

    /// MMD's camera at one time: its eye, angles and vertical field of view; orthographic when
    /// the key says so, with the field of view's height at the target's distance.
    pub fn camera(camera: &CameraSample, size: Size) -> Projection {
        let view = camera.view();
        let half_height = camera.distance.abs().max(1e-3) * (camera.fov.to_radians() / 2.0).tan();
        let scale = size.height() as f32 / 2.0 / half_height.max(1e-6);
        let centre = (0.0, 0.0);
        Projection { view, size, scale, centre, perspective: camera.perspective }
    }

    /// The pixel of `p`, and its depth (larger is farther); `None` behind a perspective camera.
    pub fn project(&self, p: Vec3) -> Option<(f32, f32, f32)> {
        let v = self.view.to_view_space(p);
        self.view_to_pixel(v)
    }

    fn view_to_pixel(&self, v: Vec3) -> Option<(f32, f32, f32)> {
        let (w, h) = (self.size.width() as f32, self.size.height() as f32);
        if self.perspective {
            if v.z < NEAR {
                return None;
            }
            let f = (h / 2.0) / (self.view.fov_y_degrees.to_radians() / 2.0).tan().max(1e-6);
            return Some((w / 2.0 + v.x / v.z * f, h / 2.0 - v.y / v.z * f, v.z));
        }
        let x = w / 2.0 + (v.x - self.centre.0) * self.scale;
        let y = h / 2.0 - (v.y - self.centre.1) * self.scale;
        Some((x, y, v.z))
    }

    /// A segment's two pixels, cut where it passes behind a perspective camera; `None` when it
    /// is wholly behind.
    pub fn segment(&self, a: Vec3, b: Vec3) -> Option<((f32, f32), (f32, f32))> {
        let (mut va, mut vb) = (self.view.to_view_space(a), self.view.to_view_space(b));
        if self.perspective {
            if va.z < NEAR && vb.z < NEAR {
                return None;
            }
            if va.z < NEAR {
                va = va.lerp(vb, (NEAR - va.z) / (vb.z - va.z));
            } else if vb.z < NEAR {
                vb = vb.lerp(va, (NEAR - vb.z) / (va.z - vb.z));
            }
        }
        let (pa, pb) = (self.view_to_pixel(va)?, self.view_to_pixel(vb)?);
        Some(((pa.0, pa.1), (pb.0, pb.1)))
    }

    /// Pixels per MMD unit at the target's distance (orthographic: everywhere).
    pub fn scale(&self) -> f32 {
        self.scale
    }

    /// The image size.
    pub fn size(&self) -> Size {
        self.size
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn front_view_puts_the_models_left_on_the_right_and_up_up() {
        let size = Size::new(100, 100).unwrap();
        let pts = [Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, 2.0, 0.0)];
        let p = Projection::fit(View::Front, size, pts);
        let (lx, ly, _) = p.project(Vec3::new(1.0, 2.0, 0.0)).unwrap();
        let (rx, ry, _) = p.project(Vec3::new(-1.0, 0.0, 0.0)).unwrap();
        assert!(lx > rx && ly < ry);
        assert!((lx + rx - 100.0).abs() < 1e-4, "centred: {lx} {rx}");
    }

    #[test]
    fn side_view_looks_from_the_models_left() {
        let size = Size::new(100, 100).unwrap();
        let p = Projection::fit(View::Side, size, [Vec3::new(0.0, 0.0, -1.0), Vec3::Z]);
        let (front, _, _) = p.project(Vec3::new(0.0, 0.0, -1.0)).unwrap();
        let (back, _, _) = p.project(Vec3::Z).unwrap();
        // Seen from its left (+X) the model faces the image's left, as a person seen from their
        // left side does.
        assert!(front < back, "{front} {back}");
        let depth_near = p.project(Vec3::X).unwrap().2;
        assert!(depth_near < p.project(-Vec3::X).unwrap().2);
    }

    #[test]
    fn top_view_puts_the_models_face_at_the_bottom_and_its_left_on_the_right() {
        let size = Size::new(100, 100).unwrap();
        let pts = [Vec3::new(-1.0, 0.0, -1.0), Vec3::new(1.0, 5.0, 1.0)];
        let p = Projection::fit(View::Top, size, pts);
        let front = p.project(Vec3::new(0.0, 0.0, -1.0)).unwrap();
        let back = p.project(Vec3::new(0.0, 0.0, 1.0)).unwrap();
        assert!(front.1 > back.1, "{front:?} {back:?}");
        assert!(p.project(Vec3::X).unwrap().0 > p.project(-Vec3::X).unwrap().0);
        assert!(
            p.project(Vec3::new(0.0, 5.0, 0.0)).unwrap().2 < p.project(Vec3::ZERO).unwrap().2,
            "the head is nearer"
        );
        assert_eq!(View::parse("top"), Some(View::Top));
        assert_eq!(View::parse("-45"), Some(View::Orbit(-45.0)));
        assert_eq!(View::parse("inf"), None);
    }

    #[test]
    fn mmd_default_camera_sees_the_target_at_the_centre() {
        let size = Size::new(200, 100).unwrap();
        let p = Projection::camera(&CameraSample::MMD_DEFAULT, size);
        let (x, y, z) = p.project(Vec3::new(0.0, 10.0, 0.0)).unwrap();
        assert!((x - 100.0).abs() < 1e-3 && (y - 50.0).abs() < 1e-3 && (z - 45.0).abs() < 1e-3);
        // The top of the 30° field of view at the target's distance is the image's top edge.
        let top = 10.0 + 45.0 * 15f32.to_radians().tan();
        assert!(p.project(Vec3::new(0.0, top, 0.0)).unwrap().1.abs() < 1e-2);
        assert!(p.project(Vec3::new(0.0, 10.0, -50.0)).is_none(), "behind the eye");
    }
}
