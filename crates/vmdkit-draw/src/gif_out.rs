//! Animated GIF output with a fixed palette made of the colours the figure uses, each blended
//! towards the background: quantising a frame is one table look-up per pixel instead of a
//! NeuQuant pass (which costs tens of milliseconds a frame), and every frame shares one global
//! palette. Each frame after the first stores only the rectangle that changed.

use crate::canvas::Canvas;
use crate::error::DrawError;
use crate::style::{Rgb, BACKGROUND, PALETTE_BASES};
use std::borrow::Cow;
use std::io::Write;

/// Blend steps from each base colour to the background (the background itself is entry 0).
const RAMP: usize = 31;
/// Bits per channel of the look-up table from colour to palette entry.
const LUT_BITS: u32 = 5;

/// Writes frames of one size to an animated GIF that loops forever.
pub struct GifWriter<W: Write> {
    encoder: gif::Encoder<W>,
    width: u16,
    height: u16,
    palette: Vec<Rgb>,
    lut: Vec<u8>,
    previous: Option<Vec<u8>>,
    frames_written: u64,
    fps: f64,
}

impl<W: Write> GifWriter<W> {
    /// Starts a GIF of `width`×`height` frames shown at `fps` frames a second.
    pub fn new(out: W, width: u32, height: u32, fps: f64) -> Result<Self, DrawError> {
        let (Ok(w), Ok(h)) = (u16::try_from(width), u16::try_from(height)) else {
            return Err(DrawError::GifSize { width, height });
        };
        let palette = palette();
        let flat: Vec<u8> = palette.iter().flat_map(|c| [c.0, c.1, c.2]).collect();
        let mut encoder = gif::Encoder::new(out, w, h, &flat)?;
        encoder.set_repeat(gif::Repeat::Infinite)?;
        let lut = lookup_table(&palette);
        Ok(GifWriter {
            encoder,
            width: w,
            height: h,
            palette,
            lut,
            previous: None,
            frames_written: 0,
            fps,
        })
    }

    /// Appends one frame: the canvas must have the GIF's size.
    pub fn add(&mut self, canvas: &Canvas) -> Result<(), DrawError> {
        let (w, h) = (usize::from(self.width), usize::from(self.height));
        if canvas.width() as usize != w || canvas.height() as usize != h {
            return Err(DrawError::GifSize { width: canvas.width(), height: canvas.height() });
        }
        let shift = 8 - LUT_BITS;
        let indices: Vec<u8> = canvas
            .rgba()
            .chunks_exact(4)
            .map(|p| {
                let (r, g, b) = (
                    usize::from(p[0] >> shift),
                    usize::from(p[1] >> shift),
                    usize::from(p[2] >> shift),
                );
                self.lut[(r << (2 * LUT_BITS)) | (g << LUT_BITS) | b]
            })
            .collect();
        let (x0, y0, x1, y1) = match &self.previous {
            None => (0, 0, w, h),
            Some(prev) => changed_rect(prev, &indices, w, h).unwrap_or((0, 0, 1, 1)),
        };
        let mut buffer = Vec::with_capacity((x1 - x0) * (y1 - y0));
        for y in y0..y1 {
            buffer.extend_from_slice(&indices[y * w + x0..y * w + x1]);
        }
        // Delays are whole hundredths of a second: each frame ends at the hundredth nearest its
        // true end, so that rounding does not pile up over a long animation.
        let end = |n: u64| (n as f64 * 100.0 / self.fps).round() as u64;
        let delay = end(self.frames_written + 1) - end(self.frames_written);
        let frame = gif::Frame {
            left: x0 as u16,
            top: y0 as u16,
            width: (x1 - x0) as u16,
            height: (y1 - y0) as u16,
            delay: delay.clamp(1, u64::from(u16::MAX)) as u16,
            buffer: Cow::Owned(buffer),
            ..gif::Frame::default()
        };
        self.encoder.write_frame(&frame)?;
        self.previous = Some(indices);
        self.frames_written += 1;
        Ok(())
    }

    /// The palette every frame uses.
    pub fn palette(&self) -> &[Rgb] {
        &self.palette
    }

    /// Finishes the file (writes its trailer) and returns the writer.
    pub fn finish(self) -> Result<W, DrawError> {
        Ok(self.encoder.into_inner()?)
    }
}

/// The background, then for each base colour a ramp from near the background to the colour.
fn palette() -> Vec<Rgb> {
    let mut colours = vec![BACKGROUND];
    let mix =
        |a: u8, b: u8, t: f32| (f32::from(a) + (f32::from(b) - f32::from(a)) * t).round() as u8;
    for base in PALETTE_BASES {
        for step in 1..=RAMP {
            let t = step as f32 / RAMP as f32;
            colours.push(Rgb(
                mix(BACKGROUND.0, base.0, t),
                mix(BACKGROUND.1, base.1, t),
                mix(BACKGROUND.2, base.2, t),
            ));
        }
    }
    colours.truncate(256);
    colours
}

/// For every colour at LUT_BITS a channel, the nearest palette entry.
fn lookup_table(palette: &[Rgb]) -> Vec<u8> {
    let levels = 1usize << LUT_BITS;
    let centre = |v: usize| ((v << (8 - LUT_BITS)) + (1 << (7 - LUT_BITS))) as i32;
    let mut lut = Vec::with_capacity(levels * levels * levels);
    for r in 0..levels {
        for g in 0..levels {
            for b in 0..levels {
                let (r, g, b) = (centre(r), centre(g), centre(b));
                let nearest = palette
                    .iter()
                    .enumerate()
                    .min_by_key(|(_, c)| {
                        let d = [r - i32::from(c.0), g - i32::from(c.1), b - i32::from(c.2)];
                        d[0] * d[0] + d[1] * d[1] + d[2] * d[2]
                    })
                    .map_or(0, |(i, _)| i);
                lut.push(nearest as u8);
            }
        }
    }
    lut
}

/// The bounding rectangle (x0, y0, x1, y1), exclusive ends, of the pixels that differ.
fn changed_rect(a: &[u8], b: &[u8], w: usize, h: usize) -> Option<(usize, usize, usize, usize)> {
    let rows: Vec<usize> =
        (0..h).filter(|&y| a[y * w..(y + 1) * w] != b[y * w..(y + 1) * w]).collect();
    let (&y0, &y1) = (rows.first()?, rows.last()?);
    let (mut x0, mut x1) = (w, 0);
    for &y in &rows {
        let (ra, rb) = (&a[y * w..(y + 1) * w], &b[y * w..(y + 1) * w]);
        if let Some(first) = (0..w).find(|&x| ra[x] != rb[x]) {
            x0 = x0.min(first);
            x1 = x1.max((0..w).rfind(|&x| ra[x] != rb[x]).unwrap_or(first) + 1);
        }
    }
    Some((x0, y0, x1, y1 + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_palette_holds_every_drawn_colour_exactly() {
        let p = palette();
        assert!(p.len() <= 256);
        for c in PALETTE_BASES.iter().chain([&BACKGROUND]) {
            assert!(p.contains(c), "{c:?}");
        }
    }

    #[test]
    fn changed_rect_bounds_the_differences() {
        let a = vec![0u8; 12];
        let mut b = a.clone();
        b[5] = 1; // (1, 1) in a 4×3 image
        b[10] = 1; // (2, 2)
        assert_eq!(changed_rect(&a, &b, 4, 3), Some((1, 1, 3, 3)));
        assert_eq!(changed_rect(&a, &a, 4, 3), None);
    }
}
