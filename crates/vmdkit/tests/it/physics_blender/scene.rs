//! The same model simulated twice: by vmdkit's physics, and by Blender's rigid-body world (its
//! Bullet) through scripts/physics_blender.py, from one JSON scene made of the model's rigid
//! bodies and joints. Both give every body's world transform at every frame.

use glam::{EulerRot, Quat, Vec3};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;
use vmdkit::model::{Model, RigidBody, RigidShape};
use vmdkit::physics::{PhysicsSettings, PhysicsWorld};
use vmdkit::skeleton::{Pose, PoseEvaluator, PoseInput, Skeleton};

/// The Bullet step and the steps per frame both simulations take: 1/120 s, four per 30 fps
/// frame, vmdkit's default and what saba and mmd-anim use.
pub const STEP: f32 = 1.0 / 120.0;
/// Steps per frame.
pub const SUBSTEPS: u32 = 4;
/// One frame, seconds.
pub const FRAME: f32 = STEP * SUBSTEPS as f32;
/// Bullet's default number of solver iterations, and Blender's (MMD's Bullet 2.75 keeps it).
pub const SOLVER_ITERATIONS: u32 = 10;

/// Every body's world transform at every frame (frame 0 is the start).
#[derive(Clone, Debug)]
pub struct Tracks {
    /// Per body, per frame.
    pub positions: Vec<Vec<Vec3>>,
    /// Per body, per frame.
    pub rotations: Vec<Vec<Quat>>,
}

/// A rigid body's rotation from the file's Euler angles: about Y, then X, then Z.
fn euler(angles: Vec3) -> Quat {
    Quat::from_euler(EulerRot::YXZ, angles.y, angles.x, angles.z)
}

/// Where `pose` places body `rb`: its bone's world transform times the body's rest transform
/// relative to the bone's rest (a body without a bone stays at its rest transform). For a body
/// that moves its bone (mode 1) this is the body's own transform, since the bone was set to
/// body · offset⁻¹.
pub fn body_world(skeleton: &Skeleton, pose: &Pose, rb: &RigidBody) -> (Vec3, Quat) {
    let rest = euler(rb.rotation);
    match rb.bone {
        Some(b) if b < skeleton.bone_count() => {
            let r = pose.rotation(b);
            (pose.position(b) + r * (rb.position - skeleton.rest_position(b)), r * rest)
        }
        _ => (rb.position, rest),
    }
}

/// Whether the simulation moves `rb` (modes 1 and 2, with a mass).
pub fn is_dynamic(rb: &RigidBody) -> bool {
    rb.mode.is_simulated() && rb.mass > 0.0
}

/// Runs vmdkit's physics over `inputs` (one per frame), starting from `inputs[0]` with no
/// settling, and returns the bodies' transforms.
pub fn simulate_vmdkit(model: &Model, inputs: &[PoseInput]) -> Tracks {
    let skeleton = Skeleton::new(model);
    let evaluator = PoseEvaluator::new(&skeleton);
    let settings = PhysicsSettings {
        step: STEP,
        settle_seconds: 0.0,
        reset_distance: None,
        ..PhysicsSettings::default()
    };
    let mut world = PhysicsWorld::new(model, &skeleton, &settings);
    assert!(world.notes().is_empty(), "{}: {:?}", model.name, world.notes());
    let mut pose = Pose::new(&skeleton);
    let n = model.rigid_bodies.len();
    let mut tracks = Tracks { positions: vec![Vec::new(); n], rotations: vec![Vec::new(); n] };
    for (k, input) in inputs.iter().enumerate() {
        // The first pose places the bodies (with no settling: settle_seconds is 0); every later
        // one steps a frame.
        world.pose(&evaluator, input, if k == 0 { 0.0 } else { FRAME }, &mut pose);
        for (i, rb) in model.rigid_bodies.iter().enumerate() {
            let (p, q) = body_world(&skeleton, &pose, rb);
            tracks.positions[i].push(p);
            tracks.rotations[i].push(q);
        }
    }
    tracks
}

fn vec(v: Vec3) -> Value {
    json!([v.x, v.y, v.z])
}

fn quat(q: Quat) -> Value {
    json!([q.x, q.y, q.z, q.w])
}

fn transform((p, q): (Vec3, Quat)) -> Value {
    json!({"position": vec(p), "rotation": quat(q)})
}

