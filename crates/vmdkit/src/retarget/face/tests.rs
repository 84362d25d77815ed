use super::*;
use glam::DVec3;

#[test]
fn thinning_keeps_ends_and_corners_within_tolerance() {
    let name = KeyName::encode("あ").0;
    let weight = |i: u32| match i {
        0..10 => 0.0,
        10..20 => (i - 10) as f32 / 10.0,
        _ => 1.0,
    };
    let mut dense = Motion::new(Default::default());
    dense.morphs = (0..30).map(|frame| MorphKey { name, frame, weight: weight(frame) }).collect();
    let kept = thin::thin(dense);
    let frames: Vec<u32> = kept.morphs.iter().map(|k| k.frame).collect();
    assert_eq!(frames, [0, 10, 20, 29]);
    assert!(thin::thin(Motion::new(Default::default())).morphs.is_empty());
}

#[test]
fn blinks_need_the_upper_threshold_to_shut_and_the_lower_to_open() {
    let out = weights::hysteresis(&[0.1, 0.5, 0.59, 0.7, 0.5, 0.4, 0.3, 0.5]);
    assert_eq!(out, [0.1, 0.5, 0.59, 1.0, 1.0, 1.0, 0.3, 0.5]);
}

#[test]
fn map_files_name_roles_and_reject_mistakes() {
    let map = MorphMap::parse("# mine\nblink = 目閉じ\n\nA = あああ\n").unwrap();
    assert_eq!(map.get(MorphRole::Blink), Some("目閉じ"));
    assert_eq!(map.get(MorphRole::A), Some("あああ"));
    assert!(MorphMap::parse("wink = x").unwrap_err().contains("blink_left"));
    assert!(MorphMap::parse("a = x\na = y").unwrap_err().contains("twice"));
    assert!(MorphMap::parse("a x").is_err());
}

#[test]
fn standard_names_find_japanese_then_english_morphs() {
    let morphs = |names: &[(&str, &str)]| -> Vec<ModelMorph> {
        names
            .iter()
            .map(|(n, e)| ModelMorph { name: n.to_string(), name_en: e.to_string() })
            .collect()
    };
    let m = morphs(&[("ｳｨﾝｸ２右", ""), ("Mouth_A", "A"), ("にやり", "grin")]);
    assert_eq!(roles::find(MorphRole::BlinkRight, &m, None), Some(0));
    assert_eq!(roles::find(MorphRole::A, &m, None), Some(1));
    assert_eq!(roles::find(MorphRole::MouthSmile, &m, None), Some(2));
    assert_eq!(roles::find(MorphRole::Blink, &m, None), None);
    let map = MorphMap::parse("blink = Mouth_A").unwrap();
    assert_eq!(roles::find(MorphRole::Blink, &m, Some(&map)), Some(1));
}

#[test]
fn the_head_split_multiplies_back_to_the_turn() {
    let turn = DQuat::from_rotation_y(0.5) * DQuat::from_rotation_x(0.2);
    let (neck, head) = head::split(turn);
    assert!((neck * head).angle_between(turn) < 1e-6);
    let r = head::rotation(DVec3::new(-1.0, 0.0, 0.0), DVec3::X, DVec3::Y, DVec3::ZERO).unwrap();
    assert!(r.angle_between(DQuat::IDENTITY) < 1e-6);
}
