// vmdkit view: an offline stick-figure player. The data is filled in by vmdkit (positions as
// zlib-deflated int16 second differences along time, base64); no network access.
(async function () {
  const D = JSON.parse(document.getElementById("vmdkit-data").textContent);
  const raw = Uint8Array.from(atob(D.positions), (c) => c.charCodeAt(0));
  const inflated = await new Response(
    new Blob([raw]).stream().pipeThrough(new DecompressionStream("deflate"))
  ).arrayBuffer();
  const deltas = new Int16Array(inflated);
  const B = D.bones.length, F = D.frames;
  const pos = new Float32Array(F * B * 3); // [frame][bone][axis]
  for (let b = 0; b < B; b++) for (let a = 0; a < 3; a++) {
    // Second differences in wrapping 16-bit arithmetic, as vmdkit wrote them.
    let q1 = 0, q2 = 0; const base = (b * 3 + a) * F;
    for (let f = 0; f < F; f++) {
      const q = ((deltas[base + f] + 2 * q1 - q2) << 16) >> 16;
      pos[(f * B + b) * 3 + a] = D.origin[a] + q * D.step; q2 = q1; q1 = q;
    }
  }
  const cv = document.getElementById("view"), ctx = cv.getContext("2d");
  const plot = document.getElementById("curve"), pctx = plot.getContext("2d");
  const scrub = document.getElementById("scrub"), label = document.getElementById("frame");
  const play = document.getElementById("play"), hover = document.getElementById("hover");
  const useCam = document.getElementById("usecam");
  scrub.max = F - 1;
  let frame = 0, playing = true, yaw = 0, pitch = 0.15, zoom = 1, selected = D.bones.indexOf(D.select);
  const colours = { L: "#1f77b4", R: "#d62728", C: "#464850" };
  // D.style: 0 not drawn (hidden helpers, or outside the chosen bone set), 1 body, 2 a physics
  // chain (thinner, lighter); D.lines: the drawn ancestor each bone's line goes to, or -1.
  const shown = (b) => D.style[b] !== 0;
  const centre = D.centre, radius = D.radius;
  function project(p, f) {
    const w = cv.width, h = cv.height;
    if (useCam && useCam.checked && D.camera) {
      const c = D.camera[f]; // eye, right, up, forward, fov
      const v = [p[0] - c[0], p[1] - c[1], p[2] - c[2]];
      const x = v[0] * c[3] + v[1] * c[4] + v[2] * c[5];
      const y = v[0] * c[6] + v[1] * c[7] + v[2] * c[8];
      const z = v[0] * c[9] + v[1] * c[10] + v[2] * c[11];
      if (z < 0.5) return null;
      const k = h / 2 / Math.tan((c[12] * Math.PI) / 360);
      return [w / 2 + (x / z) * k, h / 2 - (y / z) * k, z];
    }
    // Orbit camera: the front view looks at the model's face (MMD models face -Z).
    const q = [p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]];
    const cy = Math.cos(yaw), sy = Math.sin(yaw), cp = Math.cos(pitch), sp = Math.sin(pitch);
    const x = q[0] * cy - q[2] * sy, z0 = q[0] * sy + q[2] * cy;
    const y = q[1] * cp - z0 * sp, z = q[1] * sp + z0 * cp;
    const s = (Math.min(w, h) / (2.4 * radius)) * zoom, d = 4 * radius;
    const k = d / (d + z);
    return [w / 2 + x * s * k, h / 2 - y * s * k, z];
  }
  function at(f, b) { const i = (f * B + b) * 3; return [pos[i], pos[i + 1], pos[i + 2]]; }
  let screen = [];
  function draw() {
    ctx.fillStyle = "#fafaf7"; ctx.fillRect(0, 0, cv.width, cv.height);
    ctx.strokeStyle = "#cdcfd4"; ctx.lineWidth = 1;
    for (let g = -D.grid; g <= D.grid; g += 5) for (const [a, b] of [[[g, 0, -D.grid], [g, 0, D.grid]], [[-D.grid, 0, g], [D.grid, 0, g]]]) {
      const pa = project(a, frame), pb = project(b, frame);
      if (pa && pb) { ctx.beginPath(); ctx.moveTo(pa[0], pa[1]); ctx.lineTo(pb[0], pb[1]); ctx.stroke(); }
    }
    screen = [];
    for (let b = 0; b < B; b++) screen.push(project(at(frame, b), frame));
    ctx.lineCap = "round";
    for (let b = 0; b < B; b++) {
      const p = D.lines[b];
      if (p < 0 || !screen[b] || !screen[p]) continue;
      ctx.strokeStyle = colours[D.sides[b]]; ctx.lineWidth = D.style[b] === 2 ? 1.5 : 3; ctx.globalAlpha = D.style[b] === 2 ? 0.5 : 1;
      ctx.beginPath(); ctx.moveTo(screen[b][0], screen[b][1]); ctx.lineTo(screen[p][0], screen[p][1]); ctx.stroke();
    }
    ctx.globalAlpha = 1;
    for (let b = 0; b < B; b++) {
      const s = screen[b]; if (!s || !shown(b)) continue;
      if (D.ik[b]) { ctx.globalAlpha = 1; ctx.strokeStyle = "#f09600"; ctx.lineWidth = 1.5; ctx.strokeRect(s[0] - 5, s[1] - 5, 10, 10); continue; }
      ctx.fillStyle = b === selected ? "#000" : colours[D.sides[b]];
      ctx.globalAlpha = D.style[b] === 2 && b !== selected ? 0.5 : 1;
      ctx.beginPath(); ctx.arc(s[0], s[1], b === selected ? 5 : D.style[b] === 2 ? 2 : 3, 0, 7); ctx.fill();
    }
    ctx.globalAlpha = 1;
    label.textContent = "frame " + (frame * 30 / D.fps).toFixed(D.fps === 30 ? 0 : 1);
    scrub.value = frame;
    drawCurve();
  }
  function drawCurve() {
    const w = plot.width, h = plot.height;
    pctx.fillStyle = "#fafaf7"; pctx.fillRect(0, 0, w, h);
    if (selected < 0) { pctx.fillStyle = "#282a30"; pctx.fillText("click a joint to plot its position", 8, 16); return; }
    let lo = Infinity, hi = -Infinity;
    for (let f = 0; f < F; f++) for (const v of at(f, selected)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
    if (hi - lo < 1e-6) { lo -= 1; hi += 1; }
    ["#d62728", "#2ca02c", "#1f77b4"].forEach((c, a) => {
      pctx.strokeStyle = c; pctx.beginPath();
      for (let f = 0; f < F; f++) {
        const x = (f / Math.max(1, F - 1)) * (w - 10) + 5, y = h - 5 - ((at(f, selected)[a] - lo) / (hi - lo)) * (h - 25);
        f ? pctx.lineTo(x, y) : pctx.moveTo(x, y);
      }
      pctx.stroke();
    });
    const x = (frame / Math.max(1, F - 1)) * (w - 10) + 5;
    pctx.strokeStyle = "#282a30"; pctx.beginPath(); pctx.moveTo(x, 18); pctx.lineTo(x, h); pctx.stroke();
    pctx.fillStyle = "#282a30"; pctx.fillText(D.bones[selected] + " position x (red), y (green), z (blue)", 8, 12);
  }
  function nearest(ev) {
    const r = cv.getBoundingClientRect(), mx = ev.clientX - r.left, my = ev.clientY - r.top;
    let best = -1, bd = 64;
    screen.forEach((s, b) => { if (s && shown(b)) { const d = (s[0] - mx) ** 2 + (s[1] - my) ** 2; if (d < bd) { bd = d; best = b; } } });
    return best;
  }
  let drag = null;
  cv.addEventListener("mousedown", (e) => { drag = [e.clientX, e.clientY, false]; });
  window.addEventListener("mouseup", (e) => { if (drag && !drag[2]) { const b = nearest(e); if (b >= 0) { selected = b; draw(); } } drag = null; });
  cv.addEventListener("mousemove", (e) => {
    if (drag) {
      const dx = e.clientX - drag[0], dy = e.clientY - drag[1];
      if (Math.abs(dx) + Math.abs(dy) > 2) drag[2] = true;
      yaw += dx * 0.01; pitch = Math.max(-1.5, Math.min(1.5, pitch + dy * 0.01));
      drag[0] = e.clientX; drag[1] = e.clientY; draw();
    }
    const b = nearest(e);
    hover.textContent = b >= 0 ? D.bones[b] : "";
  });
  cv.addEventListener("wheel", (e) => { e.preventDefault(); zoom *= Math.exp(-e.deltaY * 0.001); draw(); }, { passive: false });
  scrub.addEventListener("input", () => { frame = +scrub.value; draw(); });
  play.addEventListener("click", () => { playing = !playing; play.textContent = playing ? "pause" : "play"; });
  if (useCam) useCam.addEventListener("change", draw);
  // A timer rather than requestAnimationFrame: it also runs in hidden and headless pages.
  let last = performance.now(), acc = 0;
  setInterval(() => {
    const now = performance.now();
    if (playing && F > 1) { acc += (now - last) / 1000; const n = Math.floor(acc * D.fps); if (n > 0) { acc -= n / D.fps; frame = (frame + n) % F; draw(); } }
    last = now;
  }, 1000 / Math.min(60, D.fps));
  draw();
  window.vmdkitViewer = { frame: () => frame };
})();
