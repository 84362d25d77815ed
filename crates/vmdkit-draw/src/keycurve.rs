//! One key's interpolation curves in MMD's 0–127 box, as MMD's curve editor shows them.

use crate::canvas::{Canvas, Size};
use crate::font::Font;
use crate::style::{Rgb, CHANNELS, GRID, INK};
use vmdkit::Curve;

/// The curves of one key, with a name for each (X, Y, Z, rotation for a bone key).
#[derive(Clone, Debug)]
pub struct KeyCurves {
    /// What the curves belong to, for the legend (a motion's name).
    pub label: String,
    /// Channel names and curves.
    pub curves: Vec<(String, Curve)>,
}

/// Draws every set's curves in one 0–127 box, handles as lines from the corners with dots at
/// the control points; the first set solid, later ones dashed.
pub fn draw_key_curves(title: &str, sets: &[KeyCurves], size: Size, font: Option<&Font>) -> Canvas {
    let mut canvas = Canvas::new(size);
    let (w, h) = (size.width() as f32, size.height() as f32);
    let text = (h / 32.0).clamp(10.0, 18.0);
    let top = text * 2.2;
    let side = (w - 2.0 * text - text * 9.0).min(h - top - text).max(8.0);
    let (x0, y0) = (text, top);
    let px = |v: f64| x0 + (v / 127.0) as f32 * side;
    let py = |v: f64| y0 + side - (v / 127.0) as f32 * side;
    for q in 0..=4 {
        let v = f64::from(q) * 127.0 / 4.0;
        canvas.line((px(v), py(0.0)), (px(v), py(127.0)), 1.0, GRID, &[]);
        canvas.line((px(0.0), py(v)), (px(127.0), py(v)), 1.0, GRID, &[]);
    }
    canvas.polyline(
        &[
            (px(0.0), py(0.0)),
            (px(127.0), py(0.0)),
            (px(127.0), py(127.0)),
            (px(0.0), py(127.0)),
            (px(0.0), py(0.0)),
        ],
        1.0,
        INK,
        1.0,
        &[],
    );
    if let Some(font) = font {
        font.draw(&mut canvas, title, x0, text * 0.5, text * 1.1, INK);
    }
    let mut legend_y = top;
    for (si, set) in sets.iter().enumerate() {
        let dash: Vec<f32> = if si == 0 { Vec::new() } else { vec![6.0, 4.0] };
        for (ci, (name, curve)) in set.curves.iter().enumerate() {
            let colour: Rgb = CHANNELS[ci % CHANNELS.len()];
            let points: Vec<(f32, f32)> = (0..=64)
                .map(|i| {
                    let x = f64::from(i) / 64.0;
                    (px(x * 127.0), py(curve.weight_f64(x) * 127.0))
                })
                .collect();
            canvas.polyline(&points, 2.0, colour, 1.0, &dash);
            let (h1, h2) = (
                (px(f64::from(curve.x1.min(127))), py(f64::from(curve.y1.min(127)))),
                (px(f64::from(curve.x2.min(127))), py(f64::from(curve.y2.min(127)))),
            );
            canvas.line((px(0.0), py(0.0)), h1, 1.0, colour, &[2.0, 2.0]);
            canvas.line((px(127.0), py(127.0)), h2, 1.0, colour, &[2.0, 2.0]);
            canvas.dot(h1, 3.5, colour);
            canvas.dot(h2, 3.5, colour);
            if let Some(font) = font {
                let label =
                    if sets.len() > 1 { format!("{} {name}", set.label) } else { name.clone() };
                canvas.line(
                    (x0 + side + text, legend_y + text * 0.55),
                    (x0 + side + text * 2.5, legend_y + text * 0.55),
                    2.0,
                    colour,
                    &dash,
                );
                font.draw(&mut canvas, &label, x0 + side + text * 3.0, legend_y, text, INK);
                legend_y += text * 1.3;
            }
        }
    }
    canvas
}
