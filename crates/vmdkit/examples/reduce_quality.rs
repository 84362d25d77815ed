//! Key reduction quality on the shared corpus: keys kept and the largest errors of vmdkit's
//! fitted reduction beside errno-mmd/smoothvmd's recursive split (the baseline), in one run,
//! then vmdkit's fast method (`ReduceMethod::Fast`) beside the fitted one.
//!
//! ```text
//! cargo run --release -p vmdkit --example reduce_quality [-- --position 0.05 --angle 0.5]
//! ```
//!
//! Without flags it prints two tables: the default tolerance and a tight one (0.01 units,
//! 0.1°, 0.002 of a morph).
//!
//! Inputs: the pose-estimation motions (wayne931121/3d-pose-baseline-vmd `test_json_3d_*`,
//! miu200521358/mmd-auto-trace-4) as they are and baked to one key per frame at 30 fps (as raw
//! capture output is), and dances baked the same way (`bake::bake`). Errors are measured by playing input and output with the library's
//! sampler at every frame, not taken from the reducers. Prints a Markdown table.

use std::time::Instant;
use vmdkit::bake::bake;
use vmdkit::edit::{measure, reduce, ReduceMethod, ReduceOptions, Tolerance};
use vmdkit::Motion;

fn main() {
    let mut tolerance = Tolerance::default();
    let mut given = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value =
            || args.next().and_then(|v| v.parse::<f64>().ok()).expect("a number after the flag");
        given = true;
        match arg.as_str() {
            "--position" => tolerance.position = value(),
            "--angle" => tolerance.angle_degrees = value(),
            "--morph" => tolerance.morph = value(),
            other => panic!("unknown argument {other}"),
        }
    }
    // Without flags: the default tolerance and a tight one.
    let tight = Tolerance { position: 0.01, angle_degrees: 0.1, morph: 0.002 };
    let settings = if given { vec![tolerance] } else { vec![tolerance, tight] };
    let Some(manifest) = test_corpus::corpus_or_skip("reduce_quality") else {
        return;
    };
    let mut inputs: Vec<(String, Motion)> = Vec::new();
    for entry in manifest.of_kind("vmd") {
        let file = entry.local_path.rsplit('/').next().unwrap_or(&entry.local_path);
        // Long capture file names shortened for the table.
        let chars: Vec<char> = file.chars().collect();
        let name = if chars.len() > 44 {
            format!(
                "{}…{}",
                chars[..24].iter().collect::<String>(),
                chars[chars.len() - 14..].iter().collect::<String>()
            )
        } else {
            file.to_string()
        };
        let pose =
            entry.local_path.contains("3d-pose-baseline-vmd") && file.starts_with("test_json_3d_");
        let trace = entry.local_path.contains("mmd-auto-trace");
        let dance =
            file == "vmd__wavefile_v2.vmd" || file == "tests__resources__サンプルモーション2.vmd";
        if !(pose || trace || dance) || !entry.parse_ok() {
            continue;
        }
        let motion = Motion::parse(&entry.bytes()).expect("parse_ok files parse");
        // Pose estimates also baked: one key per frame, as capture tools write them.
        if pose || dance {
            inputs.push((format!("{name} (baked 30 fps)"), bake(&motion, 30.0).expect("bakes")));
        }
        if !dance {
            inputs.push((name, motion));
        }
    }
    for tolerance in settings {
        table(&inputs, tolerance);
    }
}

fn table(inputs: &[(String, Motion)], tolerance: Tolerance) {
    println!(
        "Tolerance: position {} units, rotation {}°, morph {}.\n",
        tolerance.position, tolerance.angle_degrees, tolerance.morph
    );
    println!("| motion | keys in | vmdkit keys | vmdkit max error (pos / °) | time | baseline keys | baseline max error (pos / °) | time | vmdkit / baseline |");
    println!("|---|---:|---:|---|---:|---:|---|---:|---:|");
    let (mut sum_in, mut sum_ours, mut sum_base) = (0, 0, 0);
    let mut fast_rows = Vec::new();
    for (name, motion) in inputs {
        let options = ReduceOptions { tolerance, ..ReduceOptions::default() };
        let run = |method| {
            let start = Instant::now();
            let (out, report) = reduce(motion, &ReduceOptions { method, ..options });
            let took = start.elapsed();
            // Re-measured here rather than read from the report: the bound is checked by playing.
            let e = measure(motion, &out);
            assert!(e.within(&tolerance), "{name} {method:?}: {e:?}");
            (report.after.total(), e, took)
        };
        let (ours, e_ours, t_ours) = run(ReduceMethod::Fitted);
        let (base, e_base, t_base) = run(ReduceMethod::Baseline);
        let (fast, e_fast, t_fast) = run(ReduceMethod::Fast);
        fast_rows.push(format!(
            "| {name} | {ours} | {:.2} s | {fast} | {:.4} / {:.3} | {:.2} s | {:.2} |",
            t_ours.as_secs_f64(),
            e_fast.position.max(e_fast.camera_position),
            e_fast.angle_degrees.max(e_fast.camera_angle_degrees),
            t_fast.as_secs_f64(),
            fast as f64 / ours.max(1) as f64,
        ));
        let keys_in = vmdkit::edit::KeyCounts::of(motion).total();
        (sum_in, sum_ours, sum_base) = (sum_in + keys_in, sum_ours + ours, sum_base + base);
        println!(
            "| {name} | {keys_in} | {ours} | {:.4} / {:.3} | {:.2} s | {base} | {:.4} / {:.3} | {:.2} s | {:.2} |",
            e_ours.position.max(e_ours.camera_position),
            e_ours.angle_degrees.max(e_ours.camera_angle_degrees),
            t_ours.as_secs_f64(),
            e_base.position.max(e_base.camera_position),
            e_base.angle_degrees.max(e_base.camera_angle_degrees),
            t_base.as_secs_f64(),
            ours as f64 / base.max(1) as f64,
        );
    }
    println!(
        "| **total** | {sum_in} | {sum_ours} | | | {sum_base} | | | {:.2} |\n",
        sum_ours as f64 / sum_base.max(1) as f64
    );
    println!("| motion | fitted keys | time | fast keys | fast max error (pos / °) | time | fast / fitted |");
    println!("|---|---:|---:|---:|---|---:|---:|");
    for row in fast_rows {
        println!("{row}");
    }
    println!();
}
