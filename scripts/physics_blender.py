"""Simulates a scene of rigid bodies and 6-DOF spring joints in Blender's rigid-body world (its
Bullet), as an independent check of vmdkit's physics.

    python scripts/physics_blender.py SCENE.json OUT.json

Run by the Python of the `.venv-bpy` environment that scripts/python-tests.sh --prepare-bpy
makes (the `bpy` module, pinned in scripts/requirements-bpy.txt).

The scene (every length in model units, angles in radians, times in seconds):

    {
      "gravity": [0, -98, 0],
      "step": 0.008333,           # one Bullet step
      "substeps": 4,              # Bullet steps per frame: a frame lasts step * substeps
      "solver_iterations": 10,
      "frames": 90,               # frames simulated after frame 0
      "bodies": [{
        "name": "bob",
        "shape": "sphere" | "box" | "capsule",
        "size": [x, y, z],        # as PMX: sphere radius x; box half extents; capsule radius x
                                  # and cylinder height y, along the body's Y axis
        "position": [x, y, z],    # the rest transform, which the joints' frames are taken in
        "rotation": [[r00, r01, r02], [r10, r11, r12], [r20, r21, r22]] or [x, y, z, w],
        "start": {"position": ..., "rotation": ...},   # optional: frame 0, when not at rest
        "mass": 1, "linear_damping": 0, "angular_damping": 0,
        "friction": 0.5, "restitution": 0,
        "kinematic": false,
        "group": 0, "mask": 65535,   # MMD's: bodies a and b collide when a's mask has b's
                                     # group bit and b's mask has a's
        "trajectory": [{"position": ..., "rotation": ...}, ...]   # kinematic bodies, optional:
                                     # frames 0..=frames; without it the body stays at "start"
      }],
      "joints": [{
        "name": "hinge", "body_a": 0, "body_b": 1,
        "position": [x, y, z], "rotation": matrix or quaternion,
        "linear_lower": [x, y, z], "linear_upper": [x, y, z],
        "angular_lower": [x, y, z], "angular_upper": [x, y, z],
        "linear_spring": [x, y, z], "angular_spring": [x, y, z]
      }]
    }

A rotation is a 3x3 matrix given as its rows, or a unit quaternion [x, y, z, w].

The output: {"blender": version, "frames": N, "bodies": [{"name", "positions": [[x, y, z] per
frame 0..=N], "rotations": [[x, y, z, w] per frame]}]}, every body's world transform.

How the scene becomes Blender's world:

- Coordinates pass through unchanged. MMD's axes are left-handed and Blender's right-handed, so
  Blender simulates the mirror image of the scene; rigid-body mechanics is the same in a mirror,
  so the numbers that come back are those of the scene itself. (vmdkit's engine treats the same
  numbers the same way.)
- Each body is a mesh object whose bounding box has the body's size, with the matching collision
  shape (Blender sizes primitive shapes from the bounding box). Blender's capsules run along the
  object's Z axis and MMD's along the body's Y axis, so a capsule's object is turned −90° about
  X inside the body, and turned back in the output.
- Joints are Generic Spring constraints of spring type SPRING1, Bullet's
  btGeneric6DofSpringConstraint as MMD uses, at the joint's frame. Every axis has its limit on,
  with the file's bounds: Bullet reads lower = upper as locked, lower > upper as free, as MMD's
  Bullet does. A spring is on where its constant is not zero, with Bullet's own default damping
  factor 1, which MMD never changes (Blender passes 1 − its "damping" to Bullet, so that is
  Blender's damping 0; at Blender's 1, Bullet's factor 0 makes the spring a brake that holds
  the body where it is). Bullet takes the springs'
  equilibrium at the pose the world is built in, the rest pose here, as MMD's does.
- Collisions: Blender filters pairs by shared collision collections, which cannot say MMD's
  group and mask test. Every body is in the first collection, and every pair of bodies the
  masks keep apart gets a constraint of type GENERIC with no limits and "disable collisions" on
  (what mmd_tools does for near pairs; here for every pair). The joints themselves leave
  collisions on, as MMD adds its joints.
- Time: a frame lasts step * substeps; Blender's frame rate is set to match, with time scale 1
  and `substeps` steps per frame, so that every Bullet step is `step` long. Kinematic bodies are
  moved between frames as Blender moves animated bodies: interpolated over the substeps.
- Starting away from rest: Bullet takes the joints' frames, and the springs' equilibria, from the
  bodies' transforms when the world is built. So the world is built with every body at rest and
  every body kinematic (frames 1 and 2), every body is then moved to its start (frame 3) and held
  there (frame 4) until it stands still, and the dynamic bodies are handed to the simulation
  from frame 5 on, as Blender users hand animated bodies over to physics. Frame 0 of the output
  is Blender's frame 4.
- Deactivation (sleeping) is off, as Blender's default, and no body is continuous (no CCD).
"""

