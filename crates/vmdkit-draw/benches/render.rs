//! Drawing speed: one 512×512 PNG frame of the standard skeleton (pose, draw, encode), and a
//! whole 10-second animated GIF at 30 fps.
//!
//! ```text
//! cargo bench -p vmdkit-draw --bench render
//! ```

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use vmdkit::example::{exercise_motion, standard_model};
use vmdkit_draw::{FigureRenderer, GifWriter, Size, View};

fn png_frames(c: &mut Criterion) {
    let model = standard_model();
    let motion = exercise_motion(300);
    let mut r = FigureRenderer::new(&model, &motion, Size::new(512, 512).unwrap());
    let frames: Vec<f64> = (0..=300).map(f64::from).collect();
    let projection = r.fit(View::Front, &frames);
    let mut t = 0u32;
    let mut out = Vec::with_capacity(1 << 16);
    c.bench_function("png frame 512x512", |b| {
        b.iter(|| {
            t = (t + 1) % 300;
            out.clear();
            let label = t.to_string();
            r.draw(&projection, f64::from(t), Some(&label)).write_png(&mut out).unwrap();
            black_box(out.len())
        })
    });
}

fn gif_10_seconds(c: &mut Criterion) {
    let model = standard_model();
    let motion = exercise_motion(300);
    let mut group = c.benchmark_group("gif");
    group.sample_size(10);
    group.bench_function("10 s at 30 fps, 512x512", |b| {
        b.iter(|| {
            let mut r = FigureRenderer::new(&model, &motion, Size::new(512, 512).unwrap());
            let frames: Vec<f64> = (0..300).map(f64::from).collect();
            let projection = r.fit(View::Orbit(30.0), &frames);
            let mut gif = GifWriter::new(Vec::new(), 512, 512, 30.0).unwrap();
            for &t in &frames {
                gif.add(r.draw(&projection, t, Some(&t.to_string()))).unwrap();
            }
            black_box(gif.finish().unwrap().len())
        })
    });
    group.finish();
}

criterion_group!(benches, png_frames, gif_10_seconds);
criterion_main!(benches);
