//! `vmdkit reduce`: the fitted, fast and baseline methods each keep the motion within the bound
//! (checked by playing the output against the input), `--fast` and `--baseline` exclude each
//! other.

use crate::common;

use common::{assert_no_panic, example_bytes, vmdkit, write};
use vmdkit::edit::{measure, Tolerance};
use vmdkit::Motion;

#[test]
fn each_method_keeps_the_bound_and_fast_refuses_baseline() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "e.vmd", &example_bytes());
    let bake =
        vmdkit().current_dir(d).args(["bake", "e.vmd", "--fps", "300", "-o", "dense.vmd"]).output();
    assert!(bake.unwrap().status.success());
    let dense = Motion::read_file(d.join("dense.vmd")).unwrap();
    let mut kept = Vec::new();
    for (flags, out) in
        [(&[][..], "fitted.vmd"), (&["--fast"], "fast.vmd"), (&["--baseline"], "b.vmd")]
    {
        let output = vmdkit()
            .current_dir(d)
            .args(["reduce", "dense.vmd", out])
            .args(flags)
            .output()
            .unwrap();
        assert_no_panic(&output);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{flags:?}: {stderr}");
        assert!(stderr.contains("largest error at any frame"), "{stderr}");
        let reduced = Motion::read_file(d.join(out)).unwrap();
        let errors = measure(&dense, &reduced);
        assert!(errors.within(&Tolerance::default()), "{flags:?}: {errors:?}");
        assert!(reduced.bones.len() < dense.bones.len() / 4, "{flags:?}: {}", reduced.bones.len());
        kept.push(reduced.bones.len());
    }
    // The full fit needs no more keys than the cheap one.
    assert!(kept[0] <= kept[1], "{kept:?}");
    let args = ["reduce", "dense.vmd", "x.vmd", "--fast", "--baseline"];
    let output = vmdkit().current_dir(d).args(args).output().unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(!d.join("x.vmd").exists());
}
