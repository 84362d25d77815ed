//! Reads arbitrary bytes strictly and leniently, walks every record of both zero-copy views and
//! checks the round trips: a strict success writes back the input byte for byte, and a lenient
//! success writes bytes that read strictly to the same motion.

#![no_main]

use libfuzzer_sys::fuzz_target;
use vmdkit::Section;
use vmdkit::{ErrorKind, Motion, MotionView, ReadOptions};

/// Field-by-field equality with floats compared by their bits (NaN keys included).
fn same(a: &Motion, b: &Motion) -> bool {
    a.header == b.header
        && a.sections_present == b.sections_present
        && a.trailing == b.trailing
        && a.bones.iter().map(|k| k.encode()).eq(b.bones.iter().map(|k| k.encode()))
        && a.morphs.iter().map(|k| k.encode()).eq(b.morphs.iter().map(|k| k.encode()))
        && a.cameras.iter().map(|k| k.encode()).eq(b.cameras.iter().map(|k| k.encode()))
        && a.lights.iter().map(|k| k.encode()).eq(b.lights.iter().map(|k| k.encode()))
        && a.shadows.iter().map(|k| k.encode()).eq(b.shadows.iter().map(|k| k.encode()))
        && a.properties == b.properties
}

/// Touches every record of a view; checks the view against the owned motion.
fn walk(view: &MotionView<'_>, motion: &Motion) {
    assert!(view.bones().map(|r| r.to_key().encode()).eq(motion.bones.iter().map(|k| k.encode())));
    for r in view.bones() {
        let _ = (r.name().bytes(), r.frame(), r.translation(), r.rotation(), r.interpolation());
    }
    assert!(view
        .morphs()
        .map(|r| r.to_key().encode())
        .eq(motion.morphs.iter().map(|k| k.encode())));
    for r in view.morphs() {
        let _ = (r.name().bytes(), r.frame(), r.weight());
    }
    assert!(view
        .cameras()
        .map(|r| r.to_key().encode())
        .eq(motion.cameras.iter().map(|k| k.encode())));
    assert!(view
        .lights()
        .map(|r| r.to_key().encode())
        .eq(motion.lights.iter().map(|k| k.encode())));
    assert!(view
        .shadows()
        .map(|r| r.to_key().encode())
        .eq(motion.shadows.iter().map(|k| k.encode())));
    assert!(view.properties().map(|r| r.to_key()).eq(motion.properties.iter().cloned()));
    for r in view.properties() {
        let _ = (r.frame(), r.visible_byte(), r.ik().count());
    }
    for section in Section::ALL {
        assert_eq!(view.count(section), motion.count(section));
    }
    assert_eq!(view.header(), motion.header);
    assert_eq!(view.trailing(), &motion.trailing[..]);
    for repair in view.repairs() {
        let _ = repair.to_string();
    }
}

fuzz_target!(|data: &[u8]| {
    let strict = Motion::parse(data);
    match &strict {
        Ok(motion) => {
            assert!(motion.to_bytes() == data, "strict read does not round-trip");
            assert_eq!(motion.encoded_len(), data.len());
            walk(&MotionView::new(data).expect("view fails where parse succeeds"), motion);
        }
        Err(err) => {
            assert!(err.offset <= data.len() as u64);
            assert!(err.to_string().contains(&format!("byte offset {}", err.offset)));
            assert_eq!(MotionView::new(data).err().as_ref(), Some(err));
        }
    }
    match Motion::parse_with(data, ReadOptions::LENIENT) {
        Ok(parsed) => {
            let bytes = parsed.motion.to_bytes();
            let again = Motion::parse(&bytes).expect("lenient result does not read strictly");
            assert!(same(&again, &parsed.motion), "lenient result reads back differently");
            let view = MotionView::with_options(data, ReadOptions::LENIENT).unwrap();
            walk(&view, &parsed.motion);
            if let Ok(motion) = &strict {
                assert!(parsed.repairs.is_empty());
                assert!(same(motion, &parsed.motion));
            }
        }
        Err(err) => {
            assert!(strict.is_err(), "lenient fails where strict succeeds");
            assert!(
                matches!(err.kind, ErrorKind::NotVmd { .. } | ErrorKind::TruncatedHeader { .. }),
                "lenient reading failed past the header: {err}"
            );
        }
    }
});