import json
import math
import sys

import bpy
from mathutils import Matrix, Quaternion, Vector

# Blender frames spent building the world at rest, moving the bodies to their start and holding
# them there: output frame k is Blender frame LEAD_IN + k.
LEAD_IN = 4
# Blender's capsule axis is the object's Z, MMD's the body's Y: object = body * CAPSULE_TURN.
CAPSULE_TURN = Quaternion((1.0, 0.0, 0.0), -math.pi / 2)
SHAPES = {"sphere": "SPHERE", "box": "BOX", "capsule": "CAPSULE"}


class SceneError(Exception):
    """A scene file that does not say what this script needs, with where."""


def vec3(value, where):
    if not (isinstance(value, list) and len(value) == 3):
        raise SceneError(f"{where}: expected [x, y, z], got {value!r}")
    try:
        out = Vector([float(c) for c in value])
    except (TypeError, ValueError) as err:
        raise SceneError(f"{where}: {err}") from None
    if not all(math.isfinite(c) for c in out):
        raise SceneError(f"{where}: not finite: {value!r}")
    return out


def rotation(value, where):
    """A quaternion from a 3x3 matrix (rows) or an [x, y, z, w] quaternion."""
    if isinstance(value, list) and len(value) == 4:
        x, y, z, w = (float(c) for c in value)
        q = Quaternion((w, x, y, z))
    elif isinstance(value, list) and len(value) == 3 and all(isinstance(r, list) for r in value):
        rows = [vec3(r, f"{where}[{i}]") for i, r in enumerate(value)]
        m = Matrix(rows)
        if abs(m.determinant() - 1.0) > 1e-3:
            raise SceneError(f"{where}: not a rotation (determinant {m.determinant()})")
        q = m.to_quaternion()
    else:
        raise SceneError(f"{where}: expected a 3x3 matrix or [x, y, z, w], got {value!r}")
    if not all(math.isfinite(c) for c in q) or q.magnitude < 1e-6:
        raise SceneError(f"{where}: not a rotation: {value!r}")
    q.normalize()
    return q


def transform(value, where):
    if not isinstance(value, dict):
        raise SceneError(f"{where}: expected {{position, rotation}}, got {value!r}")
    return (
        vec3(value.get("position"), f"{where}.position"),
        rotation(value.get("rotation"), f"{where}.rotation"),
    )


def number(obj, key, where, default=None, low=None):
    value = obj.get(key, default)
    if value is None:
        raise SceneError(f"{where}.{key}: missing")
    try:
        value = float(value)
    except (TypeError, ValueError):
        raise SceneError(f"{where}.{key}: not a number: {value!r}") from None
    if not math.isfinite(value) or (low is not None and value < low):
        raise SceneError(f"{where}.{key}: out of range: {value!r}")
    return value


