//! `--size`: an image's WIDTHxHEIGHT (`render`, `plot`).

use vmdkit_draw::Size;

/// `--size`: WIDTHxHEIGHT, each 1 to 16384.
pub fn parse_size(text: &str) -> Result<Size, String> {
    let bad = || format!("{text:?} is not a size such as 512x512");
    let (w, h) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    let (w, h) = (w.trim().parse().map_err(|_| bad())?, h.trim().parse().map_err(|_| bad())?);
    Size::new(w, h).map_err(|e| e.to_string())
}
