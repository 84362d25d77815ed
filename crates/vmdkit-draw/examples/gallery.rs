//! Writes the README's pictures (docs/images/) from the built-in example motions and the
//! built-in standard model, so that nothing from anyone's files is committed:
//!
//! ```text
//! cargo run -p vmdkit-draw --example gallery -- docs/images
//! ```

use std::fs::File;
use std::io::BufWriter;
use std::path::PathBuf;
use vmdkit::eval::MotionSampler;
use vmdkit::example::{example_motion, exercise_motion, standard_model};
use vmdkit_draw::{
    bone_panels, draw_chart, draw_key_curves, FigureRenderer, Font, GifWriter, KeyCurves,
    SampleRange, Size, View,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "docs/images".into()));
    std::fs::create_dir_all(&dir)?;
    let font = Font::find_system();
    let model = standard_model();
    let exercise = exercise_motion(240);
    let all: Vec<f64> = (0..=240).map(f64::from).collect();

    for (name, view, frame) in [("side", View::Side, 40.0), ("orbit", View::Orbit(35.0), 170.0)] {
        let mut r = FigureRenderer::new(&model, &exercise, Size::new(320, 320)?);
        let p = r.fit(view, &[frame]);
        let canvas = r.draw(&p, frame, Some(&format!("{frame}")));
        canvas.write_png(&mut BufWriter::new(File::create(
            dir.join(format!("figure-{name}.png")),
        )?))?;
    }

    // The front view of the example wave: the right arm up, the model's right on the image's left.
    let wave = example_motion();
    let mut r = FigureRenderer::new(&model, &wave, Size::new(320, 320)?);
    let p = r.fit(View::Front, &[15.0]);
    let canvas = r.draw(&p, 15.0, Some("15"));
    canvas.write_png(&mut BufWriter::new(File::create(dir.join("figure-front.png"))?))?;

    let size = Size::new(240, 240)?;
    let mut r = FigureRenderer::new(&model, &exercise, size);
    r.set_font(Font::find_system());
    let p = r.fit(View::Orbit(30.0), &all);
    let mut gif =
        GifWriter::new(BufWriter::new(File::create(dir.join("exercise.gif"))?), 240, 240, 15.0)?;
    for f in (0..=240).step_by(2) {
        gif.add(r.draw(&p, f64::from(f), Some(&f.to_string())))?;
    }
    gif.finish()?;

    let sampler = MotionSampler::new(&wave);
    let encoding = wave.detect_encoding();
    let arm = sampler.bone_track_named("右腕", encoding).ok_or("no 右腕 track")?;
    let chart =
        bone_panels("右腕", &["example".into()], &[arm], SampleRange { from: 0.0, to: 60.0 });
    let (canvas, _) = draw_chart(&chart, Size::new(640, 400)?, font.as_ref());
    canvas.write_png(&mut BufWriter::new(File::create(dir.join("plot-bone.png"))?))?;

    let names = ["X", "Y", "Z", "rotation"];
    let curves = KeyCurves {
        label: "example".into(),
        curves: names.iter().map(|n| n.to_string()).zip(arm.curves(1)).collect(),
    };
    let canvas =
        draw_key_curves("右腕, key at frame 15", &[curves], Size::new(400, 300)?, font.as_ref());
    canvas.write_png(&mut BufWriter::new(File::create(dir.join("plot-key.png"))?))?;
    Ok(())
}
