//! Compares vmdkit's physics engine (rapier3d) with Bullet 3.25 (MMD's engine, through the
//! `mmd-anim-physics-bullet` crate) on the same scenes with the same conventions, and prints
//! the table docs/physics.md ("Choosing the engine") quotes. Run it with
//! scripts/compare-engines.sh (a release build, pinned to one core).
//!
//! It lives outside the project's workspace so that no project build compiles Bullet.

// `!(x <= limit)` on purpose throughout: a NaN must count as past the limit.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

mod bullet;
mod corpus;
mod engine;
// The physics tests' own models, included rather than copied, so that both compare the same.
#[allow(clippy::identity_op)]
#[path = "../../../crates/vmdkit/tests/it/common/physics_models.rs"]
mod physics_models;
mod scenes;

use engine::Kind;
use vmdkit::model::RigidMode;

const MIKU: &str = "MMD-Blender__blender_mmd_tools/samples__pmx__初音ミク.pmx";
const MEI: &str = "mmdagent__mmdagent-mirror/MMDAgent_Example__Model__mei__mei.pmd";
const WAVE: &str = "takahirox__mmd-viewer-js/vmd__wavefile_v2.vmd";
const SAMPLE2: &str = "miu200521358__mmd_base/tests__resources__サンプルモーション2.vmd";
/// The physics corpus test's third dance: a motion captured from video, jittery and fast.
const CAPTURED: &str = "wayne931121__3d-pose-baseline-vmd/test_json_3d_20251014_001234_idx01__animasa_miku_born_20251014_004602_depthなし_h0.0_z0.0_d1_s1_p0.5_r3.0_reduce.vmd";

/// Per joint of 初音ミク, the worst limit excess and anchor distance on each engine over the
/// first 300 frames (10 s) of two dances: whether what passes its limits in vmdkit does so in
/// Bullet too (the model and the dance) or only in vmdkit (the setup).
fn joint_table(dir: &std::path::Path) {
    use vmdkit::model::RigidMode;
    let mode = |m: RigidMode| match m {
        RigidMode::FollowBone => "0",
        RigidMode::Physics => "1",
        _ => "2",
    };
    for dance in [WAVE, SAMPLE2, CAPTURED] {
        let (model, motion) = corpus::load(dir, MIKU, dance);
        let runs = Kind::ALL.map(|k| corpus::joint_worsts(k, &model, &motion, 300));
        println!();
        println!(
            "初音ミク, {}, 300 frames: per joint, limit excess (rad) / anchor distance",
            dance.rsplit("__").next().unwrap_or(dance)
        );
        println!();
        let worst = |r: &Vec<(f32, f32)>| {
            r.iter().fold((0f32, 0f32), |(e, x), &(a, b)| (e.max(a), x.max(b)))
        };
        println!(
            "worst of all joints (excess / distance): {}",
            runs.iter()
                .map(|r| {
                    let (e, x) = worst(r);
                    format!("{x:.3} / {e:.3}")
                })
                .collect::<Vec<_>>()
                .join(", ")
        );
        println!();
        println!(
            "| joint | bodies (mode, mass) | angular limits X, Y, Z | {} |",
            Kind::ALL.map(|k| k.name()).join(" | ")
        );
        println!("| --- | --- | --- | --- | --- | --- |");
        for (j, joint) in model.joints.iter().enumerate() {
            if runs.iter().all(|r| r[j].1 < 0.1 && r[j].0 < 0.2) {
                continue;
            }
            let body = |b: Option<usize>| {
                b.and_then(|b| model.rigid_bodies.get(b)).map_or("?".to_string(), |rb| {
                    format!("{} ({}, {})", rb.name, mode(rb.mode), rb.mass)
                })
            };
            let limits: Vec<String> = (0..3)
                .map(|i| format!("[{:.2}, {:.2}]", joint.angular_min[i], joint.angular_max[i]))
                .collect();
            println!(
                "| {} | {} – {} | {} | {} |",
                joint.name,
                body(joint.body_a),
                body(joint.body_b),
                limits.join(" "),
                runs.iter()
                    .map(|r| format!("{:.3} / {:.3}", r[j].1, r[j].0))
                    .collect::<Vec<_>>()
                    .join(" | ")
            );
        }
    }
}

fn pct(x: f32) -> String {
    format!("{:+.2}%", x * 100.0)
}

fn row(label: &str, cells: impl IntoIterator<Item = String>) {
    let cells: Vec<String> = cells.into_iter().collect();
    println!("| {label} | {} |", cells.join(" | "));
}

