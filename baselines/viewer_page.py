"""The page that :func:`stratagem.baselines.viewer.write_viewer` writes: HTML, style and script.

The viewer is one self-contained file, so its markup, style sheet and player script live here
as one template, apart from the Python that replays the game and encodes its pictures: the two
change for different reasons (the page's look and controls, the record and picture format).
:func:`~stratagem.baselines.viewer.write_viewer` fills ``%%TITLE%%`` (HTML-escaped) and
``%%DATA%%`` (the game's JSON, with ``</`` escaped); the script reads the frames as the
viewer's docstring describes (a keyframe PNG, then the changed ``TILE`` squares packed in one
PNG per decision).
"""

from __future__ import annotations

__all__ = ["PAGE_TEMPLATE"]

#: The whole page, with ``%%TITLE%%`` and ``%%DATA%%`` to fill in.
PAGE_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%%TITLE%%</title>
<style>
  body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif;
         margin: 0; background: #f3f1ec; color: #1a1a1e; }
  header { background: #262a34; color: #fff; padding: 8px 14px; }
  header h1 { font-size: 18px; margin: 0; font-weight: 600; }
  header .sub { font-size: 12px; color: #c8cad2; margin-top: 2px; }
  main { display: flex; gap: 14px; padding: 10px 14px; align-items: flex-start; }
  #left { flex: 1 1 auto; min-width: 0; }
  #board { max-width: 100%; height: auto; border: 1px solid #bbb; background: #fff;
           image-rendering: auto; }
  #controls { display: flex; gap: 6px; align-items: center; margin: 6px 0; flex-wrap: wrap; }
  #controls button { font-size: 15px; min-width: 40px; padding: 4px 8px; cursor: pointer; }
  #slider { flex: 1 1 300px; }
  #info { font-size: 15px; line-height: 1.5; background: #fff; border: 1px solid #ccc;
          padding: 6px 10px; }
  #info b { display: inline-block; min-width: 9em; }
  #side { flex: 0 0 300px; max-height: 92vh; overflow-y: auto; background: #fff;
          border: 1px solid #ccc; font-size: 13px; }
  #log { list-style: none; margin: 0; padding: 0; }
  #log li { padding: 1px 6px; cursor: pointer; white-space: nowrap; }
  #log li:hover { background: #eef; }
  #log li.cur { background: #ffe8a0; }
  .p0 { color: #b02020; } .p1 { color: #2040b0; } .p2 { color: #207020; }
  .p3 { color: #806000; } .p4 { color: #700070; }
  .help { font-size: 12px; color: #666; }
  @media (max-width: 900px) { main { flex-direction: column; } #side { flex: none; width: 100%; } }
</style>
</head>
<body>
<header><h1 id="title">%%TITLE%%</h1><div class="sub" id="sub"></div></header>
<main>
<div id="left">
  <div id="controls">
    <button id="first" title="first position (Home)">|&lt;</button>
    <button id="back10" title="10 back (Page Up)">&lt;&lt;</button>
    <button id="prev" title="previous (Left arrow)">&lt;</button>
    <button id="play" title="play / pause (Space)">play</button>
    <button id="next" title="next (Right arrow)">&gt;</button>
    <button id="fwd10" title="10 forward (Page Down)">&gt;&gt;</button>
    <button id="last" title="last position (End)">&gt;|</button>
    <input id="slider" type="range" min="0" value="0" step="1" aria-label="decision">
    <select id="speed" title="playback speed">
      <option value="1000">1/s</option><option value="400" selected>2.5/s</option>
      <option value="150">7/s</option><option value="40">25/s</option>
    </select>
  </div>
  <div id="info"></div>
  <canvas id="board" width="10" height="10"></canvas>
  <div class="help">Keys: Left/Right arrows step, Page Up/Down jump 10, Home/End, Space plays.
  The picture shows the position before the action taken.</div>
</div>
<div id="side"><ul id="log"></ul></div>
</main>
<script id="data" type="application/json">%%DATA%%</script>
<script>
"use strict";
const D = JSON.parse(document.getElementById("data").textContent);
const N = D.steps.length - 1;            // decisions; positions are 0..N
const canvas = document.getElementById("board");
const ctx = canvas.getContext("2d");
const slider = document.getElementById("slider");
const info = document.getElementById("info");
const log = document.getElementById("log");
const images = new Array(D.frames.length);
const keyOf = new Array(D.frames.length);
let shown = -1, cur = 0, timer = null;
for (let i = 0, k = 0; i < D.frames.length; i++) {
  if (D.frames[i].k) k = i;
  keyOf[i] = k;
}
function esc(s) {
  const table = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"};
  return String(s).replace(/[&<>"]/g, c => table[c]);
}
function who(p) {
  return p < 0 ? "nobody" : `player ${p} (${esc(D.names[p])})`;
}
function paint(i) {
  // draw the keyframe before i (unless the canvas already shows a frame of that run) and the
  // changes after it, up to i
  let from;
  if (shown >= 0 && shown <= i && keyOf[shown] === keyOf[i]) {
    from = shown + 1;
  } else {
    const k = keyOf[i], img = images[k];
    if (canvas.width !== img.naturalWidth || canvas.height !== img.naturalHeight) {
      canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
    }
    ctx.drawImage(img, 0, 0);
    from = k + 1;
  }
  for (let j = from; j <= i; j++) {
    const f = D.frames[j];
    if (!f.tiles) continue;
    const img = images[j], t = D.tile;
    for (let n = 0; n < f.tiles.length / 2; n++) {
      const sx = (n % f.cols) * t, sy = Math.floor(n / f.cols) * t;
      ctx.drawImage(img, sx, sy, t, t, f.tiles[2 * n], f.tiles[2 * n + 1], t, t);
    }
  }
  shown = i;
}
function boardSum() {
  // a cheap fingerprint of the picture, read by the tests
  const d = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
  let h = 0;
  for (let i = 0; i < d.length; i += 7) h = (h * 31 + d[i]) >>> 0;
  return h;
}
function show(i) {
  cur = Math.max(0, Math.min(N, i | 0));
  paint(cur);
  slider.value = cur;
  const s = D.steps[cur];
  let html = `<b>decision</b> ${cur} / ${N}<br>`;
  if (cur < N) {
    html += `<b>to move</b> <span class="p${s[0]}">${who(s[0])}</span><br>`;
    html += `<b>legal actions</b> ${s[1]}<br>`;
    html += `<b>action taken</b> ${esc(s[3])} <span class="help">(index ${s[2]})</span>`;
  } else if (D.returns) {
    html += `<b>game over</b> returns: ` +
      D.returns.map((r, p) => `<span class="p${p}">${esc(D.names[p])} ${r}</span>`).join(", ");
  } else {
    html += `<b>game not finished</b> (the record stops here` +
      (s[0] >= 0 ? `; ${who(s[0])} to move, ${s[1]} legal actions` : "") + ")";
  }
  info.innerHTML = html;
  const old = log.querySelector("li.cur");
  if (old) old.classList.remove("cur");
  const li = log.children[cur];
  if (li) {
    li.classList.add("cur");
    const top = li.offsetTop, box = log.parentElement;
    if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - 20) {
      box.scrollTop = top - 80;
    }
  }
  document.body.dataset.step = String(cur);
  document.body.dataset.board = String(boardSum());
  if (location.hash !== `#step=${cur}` && !location.hash.startsWith("#keys=")) {
    history.replaceState(null, "", `#step=${cur}`);
  }
}
function play() {
  const button = document.getElementById("play");
  if (timer) { clearInterval(timer); timer = null; button.textContent = "play"; return; }
  if (cur >= N) show(0);
  button.textContent = "pause";
  timer = setInterval(() => { if (cur >= N) play(); else show(cur + 1); },
                      +document.getElementById("speed").value);
}
function key(e) {
  const k = e.key;
  if (k === "ArrowRight") show(cur + 1);
  else if (k === "ArrowLeft") show(cur - 1);
  else if (k === "PageDown") show(cur + 10);
  else if (k === "PageUp") show(cur - 10);
  else if (k === "Home") show(0);
  else if (k === "End") show(N);
  else if (k === " ") play();
  else return;
  e.preventDefault();
}
function start() {
  slider.max = N;
  const cfg = Object.entries(D.config).filter(([k, v]) => v !== null && v !== "")
    .map(([k, v]) => `${k}=${v}`).join(", ");
  document.getElementById("sub").textContent =
    `${D.game}, seed ${D.seed}` + (cfg ? `, ${cfg}` : "") + `; ${N} decisions` +
    (D.observer !== null ? `; seen by player ${D.observer}` : "");
  const parts = [];
  for (let i = 0; i <= N; i++) {
    const s = D.steps[i];
    parts.push(i < N
      ? `<li data-i="${i}"><span class="p${s[0]}">${i}. p${s[0]}</span> ${esc(s[3])}</li>`
      : `<li data-i="${i}"><b>${D.returns ? "end: " + D.returns.join(" / ") : "record ends"}` +
        `</b></li>`);
  }
  log.innerHTML = parts.join("");
  log.addEventListener("click", e => {
    const li = e.target.closest("li");
    if (li) show(+li.dataset.i);
  });
  document.getElementById("first").onclick = () => show(0);
  document.getElementById("back10").onclick = () => show(cur - 10);
  document.getElementById("prev").onclick = () => show(cur - 1);
  document.getElementById("next").onclick = () => show(cur + 1);
  document.getElementById("fwd10").onclick = () => show(cur + 10);
  document.getElementById("last").onclick = () => show(N);
  document.getElementById("play").onclick = play;
  slider.addEventListener("input", () => show(+slider.value));
  document.addEventListener("keydown", key);
  const m = /^#(step|keys)=(\\d+)$/.exec(location.hash);
  if (m && m[1] === "step") show(+m[2]);
  else show(0);
  if (m && m[1] === "keys") {
    // used by the tests: press the right arrow that many times, as a person would, then
    // paint the same position from its keyframe to check both ways give the same picture
    document.body.dataset.board0 = document.body.dataset.board;
    for (let i = 0; i < +m[2]; i++) {
      document.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowRight", bubbles: true}));
    }
    shown = -1;
    paint(cur);
    document.body.dataset.direct = String(boardSum());
  }
  document.body.dataset.ready = "1";
}
let pending = D.frames.length;
D.frames.forEach((f, i) => {
  if (!f.png) { if (--pending === 0) start(); return; }
  const img = new Image();
  img.onload = () => { if (--pending === 0) start(); };
  img.src = "data:image/png;base64," + f.png;
  images[i] = img;
});
</script>
</body>
</html>
"""
