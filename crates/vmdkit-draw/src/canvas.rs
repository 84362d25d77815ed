//! A pixmap with the few drawing operations the figure and the plots need, and PNG output.

use crate::error::DrawError;
use crate::style::{Rgb, BACKGROUND};
use std::io::Write;
use tiny_skia::{FillRule, Paint, PathBuilder, Pixmap, Rect, Stroke, StrokeDash, Transform};

/// Largest side accepted: 16384 pixels, so one image stays below 1 GiB of RGBA.
pub const MAX_SIDE: u32 = 16384;

/// An image size in pixels, both sides between 1 and 16384.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    width: u32,
    height: u32,
}

impl Size {
    /// A size, or [`DrawError::BadSize`] for a zero or too large side.
    pub fn new(width: u32, height: u32) -> Result<Size, DrawError> {
        if (1..=MAX_SIDE).contains(&width) && (1..=MAX_SIDE).contains(&height) {
            Ok(Size { width, height })
        } else {
            Err(DrawError::BadSize { width, height, max: MAX_SIDE })
        }
    }

    /// Width in pixels.
    pub fn width(self) -> u32 {
        self.width
    }

    /// Height in pixels.
    pub fn height(self) -> u32 {
        self.height
    }
}

/// An RGBA image being drawn, anti-aliased, on an opaque background.
pub struct Canvas {
    pixmap: Pixmap,
}

impl Canvas {
    /// A canvas filled with the background colour.
    pub fn new(size: Size) -> Canvas {
        let mut pixmap = Pixmap::new(size.width, size.height).expect("Size checks both sides");
        pixmap.fill(BACKGROUND.color());
        Canvas { pixmap }
    }

    /// Fills the whole canvas with the background colour again.
    pub fn clear(&mut self) {
        self.pixmap.fill(BACKGROUND.color());
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.pixmap.width()
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.pixmap.height()
    }

    /// The pixels, RGBA row by row (opaque, so premultiplied and straight alpha agree).
    pub fn rgba(&self) -> &[u8] {
        self.pixmap.data()
    }

    /// The colour of pixel (x, y), or `None` outside the image.
    pub fn pixel(&self, x: u32, y: u32) -> Option<Rgb> {
        let p = self.pixmap.pixel(x, y)?;
        Some(Rgb(p.red(), p.green(), p.blue()))
    }

    /// Writes the image as a PNG.
    pub fn write_png(&self, out: &mut dyn Write) -> Result<(), DrawError> {
        encode_png(self.width(), self.height(), self.rgba(), out)
    }

    /// A straight line, `dash` as (on, off) lengths in pixels.
    pub fn line(&mut self, a: (f32, f32), b: (f32, f32), width: f32, colour: Rgb, dash: &[f32]) {
        self.polyline(&[a, b], width, colour, 1.0, dash);
    }

    /// A polyline of `points`, with alpha.
    pub fn polyline(
        &mut self,
        points: &[(f32, f32)],
        width: f32,
        colour: Rgb,
        alpha: f32,
        dash: &[f32],
    ) {
        let mut pb = PathBuilder::new();
        let mut started = false;
        for &(x, y) in points {
            if !(x.is_finite() && y.is_finite()) {
                started = false;
                continue;
            }
            if started {
                pb.line_to(x, y);
            } else {
                pb.move_to(x, y);
                started = true;
            }
        }
        let Some(path) = pb.finish() else { return };
        let mut stroke = Stroke { width, ..Stroke::default() };
        stroke.line_cap = tiny_skia::LineCap::Round;
        stroke.line_join = tiny_skia::LineJoin::Round;
        if dash.len() >= 2 {
            stroke.dash = StrokeDash::new(dash.to_vec(), 0.0);
        }
        self.pixmap.stroke_path(&path, &paint(colour, alpha), &stroke, Transform::identity(), None);
    }

    /// A filled disc.
    pub fn dot(&mut self, centre: (f32, f32), radius: f32, colour: Rgb) {
        if let Some(path) = PathBuilder::from_circle(centre.0, centre.1, radius) {
            let p = paint(colour, 1.0);
            self.pixmap.fill_path(&path, &p, FillRule::Winding, Transform::identity(), None);
        }
    }

    /// A square outline centred on `centre`, `half` pixels from centre to side.
    pub fn square(&mut self, centre: (f32, f32), half: f32, width: f32, colour: Rgb) {
        if let Some(rect) =
            Rect::from_xywh(centre.0 - half, centre.1 - half, 2.0 * half, 2.0 * half)
        {
            let path = PathBuilder::from_rect(rect);
            let stroke = Stroke { width, ..Stroke::default() };
            self.pixmap.stroke_path(
                &path,
                &paint(colour, 1.0),
                &stroke,
                Transform::identity(),
                None,
            );
        }
    }

    /// A filled rectangle (pixel-aligned edges stay sharp).
    pub fn fill_rect(&mut self, x: f32, y: f32, w: f32, h: f32, colour: Rgb) {
        if let Some(rect) = Rect::from_xywh(x, y, w, h) {
            self.pixmap.fill_rect(rect, &paint(colour, 1.0), Transform::identity(), None);
        }
    }

    /// Blends `colour` over pixel (x, y) with `coverage` (0–1); outside the image it does nothing.
    pub(crate) fn blend(&mut self, x: i32, y: i32, colour: Rgb, coverage: f32) {
        let (w, h) = (self.width() as i32, self.height() as i32);
        if x < 0 || y < 0 || x >= w || y >= h || coverage <= 0.0 {
            return;
        }
        let a = coverage.min(1.0);
        let i = (y * w + x) as usize * 4;
        let data = self.pixmap.data_mut();
        for (c, v) in [colour.0, colour.1, colour.2].into_iter().enumerate() {
            let old = f32::from(data[i + c]);
            data[i + c] = (old + (f32::from(v) - old) * a).round() as u8;
        }
    }
}

fn paint(colour: Rgb, alpha: f32) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color(colour.with_alpha(alpha));
    p.anti_alias = true;
    p
}

/// Encodes opaque RGBA pixels as an 8-bit RGB PNG, with fast compression: frames are written
/// by the hundred, and the fast deflate of a stick figure is small anyway.
pub fn encode_png(
    width: u32,
    height: u32,
    rgba: &[u8],
    out: &mut dyn Write,
) -> Result<(), DrawError> {
    let mut encoder = png::Encoder::new(out, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    encoder.set_filter(png::Filter::Up);
    let mut writer = encoder.write_header()?;
    let rgb: Vec<u8> = rgba.chunks_exact(4).flat_map(|p| [p[0], p[1], p[2]]).collect();
    writer.write_image_data(&rgb)?;
    writer.finish()?;
    Ok(())
}