fn main() {
    let only_scenes = std::env::args().any(|a| a == "--scenes-only");
    if std::env::args().any(|a| a == "--joints") {
        joint_table(&test_corpus::corpus_dir());
        return;
    }
    println!("| check | rapier3d | Bullet |");
    println!("| --- | --- | --- |");
    let both = |f: &dyn Fn(Kind) -> String| Kind::BOTH.map(f);
    row(
        "pendulum (mode 1), period error vs 2π√(I/(mgL))",
        both(&|k| pct(scenes::pendulum_period_error(k, RigidMode::Physics))),
    );
    let mode2 = |k| scenes::pendulum_period_error(k, RigidMode::PhysicsWithBonePosition);
    let swing = |x: f32| if x.is_nan() { "no swing".to_string() } else { pct(x) };
    row(
        "pendulum (mode 2), period error (Bullet: body put back at its bone after every step)",
        [
            swing(mode2(Kind::Rapier)),
            format!(
                "{}; not put back: {}",
                swing(mode2(Kind::Bullet)),
                swing(mode2(Kind::BulletFreeMode2))
            ),
        ],
    );
    row(
        "angular spring, frequency error vs √(k/I)",
        both(&|k| pct(scenes::spring_frequency_error(k))),
    );
    row(
        "limit ±0.3 rad under load, largest excess (final)",
        both(&|k| {
            let (max, last) = scenes::limit_excess(k);
            format!("{max:.4} rad (final {last:+.4})")
        }),
    );
    let frames = 150;
    let runs = Kind::BOTH.map(|k| (scenes::hair_run(k, frames), scenes::hair_run(k, frames)));
    row(
        "hair chain (5 s, head turning), tip excursion / chain length",
        runs.iter().map(|((p, _, _), _)| {
            format!("{:.3}", scenes::tip_excursion(p) / scenes::chain_length())
        }),
    );
    row(
        "hair chain, largest joint error",
        runs.iter().map(|((_, _, f), _)| format!("{:.4}", f.max_joint_error)),
    );
    row(
        "hair chain, largest limit excess",
        runs.iter().map(|((_, _, f), _)| format!("{:.4} rad", f.max_limit_excess)),
    );
    row(
        "hair chain, two runs bit-identical",
        runs.iter().map(|((_, a, _), (_, b, _))| (a == b).to_string()),
    );
    let (root, tip) = physics_models::hair_root_and_tip();
    let (r, b) = (&runs[0].0 .0, &runs[1].0 .0);
    let rms = scenes::rms_distance(r, b, tip) / scenes::chain_length();
    let mid = scenes::rms_distance(r, b, (root + tip) / 2) / scenes::chain_length();
    println!(
        "| hair chain, RMS tip distance between engines / chain length | {} (middle bone {}) | |",
        pct(rms),
        pct(mid)
    );
    if only_scenes {
        return;
    }
    let dir = test_corpus::corpus_dir();
    println!();
    println!(
        "Corpus: {WAVE} played at 30 fps; settling: rest pose, no settling, {} s.",
        corpus::REST_SECONDS
    );
    println!();
    println!("| model | engine | NaN frames | explosions (a bone > {}× the model's height off) | largest deviation | largest joint error | settled at rest after | CPU time per frame (one core) | two runs bit-identical |", corpus::EXPLODED);
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for name in [MIKU, MEI] {
        let (model, motion) = corpus::load(&dir, name, WAVE);
        let short = name.rsplit("__").next().unwrap_or(name);
        eprintln!(
            "{short}: {} of {} joints join bodies that may collide",
            corpus::joined_colliding(&model),
            model.joints.len()
        );
        for kind in Kind::ALL {
            let a = corpus::dance(kind, &model, &motion);
            let b = corpus::dance(kind, &model, &motion);
            let (settled, speed, bone) = corpus::settling(kind, &model);
            let settled = match settled {
                Some(t) => format!("{t:.2} s"),
                None => format!("not in {} s ({bone} at {speed:.2} units/s)", corpus::REST_SECONDS),
            };
            let explosions = !(a.max_deviation <= corpus::EXPLODED * a.height);
            println!(
                "| {short} ({} bodies, {} joints, {} frames) | {} | {} | {} | {:.2} ({}, frame {}) | {:.4} | {settled} | {:.0} µs | {} |",
                model.rigid_bodies.len(),
                model.joints.len(),
                a.frames,
                kind.name(),
                a.nan_frames,
                if explosions { "yes" } else { "none" },
                a.max_deviation,
                a.worst.0,
                a.worst.1,
                a.max_joint_error,
                a.seconds_per_frame.min(b.seconds_per_frame) * 1e6,
                a.hashes == b.hashes,
            );
        }
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!();
    println!(
        "Times: this thread's CPU time, the better of two runs (a busy machine still slows them \
         through shared caches and cores); load average at the end: {}",
        load.trim()
    );
}