def read_scene(path):
    with open(path, encoding="utf-8") as f:
        scene = json.load(f)
    if not isinstance(scene, dict):
        raise SceneError("scene: expected an object")
    for key in ("bodies", "joints"):
        if not isinstance(scene.get(key, []), list):
            raise SceneError(f"scene.{key}: expected a list")
    frames = int(number(scene, "frames", "scene", low=0))
    bodies = []
    for i, b in enumerate(scene.get("bodies", [])):
        where = f"bodies[{i}]"
        if not isinstance(b, dict):
            raise SceneError(f"{where}: expected an object")
        shape = b.get("shape")
        if shape not in SHAPES:
            raise SceneError(f"{where}.shape: expected one of {sorted(SHAPES)}, got {shape!r}")
        rest = (vec3(b.get("position"), f"{where}.position"),
                rotation(b.get("rotation"), f"{where}.rotation"))
        start = transform(b["start"], f"{where}.start") if "start" in b else rest
        trajectory = [
            transform(t, f"{where}.trajectory[{k}]") for k, t in enumerate(b.get("trajectory", []))
        ]
        if trajectory and len(trajectory) != frames + 1:
            raise SceneError(
                f"{where}.trajectory: {len(trajectory)} entries for {frames + 1} frames"
            )
        kinematic = bool(b.get("kinematic", False))
        mass = number(b, "mass", where, 1.0, low=0.0)
        if not kinematic and mass <= 0.0:
            raise SceneError(f"{where}.mass: a dynamic body needs a positive mass, got {mass}")
        size = vec3(b.get("size"), f"{where}.size")
        if min(size[:2] if shape == "capsule" else size[:1] if shape == "sphere" else size) <= 0:
            raise SceneError(f"{where}.size: not positive: {list(size)}")
        bodies.append({
            "name": str(b.get("name", f"body{i}")),
            "shape": shape,
            "size": size,
            "rest": rest,
            "start": start,
            "trajectory": trajectory,
            "mass": mass,
            "linear_damping": number(b, "linear_damping", where, 0.0, low=0.0),
            "angular_damping": number(b, "angular_damping", where, 0.0, low=0.0),
            "friction": number(b, "friction", where, 0.5, low=0.0),
            "restitution": number(b, "restitution", where, 0.0, low=0.0),
            "kinematic": kinematic,
            "group": int(number(b, "group", where, 0, low=0)),
            "mask": int(number(b, "mask", where, 0xFFFF, low=0)),
        })
    joints = []
    for i, j in enumerate(scene.get("joints", [])):
        where = f"joints[{i}]"
        if not isinstance(j, dict):
            raise SceneError(f"{where}: expected an object")
        a, b = int(number(j, "body_a", where)), int(number(j, "body_b", where))
        if not (0 <= a < len(bodies) and 0 <= b < len(bodies)) or a == b:
            raise SceneError(f"{where}: bodies {a} and {b} for {len(bodies)} bodies")
        joints.append({
            "name": str(j.get("name", f"joint{i}")),
            "a": a,
            "b": b,
            "frame": (vec3(j.get("position"), f"{where}.position"),
                      rotation(j.get("rotation"), f"{where}.rotation")),
            **{key: vec3(j.get(key, [0, 0, 0]), f"{where}.{key}") for key in (
                "linear_lower", "linear_upper", "angular_lower", "angular_upper",
                "linear_spring", "angular_spring")},
        })
    return {
        "gravity": vec3(scene.get("gravity", [0, -98, 0]), "scene.gravity"),
        "step": number(scene, "step", "scene", 1 / 120, low=1e-6),
        "substeps": int(number(scene, "substeps", "scene", 1, low=1)),
        "solver_iterations": int(number(scene, "solver_iterations", "scene", 10, low=1)),
        "frames": frames,
        "bodies": bodies,
        "joints": joints,
    }


def empty_scene():
    """The factory scene with every object removed."""
    bpy.ops.wm.read_factory_settings(use_empty=True)
    return bpy.context.scene


def box_mesh(name, half):
    """A closed box mesh of half extents `half`, whose bounding box Blender sizes shapes by."""
    hx, hy, hz = half
    verts = [(sx * hx, sy * hy, sz * hz) for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]
    faces = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(verts, [], faces)
    mesh.update()
    return mesh


def object_rotation(body, q):
    """The Blender object's rotation for the body's rotation `q`."""
    return q @ CAPSULE_TURN if body["shape"] == "capsule" else q


def body_rotation(body, q):
    """The body's rotation for the Blender object's rotation `q`."""
    return q @ CAPSULE_TURN.inverted() if body["shape"] == "capsule" else q


def place(obj, body, pose):
    position, q = pose
    obj.location = position
    obj.rotation_quaternion = object_rotation(body, q)


def collides(a, b):
    """MMD's (Bullet's) filter: each body's mask has the other's group bit."""
    return bool(a["mask"] >> b["group"] & 1) and bool(b["mask"] >> a["group"] & 1)


