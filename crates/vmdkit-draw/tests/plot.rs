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
