// An independent reader of vmdkit's GLB output: @gltf-transform/core reads FILE.glb, and this
// computes every node's world position from the nodes' rest transforms and the first
// animation's channels (LINEAR: lerp for translations, slerp for rotations) at each TIME in
// seconds. Prints one JSON document:
// {"nodes": [names], "times": [...], "positions": [[[x, y, z] per node] per time],
//  "rotations": [[[x, y, z, w] per node] per time],
//  "joints": [node index of each skin joint], "targets": morph target count,
//  "weights": [[morph weight per target] per time] (empty without a weights channel)}.
import { NodeIO } from "@gltf-transform/core";

const [file, ...timeArgs] = process.argv.slice(2);
if (!file) {
  console.error("usage: node readback.mjs FILE.glb TIME...");
  process.exit(2);
}
const doc = await new NodeIO().read(file);
const root = doc.getRoot();
const nodes = root.listNodes();
const index = new Map(nodes.map((n, i) => [n, i]));
const parent = new Map();
for (const n of nodes) for (const c of n.listChildren()) parent.set(c, n);

function sampleAt(sampler, t, size) {
  const input = sampler.getInput().getArray();
  const output = sampler.getOutput().getArray();
  let i = 0;
  while (i + 1 < input.length && input[i + 1] <= t) i++;
  const a = output.subarray(i * size, i * size + size);
  if (i + 1 >= input.length || t <= input[i]) return Array.from(a);
  const b = output.subarray((i + 1) * size, (i + 1) * size + size);
  const u = (t - input[i]) / (input[i + 1] - input[i]);
  if (size === 4) return slerp(a, b, u);
  return Array.from(a, (v, k) => v + (b[k] - v) * u);
}

function slerp(a, b, u) {
  let dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  const s = dot < 0 ? -1 : 1;
  dot *= s;
  if (dot > 0.9995) {
    const q = Array.from(a, (v, k) => v + (s * b[k] - v) * u);
    const len = Math.hypot(...q);
    return q.map((v) => v / len);
  }
  const theta = Math.acos(dot);
  const wa = Math.sin((1 - u) * theta) / Math.sin(theta);
  const wb = (s * Math.sin(u * theta)) / Math.sin(theta);
  return Array.from(a, (v, k) => wa * v + wb * b[k]);
}

function rotate(q, v) {
  const [x, y, z, w] = q;
  const tx = 2 * (y * v[2] - z * v[1]);
  const ty = 2 * (z * v[0] - x * v[2]);
  const tz = 2 * (x * v[1] - y * v[0]);
  return [
    v[0] + w * tx + (y * tz - z * ty),
    v[1] + w * ty + (z * tx - x * tz),
    v[2] + w * tz + (x * ty - y * tx),
  ];
}

function multiply(a, b) {
  const [ax, ay, az, aw] = a;
  const [bx, by, bz, bw] = b;
  return [
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
    aw * bw - ax * bx - ay * by - az * bz,
  ];
}

const animation = root.listAnimations()[0];
const channels = new Map();
let weightsSampler = null;
for (const ch of animation ? animation.listChannels() : []) {
  const path = ch.getTargetPath();
  if (path === "weights") weightsSampler = ch.getSampler();
  else channels.set(`${index.get(ch.getTargetNode())}/${path}`, ch.getSampler());
}
const mesh = root.listMeshes()[0];
const targets = mesh ? mesh.listPrimitives()[0].listTargets().length : 0;

const times = timeArgs.map(Number);
const positions = [];
const rotations = [];
const weights = [];
for (const t of times) {
  const world = new Map();
  const worldOf = (n) => {
    if (world.has(n)) return world.get(n);
    const i = index.get(n);
    const tr = channels.get(`${i}/translation`);
    const rot = channels.get(`${i}/rotation`);
    const local = {
      t: tr ? sampleAt(tr, t, 3) : n.getTranslation(),
      r: rot ? sampleAt(rot, t, 4) : n.getRotation(),
    };
    const p = parent.get(n);
    let result = local;
    if (p) {
      const pw = worldOf(p);
      const moved = rotate(pw.r, local.t);
      result = { t: moved.map((v, k) => v + pw.t[k]), r: multiply(pw.r, local.r) };
    }
    world.set(n, result);
    return result;
  };
  positions.push(nodes.map((n) => worldOf(n).t));
  rotations.push(nodes.map((n) => worldOf(n).r));
  if (weightsSampler) weights.push(sampleAt(weightsSampler, t, targets));
}
const skin = root.listSkins()[0];
console.log(
  JSON.stringify({
    nodes: nodes.map((n) => n.getName()),
    times,
    positions,
    rotations,
    joints: skin ? skin.listJoints().map((j) => index.get(j)) : [],
    targets,
    weights,
  }),
);