def build(scene, spec):
    """Blender's rigid-body world for `spec`: the body objects and the constraint objects."""
    scene.frame_start = 1
    scene.frame_end = LEAD_IN + spec["frames"]
    frame_seconds = spec["step"] * spec["substeps"]
    # Blender's frame lasts fps_base / fps seconds.
    fps = max(1, round(1.0 / frame_seconds))
    scene.render.fps = fps
    scene.render.fps_base = fps * frame_seconds
    scene.use_gravity = True
    scene.gravity = spec["gravity"]

    bpy.ops.rigidbody.world_add()
    world = scene.rigidbody_world
    world.enabled = True
    world.collection = bpy.data.collections.new("bodies")
    world.constraints = bpy.data.collections.new("constraints")
    world.time_scale = 1.0
    world.substeps_per_frame = spec["substeps"]
    world.solver_iterations = spec["solver_iterations"]
    world.use_split_impulse = False
    world.point_cache.frame_start = 1
    world.point_cache.frame_end = scene.frame_end
    world.effector_weights.gravity = 1.0
    world.effector_weights.all = 1.0

    objects = []
    for i, body in enumerate(spec["bodies"]):
        sx, sy, sz = body["size"]
        if body["shape"] == "sphere":
            half = (sx, sx, sx)
        elif body["shape"] == "box":
            half = (sx, sy, sz)
        else:
            # Along the object's Z: the cylinder's half height plus the radius.
            half = (sx, sx, sy / 2 + sx)
        obj = bpy.data.objects.new(f"{i:04d} {body['name']}", box_mesh(body["name"], half))
        obj.rotation_mode = "QUATERNION"
        place(obj, body, body["rest"])
        scene.collection.objects.link(obj)
        world.collection.objects.link(obj)
        rb = obj.rigid_body
        if rb is None:
            raise RuntimeError("Blender made no rigid body for an object of its world's collection")
        rb.type = "ACTIVE"
        rb.collision_shape = SHAPES[body["shape"]]
        # Kinematic bodies have no mass in Bullet whatever this says.
        rb.mass = body["mass"] if body["mass"] > 0 else 1.0
        rb.friction = body["friction"]
        rb.restitution = body["restitution"]
        rb.linear_damping = min(body["linear_damping"], 1.0)
        rb.angular_damping = min(body["angular_damping"], 1.0)
        rb.use_deactivation = False
        rb.use_margin = False
        rb.collision_collections = [k == 0 for k in range(20)]
        # Kinematic for the lead-in; the dynamic bodies are released after it (see `run`).
        rb.kinematic = True
        objects.append(obj)

    def constraint_object(name, pose):
        empty = bpy.data.objects.new(name, None)
        empty.rotation_mode = "QUATERNION"
        empty.location, empty.rotation_quaternion = pose
        scene.collection.objects.link(empty)
        world.constraints.objects.link(empty)
        if empty.rigid_body_constraint is None:
            raise RuntimeError("Blender made no constraint for an object of its constraints")
        return empty

    for i, joint in enumerate(spec["joints"]):
        empty = constraint_object(f"joint {i:04d} {joint['name']}", joint["frame"])
        rbc = empty.rigid_body_constraint
        rbc.type = "GENERIC_SPRING"
        rbc.spring_type = "SPRING1"
        rbc.object1 = objects[joint["a"]]
        rbc.object2 = objects[joint["b"]]
        rbc.disable_collisions = False
        rbc.use_breaking = False
        rbc.use_override_solver_iterations = False
        for k, axis in enumerate("xyz"):
            for kind, lower, upper in (
                ("lin", joint["linear_lower"][k], joint["linear_upper"][k]),
                ("ang", joint["angular_lower"][k], joint["angular_upper"][k]),
            ):
                setattr(rbc, f"use_limit_{kind}_{axis}", True)
                setattr(rbc, f"limit_{kind}_{axis}_lower", lower)
                setattr(rbc, f"limit_{kind}_{axis}_upper", upper)
            for suffix, k_spring in (
                ("", joint["linear_spring"][k]),
                ("_ang", joint["angular_spring"][k]),
            ):
                setattr(rbc, f"use_spring{suffix}_{axis}", k_spring != 0.0)
                setattr(rbc, f"spring_stiffness{suffix}_{axis}", k_spring)
                # Blender hands Bullet 1 − this: 0 here is Bullet's (and MMD's) default 1.
                setattr(rbc, f"spring_damping{suffix}_{axis}", 0.0)

    bodies = spec["bodies"]
    apart = 0
    for i in range(len(bodies)):
        for j in range(i + 1, len(bodies)):
            if collides(bodies[i], bodies[j]):
                continue
            origin = (Vector((0.0, 0.0, 0.0)), Quaternion())
            rbc = constraint_object(f"apart {i:04d} {j:04d}", origin).rigid_body_constraint
            rbc.type = "GENERIC"
            rbc.object1 = objects[i]
            rbc.object2 = objects[j]
            rbc.disable_collisions = True
            for kind in ("lin", "ang"):
                for axis in "xyz":
                    setattr(rbc, f"use_limit_{kind}_{axis}", False)
            apart += 1
    return objects, apart


