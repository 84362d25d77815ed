//! Colours shared by the figure, the plots and the GIF palette.

/// An opaque sRGB colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// As a tiny-skia colour with alpha `a` (0–1).
    pub(crate) fn with_alpha(self, a: f32) -> tiny_skia::Color {
        tiny_skia::Color::from_rgba8(self.0, self.1, self.2, (a.clamp(0.0, 1.0) * 255.0) as u8)
    }

    /// This colour moved `amount` (0–1) of the way to `other`.
    pub(crate) fn towards(self, other: Rgb, amount: f32) -> Rgb {
        let mix =
            |a: u8, b: u8| (f32::from(a) + (f32::from(b) - f32::from(a)) * amount).round() as u8;
        Rgb(mix(self.0, other.0), mix(self.1, other.1), mix(self.2, other.2))
    }

    /// As an opaque tiny-skia colour.
    pub(crate) fn color(self) -> tiny_skia::Color {
        self.with_alpha(1.0)
    }
}

/// Image background.
pub const BACKGROUND: Rgb = Rgb(250, 250, 247);
/// Floor grid and plot grid lines.
pub const GRID: Rgb = Rgb(205, 207, 212);
/// Text, axes and the frame counter.
pub const INK: Rgb = Rgb(40, 42, 48);
/// Bones of the model's left side (左, `_L`).
pub const LEFT: Rgb = Rgb(31, 119, 180);
/// Bones of the model's right side (右, `_R`).
pub const RIGHT: Rgb = Rgb(214, 39, 40);
/// Bones on the centre line.
pub const CENTRE: Rgb = Rgb(70, 72, 80);
/// IK bones (the goals the solver pulls towards).
pub const IK: Rgb = Rgb(240, 150, 0);
/// Curves of X, Y, Z and the fourth channel (rotation curve, distance...), in plots.
pub const CHANNELS: [Rgb; 4] = [RIGHT, Rgb(44, 160, 44), LEFT, Rgb(148, 103, 189)];

/// Every colour drawn, for the GIF palette: each is blended towards the background in ramps.
pub(crate) const PALETTE_BASES: [Rgb; 8] =
    [GRID, INK, LEFT, RIGHT, CENTRE, IK, CHANNELS[1], CHANNELS[3]];
