//! Reads arbitrary bytes strictly and leniently, walks every record of both zero-copy views and
//! checks the round trips: a strict success writes back the input byte for byte, and a lenient
//! success writes bytes that read strictly to the same motion.

#![no_main]

#[path = "../../crates/vmdkit/tests/it/common/read_checks.rs"]
mod read_checks;

use libfuzzer_sys::fuzz_target;
use read_checks::{same, view_section_matches};
use vmdkit::{ErrorKind, Motion, MotionView, ReadOptions, Section};

/// Touches every record of a view; checks the view against the owned motion.
fn walk(view: &MotionView<'_>, motion: &Motion) {
    for section in Section::ALL {
        assert!(view_section_matches(view, motion, section), "{section:?} records differ");
        assert_eq!(view.count(section), motion.count(section));
    }
    for r in view.bones() {
        let _ = (r.name().bytes(), r.frame(), r.translation(), r.rotation(), r.interpolation());
    }
    for r in view.morphs() {
        let _ = (r.name().bytes(), r.frame(), r.weight());
    }
    for r in view.properties() {
        let _ = (r.frame(), r.visible_byte(), r.ik().count());
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
