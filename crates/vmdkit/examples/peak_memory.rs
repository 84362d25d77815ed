//! Peak memory (VmHWM) of reading a motion file, one reader per process.
//!
//! ```text
//! cargo run --release --example peak_memory -- generate /tmp/vmdkit-200MB.vmd
//! cargo run --release --example peak_memory -- vmdkit /tmp/vmdkit-200MB.vmd
//! cargo run --release --example peak_memory -- baseline /tmp/vmdkit-200MB.vmd
//! ```
//!
//! `generate` writes the ~200 MB motion the benchmarks use (a corpus dance's keys repeated with
//! shifted frames) to the given path, which must be outside the repository (e.g. under /tmp).
//! Each other mode reads the file once and prints one line: the mode, the file size, the
//! process's VmHWM before and after, and the peak as a multiple of the file size. Run each
//! mode in its own process: VmHWM is the process's high-water mark and never goes down.
//!
//! Modes: `vmdkit` = `Motion::read_file`; `vmdkit_parse` = `std::fs::read` + `Motion::parse`;
//! `mmd-anim-format` = `std::fs::read` + `parse_vmd_animation`; `baseline` = `std::fs::read`.

#[path = "../benches/common/mod.rs"]
mod common;

use std::path::Path;

/// A field of /proc/self/status in bytes (Linux reports kB).
fn status_bytes(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let line = status.lines().find(|l| l.starts_with(field)).expect("field in /proc/self/status");
    let kb: u64 = line[field.len() + 1..].trim().trim_end_matches("kB").trim().parse().unwrap();
    kb * 1024
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [mode, path] = &args[..] else {
        eprintln!("usage: peak_memory generate|vmdkit|vmdkit_parse|mmd-anim-format|baseline PATH");
        std::process::exit(2);
    };
    let path = Path::new(path);
    if mode == "generate" {
        let Some(bytes) = common::large_motion() else { std::process::exit(1) };
        std::fs::write(path, &bytes).expect("write the motion");
        println!("wrote {} ({} bytes)", path.display(), bytes.len());
        return;
    }

    let size = std::fs::metadata(path).expect("the file").len();
    let before = status_bytes("VmHWM:");
    let keys = match mode.as_str() {
        "vmdkit" => {
            let m = vmdkit::Motion::read_file(path).expect("read");
            m.bones.len() + m.morphs.len()
        }
        "vmdkit_parse" => {
            let bytes = std::fs::read(path).expect("read");
            let m = vmdkit::Motion::parse(&bytes).expect("parse");
            m.bones.len() + m.morphs.len()
        }
        "mmd-anim-format" => {
            let bytes = std::fs::read(path).expect("read");
            let a = mmd_anim_format::parse_vmd_animation(&bytes).expect("parse");
            a.bone_frames.len() + a.morph_frames.len()
        }
        "baseline" => std::fs::read(path).expect("read").len(),
        other => panic!("unknown mode {other}"),
    };
    let peak = status_bytes("VmHWM:");
    println!(
        "mode={mode} file_bytes={size} hwm_before={before} hwm_after={peak} peak_over_file={:.3} keys={keys}",
        peak as f64 / size as f64
    );
}
