//! Line charts: panels stacked over one shared time axis, keys marked on the curves.

use crate::canvas::{Canvas, Size};
use crate::digits;
use crate::font::Font;
use crate::style::{Rgb, GRID, INK};

/// One curve and its keys.
#[derive(Clone, Debug, Default)]
pub struct Series {
    /// What the curve is, for the legend.
    pub label: String,
    /// Line and marker colour.
    pub colour: Rgb,
    /// Dash pattern in pixels (on, off, ...); empty for a solid line.
    pub dash: Vec<f32>,
    /// The sampled curve, (x, y), in order of x.
    pub points: Vec<(f64, f64)>,
    /// The keys, (x, y), each drawn as a marker.
    pub keys: Vec<(f64, f64)>,
}

impl Default for Rgb {
    fn default() -> Rgb {
        INK
    }
}

/// A panel: curves sharing one value axis.
#[derive(Clone, Debug, Default)]
pub struct Panel {
    /// Heading drawn above the panel (when a font is available).
    pub title: String,
    /// The curves.
    pub series: Vec<Series>,
}

/// A whole chart: a title, panels top to bottom, and a legend.
#[derive(Clone, Debug, Default)]
pub struct Chart {
    /// Heading of the image.
    pub title: String,
    /// Panels, top to bottom.
    pub panels: Vec<Panel>,
    /// Legend entries: label, colour and dash.
    pub legend: Vec<(String, Rgb, Vec<f32>)>,
}

/// Where one key was drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Marker {
    /// Index of the panel.
    pub panel: usize,
    /// Index of the series in the panel.
    pub series: usize,
    /// Pixel centre.
    pub x: f32,
    /// Pixel centre.
    pub y: f32,
}

/// What [`draw_chart`] placed, for callers and tests.
#[derive(Clone, Debug, Default)]
pub struct ChartLayout {
    /// Every key marker drawn.
    pub markers: Vec<Marker>,
    /// Every tick number drawn.
    pub ticks: Vec<TickLabel>,
}

/// A tick number as drawn: in the chart's font when it has one (the same font as its titles),
/// else as seven-segment digits.
#[derive(Clone, Debug, PartialEq)]
pub struct TickLabel {
    /// The number as written.
    pub text: String,
    /// Its left edge, pixels.
    pub x: f32,
    /// Its vertical centre, pixels.
    pub centre_y: f32,
    /// The text size, pixels.
    pub size: f32,
}

/// Marker radius in pixels.
pub const MARKER_RADIUS: f32 = 3.5;
/// Opacity of curve lines: below 1 so that the exact series colour marks only the keys.
const LINE_ALPHA: f32 = 0.7;

/// Draws `chart`; text (titles, legend labels) only when `font` is given, tick labels always
/// (in the same font, or as seven-segment digits without one).
pub fn draw_chart(chart: &Chart, size: Size, font: Option<&Font>) -> (Canvas, ChartLayout) {
    let mut canvas = Canvas::new(size);
    let (w, h) = (size.width() as f32, size.height() as f32);
    let text = (h / 40.0).clamp(10.0, 18.0);
    let title_band = if font.is_some() && !chart.title.is_empty() { text * 1.8 } else { 0.0 };
    let panel_gap = if font.is_some() { text * 1.8 } else { text };
    let top = title_band + panel_gap;
    let (left, right, bottom) = (text * 5.0, text, text * 2.0);
    let n = chart.panels.len().max(1) as f32;
    let panel_h = ((h - top - bottom - panel_gap * (n - 1.0)) / n).max(1.0);
    if let (Some(font), false) = (font, chart.title.is_empty()) {
        font.draw(&mut canvas, &chart.title, left, text * 0.4, text * 1.1, INK);
    }

    let all =
        chart.panels.iter().flat_map(|p| &p.series).flat_map(|s| s.points.iter().chain(&s.keys));
    let (x_lo, x_hi) = padded_range(all.map(|p| p.0), 0.0);
    let numbers = digits::Numbers { font, size: text * 0.9 };
    let mut layout = ChartLayout::default();
    let mut markers = Vec::new();
    for (pi, panel) in chart.panels.iter().enumerate() {
        let y0 = top + pi as f32 * (panel_h + panel_gap);
        let values = panel.series.iter().flat_map(|s| s.points.iter().chain(&s.keys)).map(|p| p.1);
        let (y_lo, y_hi) = padded_range(values, 0.06);
        let px = |x: f64| left + ((x - x_lo) / (x_hi - x_lo)) as f32 * (w - left - right);
        let py = |y: f64| y0 + panel_h - ((y - y_lo) / (y_hi - y_lo)) as f32 * panel_h;
        for tick in ticks(y_lo, y_hi) {
            let y = py(tick);
            canvas.line((left, y), (w - right, y), 1.0, GRID, &[]);
            let label = tick_label(tick, y_hi - y_lo);
            let x = left - numbers.width(&label) - text * 0.4;
            numbers.draw(&mut canvas, &label, x, y, INK);
            layout.ticks.push(TickLabel { text: label, x, centre_y: y, size: numbers.size });
        }
        for tick in ticks(x_lo, x_hi) {
            let x = px(tick);
            canvas.line((x, y0), (x, y0 + panel_h), 1.0, GRID, &[]);
            if pi + 1 == chart.panels.len() {
                let label = tick_label(tick, x_hi - x_lo);
                let (x, y) = (x - numbers.width(&label) / 2.0, y0 + panel_h + text * 0.9);
                numbers.draw(&mut canvas, &label, x, y, INK);
                layout.ticks.push(TickLabel { text: label, x, centre_y: y, size: numbers.size });
            }
        }
        canvas.polyline(
            &[(left, y0), (left, y0 + panel_h), (w - right, y0 + panel_h)],
            1.0,
            INK,
            1.0,
            &[],
        );
        if let Some(font) = font {
            font.draw(&mut canvas, &panel.title, left + text * 0.3, y0 - text * 1.3, text, INK);
        }
        for (si, s) in panel.series.iter().enumerate() {
            let pts: Vec<(f32, f32)> = s.points.iter().map(|&(x, y)| (px(x), py(y))).collect();
            canvas.polyline(&pts, 1.6, s.colour, LINE_ALPHA, &s.dash);
            for &(x, y) in &s.keys {
                markers.push((Marker { panel: pi, series: si, x: px(x), y: py(y) }, s.colour));
            }
        }
    }
    // Markers last, so that no curve crosses one.
    for &(m, colour) in &markers {
        canvas.dot((m.x, m.y), MARKER_RADIUS, colour);
        layout.markers.push(m);
    }
    draw_legend(&mut canvas, chart, font, w - right, top, text);
    (canvas, layout)
}

