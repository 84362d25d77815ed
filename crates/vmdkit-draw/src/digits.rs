//! Numbers: the plots' tick labels and the frame counter, in the picture's font when there is
//! one (one font throughout the picture), else as seven-segment digits that need no font.

use crate::canvas::Canvas;
use crate::font::Font;
use crate::style::Rgb;

/// Numbers `size` pixels tall (the text size of the picture) in `font`, or seven-segment
/// digits without one.
pub struct Numbers<'a> {
    /// The picture's font.
    pub font: Option<&'a Font>,
    /// Text size in pixels.
    pub size: f32,
}

impl Numbers<'_> {
    /// The width of `text` drawn.
    pub fn width(&self, text: &str) -> f32 {
        match self.font {
            Some(font) => font.width(text, self.size),
            None => width(text, self.size * 0.8),
        }
    }

    /// Draws `text` from `x`, centred vertically on `centre_y`.
    pub fn draw(&self, canvas: &mut Canvas, text: &str, x: f32, centre_y: f32, colour: Rgb) {
        match self.font {
            Some(font) => {
                let top = centre_y - font.line_height(self.size) / 2.0;
                font.draw(canvas, text, x, top, self.size, colour);
            }
            None => draw(canvas, text, x, centre_y - self.size * 0.4, self.size * 0.8, colour),
        }
    }
}

/// Segments a–g (top, top right, bottom right, bottom, bottom left, top left, middle) lit for
/// each digit.
const SEGMENTS: [u8; 10] = [
    0b011_1111, 0b000_0110, 0b101_1011, 0b100_1111, 0b110_0110, 0b110_1101, 0b111_1101, 0b000_0111,
    0b111_1111, 0b110_1111,
];

/// Width of one character cell for digits `height` pixels tall.
pub fn advance(height: f32) -> f32 {
    height * 0.7
}

/// The width of `text` drawn [`draw`] at `height`.
pub fn width(text: &str, height: f32) -> f32 {
    text.chars().map(|c| if c == '.' { advance(height) * 0.5 } else { advance(height) }).sum()
}

/// Draws the digits, `-` and `.` of `text` (anything else is a space) with the top-left
/// corner at (x, y).
pub fn draw(canvas: &mut Canvas, text: &str, x: f32, y: f32, height: f32, colour: Rgb) {
    let t = (height / 9.0).max(1.0); // segment thickness
    let w = advance(height) - 2.0 * t;
    let half = height / 2.0;
    let mut left = x;
    for c in text.chars() {
        let lit = match c {
            '0'..='9' => SEGMENTS[c as usize - '0' as usize],
            '-' => 0b100_0000,
            '.' => {
                canvas.fill_rect(left, y + height - t, t, t, colour);
                left += advance(height) * 0.5;
                continue;
            }
            _ => 0,
        };
        let rects = [
            (left, y, w, t),
            (left + w - t, y, t, half),
            (left + w - t, y + half, t, half),
            (left, y + height - t, w, t),
            (left, y + half, t, half),
            (left, y, t, half),
            (left, y + half - t / 2.0, w, t),
        ];
        for (i, &(rx, ry, rw, rh)) in rects.iter().enumerate() {
            if lit & (1 << i) != 0 {
                canvas.fill_rect(rx, ry, rw, rh, colour);
            }
        }
        left += advance(height);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canvas::Size;
    use crate::style::BACKGROUND;

    fn ink(canvas: &Canvas) -> usize {
        (0..canvas.height())
            .flat_map(|y| (0..canvas.width()).map(move |x| (x, y)))
            .filter(|&(x, y)| canvas.pixel(x, y) != Some(BACKGROUND))
            .count()
    }

    #[test]
    fn eight_lights_more_than_one_and_space_nothing() {
        let mut counts = Vec::new();
        for text in ["8", "1", " "] {
            let mut c = Canvas::new(Size::new(20, 20).unwrap());
            draw(&mut c, text, 2.0, 2.0, 14.0, Rgb(0, 0, 0));
            counts.push(ink(&c));
        }
        assert!(counts[0] > 2 * counts[1], "{counts:?}");
        assert!(counts[1] > 0);
        assert_eq!(counts[2], 0);
    }
}
