//! Charts of real tracks: one marker per key and channel, placed at the key's value.

use vmdkit::eval::MotionSampler;
use vmdkit::example::example_motion;
use vmdkit_draw::{bone_panels, camera_panels, draw_chart, SampleRange, Size};

#[test]
fn a_bone_chart_marks_every_key_of_every_channel_at_its_value() {
    let motion = example_motion();
    let sampler = MotionSampler::new(&motion);
    let arm = sampler.bone_track_named("右腕", motion.detect_encoding()).unwrap();
    let labels = ["a".to_string(), "b".to_string()];
    let chart = bone_panels("右腕", &labels, &[arm, arm], SampleRange { from: 0.0, to: 60.0 });
    assert_eq!(chart.panels.len(), 2);
    let (canvas, layout) = draw_chart(&chart, Size::new(600, 400).unwrap(), None);
    // 5 keys × 3 channels × 2 panels × 2 motions.
    assert_eq!(layout.markers.len(), 60);
    // Rotation Z (panel 1, series 2) peaks at the keys at frames 15 and 45 (35°): the highest
    // markers of that series, at the same height, with their curve through them.
    let z: Vec<_> = layout.markers.iter().filter(|m| m.panel == 1 && m.series == 2).collect();
    let top = z.iter().map(|m| m.y).fold(f32::INFINITY, f32::min);
    let peaks: Vec<_> = z.iter().filter(|m| (m.y - top).abs() < 0.5).collect();
    assert_eq!(peaks.len(), 2);
    for m in &layout.markers {
        assert!(
            m.x >= 0.0
                && m.y >= 0.0
                && (m.x as u32) < canvas.width()
                && (m.y as u32) < canvas.height()
        );
    }
    // A range that leaves out keys leaves out their markers.
    let part = bone_panels("右腕", &labels[..1], &[arm], SampleRange { from: 10.0, to: 40.0 });
    assert_eq!(draw_chart(&part, Size::new(300, 200).unwrap(), None).1.markers.len(), 2 * 3 * 2);
}

#[test]
fn a_camera_chart_has_a_panel_per_kind_of_value() {
    let motion = example_motion();
    let sampler = MotionSampler::new(&motion);
    let camera = sampler.camera_track().unwrap();
    let chart = camera_panels(&["cam".into()], &[camera], SampleRange { from: 0.0, to: 60.0 });
    let channels: Vec<usize> = chart.panels.iter().map(|p| p.series.len()).collect();
    assert_eq!(channels, [3, 1, 3, 1]);
    assert_eq!(draw_chart(&chart, Size::new(400, 400).unwrap(), None).1.markers.len(), 2 * 8);
}

#[test]
fn tick_numbers_are_drawn_in_the_charts_font() {
    // Issue 27: the tick digits were seven-segment blocks beside text in the system font.
    let Some(font) = vmdkit_draw::Font::find_system() else {
        eprintln!("skipped: no system font (tick numbers are seven-segment digits then)");
        return;
    };
    let motion = example_motion();
    let sampler = MotionSampler::new(&motion);
    let arm = sampler.bone_track_named("右腕", motion.detect_encoding()).unwrap();
    let chart = bone_panels("右腕", &["a".into()], &[arm], SampleRange { from: 0.0, to: 60.0 });
    let size = Size::new(600, 400).unwrap();
    let (canvas, layout) = draw_chart(&chart, size, Some(&font));
    assert!(layout.ticks.len() >= 6, "{:?}", layout.ticks);
    let ink = vmdkit_draw::Rgb(40, 42, 48);
    for tick in &layout.ticks {
        // The same text in the font, alone on a blank canvas, gives the same pixels.
        let mut alone = vmdkit_draw::Canvas::new(size);
        let top = tick.centre_y - font.line_height(tick.size) / 2.0;
        font.draw(&mut alone, &tick.text, tick.x, top, tick.size, ink);
        let (x0, y0) = (tick.x.floor().max(0.0) as u32, top.floor().max(0.0) as u32);
        let (w, h) =
            (font.width(&tick.text, tick.size).ceil() as u32, font.line_height(tick.size) as u32);
        let mut differ = 0;
        for y in y0..(y0 + h).min(canvas.height()) {
            for x in x0..(x0 + w).min(canvas.width()) {
                differ += usize::from(canvas.pixel(x, y) != alone.pixel(x, y));
            }
        }
        assert_eq!(differ, 0, "tick {:?} is not drawn in {}", tick.text, font.path().display());
    }
}