/// The JSON scene of `model` driven by `inputs`: every body at its rest transform (the joints'
/// frames are taken there), its start where the first pose places it, and for kinematic bodies
/// where every pose places them (the skeleton without physics: their bones are not moved by
/// any body in these models).
/// Bullet's constraint solver runs `iterations` times per step.
pub fn scene(model: &Model, inputs: &[PoseInput], iterations: u32) -> Value {
    let skeleton = Skeleton::new(model);
    let evaluator = PoseEvaluator::new(&skeleton);
    let poses: Vec<Pose> = inputs
        .iter()
        .map(|input| {
            let mut pose = Pose::new(&skeleton);
            evaluator.evaluate(input, &mut pose);
            pose
        })
        .collect();
    let bodies: Vec<Value> = model
        .rigid_bodies
        .iter()
        .map(|rb| {
            let dynamic = is_dynamic(rb);
            let mut body = json!({
                "name": rb.name,
                "shape": match rb.shape {
                    RigidShape::Sphere => "sphere",
                    RigidShape::Box => "box",
                    _ => "capsule",
                },
                "size": vec(rb.size),
                "position": vec(rb.position),
                "rotation": quat(euler(rb.rotation)),
                "start": transform(body_world(&skeleton, &poses[0], rb)),
                "mass": rb.mass,
                "linear_damping": rb.linear_damping,
                "angular_damping": rb.angular_damping,
                "friction": rb.friction,
                "restitution": rb.restitution,
                "kinematic": !dynamic,
                "group": rb.group,
                "mask": rb.mask,
            });
            if !dynamic {
                body["trajectory"] =
                    poses.iter().map(|pose| transform(body_world(&skeleton, pose, rb))).collect();
            }
            body
        })
        .collect();
    let joints: Vec<Value> = model
        .joints
        .iter()
        .map(|j| {
            json!({
                "name": j.name,
                "body_a": j.body_a.expect("test models join existing bodies"),
                "body_b": j.body_b.expect("test models join existing bodies"),
                "position": vec(j.position),
                "rotation": quat(euler(j.rotation)),
                "linear_lower": vec(j.linear_min),
                "linear_upper": vec(j.linear_max),
                "angular_lower": vec(j.angular_min),
                "angular_upper": vec(j.angular_max),
                "linear_spring": vec(j.linear_spring),
                "angular_spring": vec(j.angular_spring),
            })
        })
        .collect();
    json!({
        "gravity": vec(PhysicsSettings::default().gravity),
        "step": STEP,
        "substeps": SUBSTEPS,
        "solver_iterations": iterations,
        "frames": inputs.len() - 1,
        "bodies": bodies,
        "joints": joints,
    })
}

/// scripts/physics_blender.py.
pub fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/physics_blender.py")
}

/// Runs the script with `python` on `scene`; returns its exit status's success, its standard
/// error and the output document (when it succeeded).
pub fn run_blender(python: &Path, scene: &Value, dir: &Path) -> (bool, String, Option<Value>) {
    let input = dir.join("scene.json");
    let output = dir.join("out.json");
    std::fs::write(&input, serde_json::to_vec(scene).unwrap()).unwrap();
    let _ = std::fs::remove_file(&output);
    let run = Command::new(python)
        .arg(script())
        .arg(&input)
        .arg(&output)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", python.display()));
    let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
    let doc = run
        .status
        .success()
        .then(|| serde_json::from_slice(&std::fs::read(&output).unwrap()).unwrap());
    (run.status.success(), stderr, doc)
}

/// Blender's tracks for `model` driven by `inputs`, its solver at `iterations`, and Blender's
/// version.
pub fn simulate_blender(
    python: &Path,
    model: &Model,
    inputs: &[PoseInput],
    iterations: u32,
    dir: &Path,
) -> (Tracks, String) {
    let (ok, stderr, doc) = run_blender(python, &scene(model, inputs, iterations), dir);
    assert!(ok, "{}: physics_blender.py failed:\n{stderr}", model.name);
    let doc = doc.unwrap();
    let floats = |v: &Value| -> Vec<f32> {
        v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32).collect()
    };
    let bodies = doc["bodies"].as_array().unwrap();
    assert_eq!(bodies.len(), model.rigid_bodies.len());
    let mut tracks = Tracks { positions: Vec::new(), rotations: Vec::new() };
    for body in bodies {
        let positions: Vec<Vec3> = body["positions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| Vec3::from_slice(&floats(p)))
            .collect();
        let rotations: Vec<Quat> = body["rotations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|q| Quat::from_slice(&floats(q)))
            .collect();
        assert_eq!(positions.len(), inputs.len());
        assert_eq!(rotations.len(), inputs.len());
        tracks.positions.push(positions);
        tracks.rotations.push(rotations);
    }
    (tracks, doc["blender"].as_str().unwrap_or("?").to_string())
}
