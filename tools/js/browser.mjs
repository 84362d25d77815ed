// Loads a GLB with three.js's GLTFLoader in headless Chromium (playwright-core, the system's
// chromium) and plays its first animation: the mixer steps through the clip, and the page
// renders a frame when WebGL is available. Prints one JSON document: what loaded (skinned
// meshes, bones, morph targets, clip duration and tracks), the world position of every node after
// the mixer is set to each TIME (seconds), whether a frame was rendered, and every console error and
// page error. Exit status 0 when nothing went wrong, 1 otherwise.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { dirname, extname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const [file, ...timeArgs] = process.argv.slice(2);
if (!file) {
  console.error("usage: node browser.mjs FILE.glb [TIME...]");
  process.exit(2);
}
const here = dirname(fileURLToPath(import.meta.url));
const three = join(here, "node_modules/three");
const types = { ".js": "text/javascript", ".html": "text/html", ".glb": "model/gltf-binary" };

const page = `<!doctype html><html><body><script type="importmap">
{"imports": {"three": "/three/build/three.module.js", "three/addons/": "/three/examples/jsm/"}}
</script><script type="module">
import * as THREE from "three";
import { GLTFLoader } from "three/addons/loaders/GLTFLoader.js";
window.run = async (times) => {
  const gltf = await new GLTFLoader().loadAsync("/model.glb");
  const scene = gltf.scene;
  const out = { skinnedMeshes: 0, bones: 0, morphTargets: 0, clips: gltf.animations.length };
  scene.traverse((o) => {
    if (o.isSkinnedMesh) out.skinnedMeshes++;
    if (o.isBone) out.bones++;
    if (o.morphTargetInfluences) out.morphTargets = Math.max(out.morphTargets, o.morphTargetInfluences.length);
  });
  const clip = gltf.animations[0];
  out.duration = clip ? clip.duration : 0;
  out.tracks = clip ? clip.tracks.length : 0;
  const mixer = new THREE.AnimationMixer(scene);
  if (clip) mixer.clipAction(clip).play();
  const nodes = await gltf.parser.getDependencies("node");
  out.positions = [];
  for (const t of times) {
    mixer.setTime(t);
    scene.updateMatrixWorld(true);
    out.positions.push(nodes.map((n) => new THREE.Vector3().setFromMatrixPosition(n.matrixWorld).toArray()));
  }
  out.rendered = false;
  try {
    const renderer = new THREE.WebGLRenderer();
    renderer.setSize(64, 64);
    const camera = new THREE.PerspectiveCamera(30, 1, 0.01, 100);
    camera.position.set(0, 1, 5);
    scene.add(new THREE.AmbientLight(0xffffff, 1));
    for (let i = 0; i < 5; i++) {
      mixer.update(0.1);
      renderer.render(scene, camera);
    }
    out.rendered = true;
  } catch (e) {
    out.renderError = String(e);
  }
  return out;
};
window.ready = true;
</script></body></html>`;

const server = createServer(async (req, res) => {
  try {
    const url = decodeURIComponent(new URL(req.url, "http://localhost").pathname);
    if (url === "/favicon.ico") {
      res.writeHead(204);
      res.end();
      return;
    }
    let body;
    if (url === "/") body = page;
    else if (url === "/model.glb") body = await readFile(resolve(file));
    else if (url.startsWith("/three/")) body = await readFile(join(three, url.slice(7)));
    else if (url.startsWith("/")) body = await readFile(resolve(dirname(file), url.slice(1)));
    res.writeHead(200, { "content-type": types[extname(url)] ?? (url === "/" ? "text/html" : "application/octet-stream") });
    res.end(body);
  } catch {
    res.writeHead(404);
    res.end();
  }
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const { port } = server.address();
const errors = [];
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--use-gl=angle", "--use-angle=swiftshader", "--enable-unsafe-swiftshader"],
});
let result = {};
try {
  const tab = await browser.newPage();
  tab.on("console", (m) => m.type() === "error" && errors.push(`console: ${m.text()}`));
  tab.on("pageerror", (e) => errors.push(`page: ${e.message}`));
  await tab.goto(`http://127.0.0.1:${port}/`);
  await tab.waitForFunction(() => window.ready === true);
  result = await tab.evaluate((times) => window.run(times), timeArgs.map(Number));
} catch (e) {
  errors.push(`run: ${e.message}`);
} finally {
  await browser.close();
  server.close();
}
result.errors = errors;
console.log(JSON.stringify(result));
process.exit(errors.length === 0 ? 0 : 1);