def pose_at(body, frame):
    """Where a body is held at output frame `frame` while kinematic."""
    if body["trajectory"]:
        return body["trajectory"][frame]
    return body["start"]


def key(obj, body, pose, frame):
    place(obj, body, pose)
    obj.keyframe_insert("location", frame=frame)
    obj.keyframe_insert("rotation_quaternion", frame=frame)


def animate(objects, bodies, frames):
    """Keys every kinematic transform and the dynamic bodies' release ("Animated" off) before
    the first frame is simulated, as Blender users hand animated bodies over to the simulation:
    the run then only changes frames, and Blender reads everything from its animation."""
    for obj, body in zip(objects, bodies):
        # Frames 1 and 2: at rest (the world is built on frame 2); 3: at the start; 4: held
        # there, so that a body about to be released has no velocity left from the move.
        for frame in range(1, LEAD_IN + 1):
            key(obj, body, body["rest"] if frame < 3 else pose_at(body, 0), frame)
        if body["kinematic"]:
            for frame in range(1, frames + 1):
                key(obj, body, pose_at(body, frame), LEAD_IN + frame)
        else:
            obj.rigid_body.kinematic = True
            obj.rigid_body.keyframe_insert("kinematic", frame=LEAD_IN)
            obj.rigid_body.kinematic = False
            obj.rigid_body.keyframe_insert("kinematic", frame=LEAD_IN + 1)
            obj.rigid_body.kinematic = True
        if obj.animation_data and obj.animation_data.action:
            for fcurve in all_fcurves(obj.animation_data.action):
                for point in fcurve.keyframe_points:
                    switch = "kinematic" in fcurve.data_path
                    point.interpolation = "CONSTANT" if switch else "LINEAR"


def all_fcurves(action):
    """The action's F-curves (Blender 4.4 moved them into layers, strips and channel bags)."""
    if hasattr(action, "layers") and len(action.layers) > 0:
        for layer in action.layers:
            for strip in layer.strips:
                for bag in strip.channelbags:
                    yield from bag.fcurves
    else:
        yield from action.fcurves


def run(spec):
    scene = empty_scene()
    objects, apart = build(scene, spec)
    bodies = spec["bodies"]
    animate(objects, bodies, spec["frames"])
    out = [{"name": b["name"], "positions": [], "rotations": []} for b in bodies]
    for frame in range(1, LEAD_IN + spec["frames"] + 1):
        scene.frame_set(frame)
        if frame >= LEAD_IN:
            record(scene, objects, bodies, out)
    return out, apart


def record(scene, objects, bodies, out):
    depsgraph = bpy.context.evaluated_depsgraph_get()
    for obj, body, o in zip(objects, bodies, out):
        m = obj.evaluated_get(depsgraph).matrix_world
        loc, q, _ = m.decompose()
        q = body_rotation(body, q)
        q.normalize()
        if not all(math.isfinite(c) for c in (*loc, *q)):
            raise RuntimeError(f"{body['name']}: Blender's simulation went non-finite")
        o["positions"].append([loc.x, loc.y, loc.z])
        o["rotations"].append([q.x, q.y, q.z, q.w])


def main(argv):
    if len(argv) != 3:
        print(f"usage: {argv[0]} SCENE.json OUT.json", file=sys.stderr)
        return 2
    try:
        spec = read_scene(argv[1])
    except (OSError, ValueError, SceneError) as err:
        print(f"{argv[1]}: {err}", file=sys.stderr)
        return 1
    bodies, apart = run(spec)
    result = {
        "blender": bpy.app.version_string,
        "frames": spec["frames"],
        "non_collision_pairs": apart,
        "bodies": bodies,
    }
    with open(argv[2], "w", encoding="utf-8") as f:
        json.dump(result, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