fn draw_legend(
    canvas: &mut Canvas,
    chart: &Chart,
    font: Option<&Font>,
    right: f32,
    top: f32,
    text: f32,
) {
    let sample = text * 2.0;
    let widest = chart
        .legend
        .iter()
        .map(|(l, _, _)| font.map_or(0.0, |f| f.width(l, text)))
        .fold(0f32, f32::max);
    let x = right - widest - sample - text * 1.2;
    for (i, (label, colour, dash)) in chart.legend.iter().enumerate() {
        let y = top + text * 0.3 + i as f32 * text * 1.3;
        canvas.line((x, y + text * 0.55), (x + sample, y + text * 0.55), 2.0, *colour, dash);
        if let Some(font) = font {
            font.draw(canvas, label, x + sample + text * 0.4, y, text, INK);
        }
    }
}

/// The range of `values` widened by `pad` of its span a side; a single value gets ±1.
fn padded_range(values: impl Iterator<Item = f64>, pad: f64) -> (f64, f64) {
    let (lo, hi) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| (l.min(v), h.max(v)));
    if lo > hi {
        return (0.0, 1.0);
    }
    if hi - lo < 1e-9 {
        return (lo - 1.0, hi + 1.0);
    }
    (lo - (hi - lo) * pad, hi + (hi - lo) * pad)
}

/// Round tick values (steps of 1, 2 or 5 times a power of ten) inside [lo, hi], about five.
fn ticks(lo: f64, hi: f64) -> Vec<f64> {
    let rough = (hi - lo) / 5.0;
    let power = 10f64.powf(rough.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * power)
        .find(|s| *s >= rough)
        .unwrap_or(power * 10.0);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    (first..=last).take(50).map(|k| k as f64 * step).collect()
}

/// A tick value with as many decimals as the span needs.
fn tick_label(v: f64, span: f64) -> String {
    let decimals = if span >= 10.0 {
        0
    } else if span >= 1.0 {
        1
    } else {
        2
    };
    let s = format!("{v:.decimals$}");
    if s.trim_start_matches('-').chars().all(|c| c == '0' || c == '.') {
        "0".into()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_inside() {
        assert_eq!(ticks(0.0, 10.0), vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert!(ticks(-0.3, 0.7).iter().all(|t| (-0.3..=0.7).contains(t)));
        assert_eq!(tick_label(-0.0, 1.0), "0");
    }

    #[test]
    fn markers_are_drawn_in_the_series_colour_where_reported() {
        let series = Series {
            colour: Rgb(200, 0, 0),
            points: (0..=10).map(|i| (f64::from(i), f64::from(i * i))).collect(),
            keys: vec![(0.0, 0.0), (5.0, 25.0), (10.0, 100.0)],
            ..Series::default()
        };
        let chart = Chart {
            panels: vec![Panel { series: vec![series], ..Panel::default() }],
            ..Chart::default()
        };
        let (canvas, layout) = draw_chart(&chart, Size::new(300, 200).unwrap(), None);
        assert_eq!(layout.markers.len(), 3);
        for m in &layout.markers {
            assert_eq!(canvas.pixel(m.x as u32, m.y as u32), Some(Rgb(200, 0, 0)), "{m:?}");
        }
        assert!(
            layout.markers[0].x < layout.markers[1].x && layout.markers[1].y < layout.markers[0].y
        );
    }
}
