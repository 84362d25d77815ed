//! `vmdkit view`: one self-contained HTML file that plays the stick figure in a browser, with
//! the joint positions of every frame baked in (quantised to 16 bits, delta-coded along time,
//! deflated, base64) and a small hand-written canvas player. It fetches nothing.

use crate::bones::BoneStyle;
use crate::error::DrawError;
use crate::figure::{FigureRenderer, Side};
use base64::Engine as _;
use flate2::write::ZlibEncoder;
use glam::Vec3;
use serde_json::json;
use std::io::Write;
use vmdkit::eval::MotionSampler;

const PAGE: &str = include_str!("viewer.html");
const SCRIPT: &str = include_str!("viewer.js");
/// Quantisation levels either side of the centre: a 40-unit dance gets steps of 0.02 units
/// (under 2 mm), finer than a pixel of the player, and wrapping second differences of
/// levels fit an i16.
const LEVELS: f32 = 1023.0;

/// Writes the player of `renderer`'s figure at motion times `times` (`fps` of them a second),
/// through `camera`'s MMD camera when given (a toggle in the page), the joint `select`ed first.
/// The player draws the bones the renderer draws ([`FigureRenderer::set_bones`]); every bone
/// is baked, so that hovering and the data stay in the model's order.
pub fn write_viewer(
    renderer: &mut FigureRenderer,
    times: &[f64],
    fps: f64,
    title: &str,
    camera: Option<&MotionSampler>,
    select: Option<&str>,
    out: &mut dyn Write,
) -> Result<(), DrawError> {
    let bones = renderer.skeleton().bone_count();
    let mut all: Vec<Vec3> = Vec::with_capacity(times.len() * bones);
    for &t in times {
        all.extend(renderer.positions_at(t).iter().map(|p| {
            if p.is_finite() {
                *p
            } else {
                Vec3::ZERO
            }
        }));
    }
    let (lo, hi) = all
        .iter()
        .fold((Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)), |(l, h), p| {
            (l.min(*p), h.max(*p))
        });
    let (lo, hi) = if lo.x > hi.x { (Vec3::ZERO, Vec3::ZERO) } else { (lo, hi) };
    let mid = (lo + hi) / 2.0;
    let step = ((hi - lo).max_element() / 2.0 / LEVELS).max(1e-6);
    // [bone][axis][frame] second differences (motion is smooth, so they are mostly near zero
    // and deflate well), in wrapping 16-bit arithmetic: the player sums them back the same way,
    // and since every level fits an i16 the wrapped sums are exact.
    let frames = times.len();
    let mut deltas: Vec<u8> = Vec::with_capacity(frames * bones * 6);
    for b in 0..bones {
        for a in 0..3 {
            let (mut q1, mut q2) = (0i16, 0i16); // the two previous levels
            for f in 0..frames {
                let level = ((all[f * bones + b][a] - mid[a]) / step).round();
                let q = level.clamp(-LEVELS, LEVELS) as i16;
                let d2 = q.wrapping_sub(q1.wrapping_mul(2)).wrapping_add(q2);
                deltas.extend_from_slice(&d2.to_le_bytes());
                (q2, q1) = (q1, q);
            }
        }
    }
    let mut z = ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    z.write_all(&deltas).and_then(|()| z.flush())?;
    let packed = z.finish()?;

    let skeleton = renderer.skeleton();
    let side = |b: usize| match renderer.side(b) {
        Side::Left => "L",
        Side::Right => "R",
        _ => "C",
    };
    let cameras = camera.map(|sampler| {
        times
            .iter()
            .map(|&t| {
                let v = sampler.sample_camera(t).map(|c| c.view());
                v.map_or(Vec::new(), |v| {
                    let mut row: Vec<f32> = Vec::with_capacity(13);
                    for d in [v.eye, v.right, v.up, v.forward] {
                        row.extend([d.x, d.y, d.z]);
                    }
                    row.push(v.fov_y_degrees);
                    row.into_iter().map(|x| (x * 1e4).round() / 1e4).collect()
                })
            })
            .collect::<Vec<_>>()
    });
    let data = json!({
        "bones": skeleton.bone_names(),
        "parents": (0..bones).map(|b| skeleton.parent(b).map_or(-1, |p| p as i64)).collect::<Vec<_>>(),
        "sides": (0..bones).map(side).collect::<Vec<_>>(),
        "ik": (0..bones).map(|b| u8::from(renderer.is_ik_goal(b))).collect::<Vec<_>>(),
        "floor": (0..bones).map(|b| u8::from(renderer.is_floor_root(b))).collect::<Vec<_>>(),
        "style": (0..bones).map(|b| match renderer.bone_style(b) {
            BoneStyle::Hidden => 0,
            BoneStyle::Body => 1,
            BoneStyle::Physics => 2,
        }).collect::<Vec<_>>(),
        "lines": (0..bones).map(|b| renderer.drawn_parent(b).map_or(-1, |p| p as i64)).collect::<Vec<_>>(),
        "frames": frames,
        "fps": fps,
        "origin": [mid.x, mid.y, mid.z],
        "step": step,
        "centre": [mid.x, mid.y, mid.z],
        "radius": ((hi - lo).max_element() / 2.0).max(1.0),
        "grid": renderer.grid_half(),
        "select": select.unwrap_or(""),
        "camera": cameras,
        "positions": base64::engine::general_purpose::STANDARD.encode(&packed),
    });
    // `</` cannot appear inside a script element.
    let data = data.to_string().replace("</", "<\\/");
    let toggle = if camera.is_some() {
        r#"<label><input id="usecam" type="checkbox" checked> MMD camera</label>"#
    } else {
        ""
    };
    let page = PAGE
        .replace("__TITLE__", &html_escape(title))
        .replace("__CAMERA__", toggle)
        .replace("__SCRIPT__", SCRIPT)
        .replace("__DATA__", &data);
    out.write_all(page.as_bytes())?;
    Ok(())
}

fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canvas::Size;
    use std::io::Read;
    use vmdkit::example::{exercise_motion, standard_model};

    /// The page's data block, decoded the way viewer.js decodes it.
    fn decode(html: &str) -> (serde_json::Value, Vec<f32>) {
        let start = html.find("id=\"vmdkit-data\">").unwrap() + "id=\"vmdkit-data\">".len();
        let end = start + html[start..].find("</script>").unwrap();
        let data: serde_json::Value =
            serde_json::from_str(&html[start..end].replace("<\\/", "</")).unwrap();
        let packed = base64::engine::general_purpose::STANDARD
            .decode(data["positions"].as_str().unwrap())
            .unwrap();
        let mut raw = Vec::new();
        flate2::read::ZlibDecoder::new(&packed[..]).read_to_end(&mut raw).unwrap();
        let d2: Vec<i32> =
            raw.chunks(2).map(|b| i32::from(i16::from_le_bytes([b[0], b[1]]))).collect();
        let (frames, bones) =
            (data["frames"].as_u64().unwrap() as usize, data["bones"].as_array().unwrap().len());
        let step = data["step"].as_f64().unwrap() as f32;
        let mut positions = vec![0f32; frames * bones * 3];
        for b in 0..bones {
            for a in 0..3 {
                let (mut q1, mut q2) = (0i32, 0i32);
                for f in 0..frames {
                    // JavaScript's ((d + 2·q1 − q2) << 16) >> 16.
                    let q = i32::from((d2[(b * 3 + a) * frames + f] + 2 * q1 - q2) as i16);
                    positions[(f * bones + b) * 3 + a] =
                        data["origin"][a].as_f64().unwrap() as f32 + q as f32 * step;
                    (q2, q1) = (q1, q);
                }
            }
        }
        (data, positions)
    }

    #[test]
    fn baked_positions_decode_within_half_a_step() {
        let (model, motion) = (standard_model(), exercise_motion(240));
        let mut r = FigureRenderer::new(&model, &motion, Size::new(1, 1).unwrap());
        let times: Vec<f64> = (0..=240).map(f64::from).collect();
        let mut html = Vec::new();
        write_viewer(&mut r, &times, 30.0, "t</script>", None, Some("頭"), &mut html).unwrap();
        let html = String::from_utf8(html).unwrap();
        assert!(html.contains("t&lt;/script&gt;"), "the title is escaped");
        let (data, decoded) = decode(&html);
        let step = data["step"].as_f64().unwrap() as f32;
        let bones = r.skeleton().bone_count();
        let mut worst = 0f32;
        for (f, &t) in times.iter().enumerate() {
            for (b, p) in r.positions_at(t).to_vec().iter().enumerate() {
                for a in 0..3 {
                    worst = worst.max((decoded[(f * bones + b) * 3 + a] - p[a]).abs());
                }
            }
        }
        assert!(worst <= step * 0.5 + 1e-4, "worst {worst}, step {step}");
        assert!(step < 0.05, "step {step}");
    }
}
