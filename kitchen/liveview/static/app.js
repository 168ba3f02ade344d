// kitchensync · the pass: draws the pipeline from the frames the Go
// process streams over Server-Sent Events (GET /events), and posts the
// buttons (POST /actions/…). Plain JavaScript, no framework, no build step.
"use strict";

const $ = (sel, root = document) => root.querySelector(sel);
const NS = "http://www.w3.org/2000/svg";
const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v; else if (k === "text") e.textContent = v; else e.setAttribute(k, v);
  }
  for (const k of kids) if (k != null) e.append(k);
  return e;
};
const svg = (tag, attrs = {}, text) => {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text != null) e.textContent = text;
  return e;
};
const short = (key) => (key || "").split("/").pop();
// The setters of the per-frame drawing touch the DOM only where a value
// changed: an unchanged write still costs the page style and layout work.
// setText writes into the element's one text node where it has one: a
// new text node (what textContent makes) is a node the page must add to
// its layout tree, and the old one one to take out.
const setText = (node, s) => {
  const t = node.firstChild;
  if (t && t.nodeType === Node.TEXT_NODE && !t.nextSibling) { if (t.data !== s) t.data = s; } else if (node.textContent !== s) node.textContent = s;
};
const setAttr = (node, k, v) => { if (node.getAttribute(k) !== v) node.setAttribute(k, v); };
const setProp = (node, k, v) => { if (node[k] !== v) node[k] = v; };
const reduceMotion = matchMedia("(prefers-reduced-motion: reduce)").matches;

// ---- the pipeline's stages ---------------------------------------------
// Each stage: its title, the place of its box in the wide layout (a loop:
// the runner's half on top, the controller's half below) and how many
// lines of detail it shows; the narrow layout stacks the boxes. A box is
// wide enough for its lines (a line is 10.5 px monospace, CHAR_W a
// character); the arrows between boxes join their title bars, and their
// labels stand above the boxes, so that a narrow gap hides none.
const STAGES = [
  { id: "waiter", title: "Waiter", wide: [6, 16, 100, 168], lines: 3 },
  { id: "apiserver", title: "API server", wide: [118, 16, 212, 168], lines: 7 },
  { id: "watch", title: "Watch", wide: [342, 16, 118, 168], lines: 5 },
  { id: "reflector", title: "Reflector", wide: [472, 16, 162, 168], lines: 5 },
  { id: "queue", title: "RealFIFO", wide: [646, 16, 164, 168], lines: 6 },
  { id: "indexer", title: "Indexer (cache)", wide: [822, 16, 172, 168], lines: 6 },
  { id: "handlers", title: "Handlers", wide: [822, 272, 172, 188], lines: 4 },
  { id: "rail", title: "Ticket rail", wide: [540, 272, 268, 188], lines: 7 },
  { id: "workers", title: "Workers", wide: [392, 272, 134, 188], lines: 4 },
  { id: "reconciler", title: "Reconciler", wide: [228, 272, 150, 188], lines: 5 },
  { id: "stations", title: "Cook stations", wide: [6, 272, 208, 188], lines: 6 },
];
const ORDER = STAGES.map((s) => s.id);
const ARROWS = [
  ["waiter", "apiserver", "create"], ["apiserver", "watch", "events"], ["watch", "reflector", ""],
  ["reflector", "queue", "deltas"], ["queue", "indexer", "pop"], ["indexer", "handlers", ""],
  ["handlers", "rail", "add"], ["rail", "workers", "get"], ["workers", "reconciler", ""],
  ["reconciler", "stations", "cooks"], ["reconciler", "apiserver", "writes back"],
];
const LINE_H = 12.5, HEAD_H = 18, TOK = 13, CHAR_W = 6.35;
const geo = {}; // stage id → [x, y, w, h] in the current layout
let narrow = null;

function layout() {
  const isNarrow = matchMedia("(max-width: 700px)").matches;
  if (isNarrow === narrow) return;
  narrow = isNarrow;
  let y = 8;
  for (const s of STAGES) {
    if (!narrow) { geo[s.id] = s.wide; continue; }
    const h = HEAD_H + s.lines * LINE_H + 8 + TOK * (s.id === "rail" ? 3 : 2);
    geo[s.id] = [8, y, 316, h];
    y += h + 24;
  }
  const pipe = $("#pipe");
  pipe.setAttribute("viewBox", narrow ? `0 0 360 ${y}` : "0 0 1000 470");
  drawSkeleton(pipe);
  tokens.clear();
  if (lastFrame) renderPipe(shownFrame());
}

// drawSkeleton draws the boxes and arrows once per layout.
const boxes = {}; // stage id → { g, count, lines[] }
function drawSkeleton(pipe) {
  for (const n of [...pipe.children]) if (n.tagName !== "title") n.remove();
  const defs = svg("defs");
  const m = svg("marker", { id: "head", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 6, markerHeight: 6, orient: "auto-start-reverse" });
  m.append(svg("path", { d: "M0,0 L10,5 L0,10 z", fill: "#9a917f" }));
  defs.append(m);
  pipe.append(defs);
  const arrows = svg("g", { id: "arrows" }), labels = svg("g", { id: "alabels" });
  for (const [a, b, label] of ARROWS) {
    const d = arrowPath(a, b);
    const p = svg("path", { class: "arrow" + (b === "apiserver" && a !== "waiter" ? " back" : ""), d: d.path, "data-from": a, "data-to": b });
    arrows.append(p);
    const at = { class: "alabel", x: d.lx, y: d.ly, "text-anchor": "middle" };
    if (d.turn) at.transform = `rotate(-90 ${d.lx} ${d.ly})`;
    if (label) labels.append(svg("text", at, label));
  }
  pipe.append(arrows);
  for (const s of STAGES) {
    const [x, y, w, h] = geo[s.id];
    const g = svg("g", { class: `st st-${s.id}`, id: `st-${s.id}`, transform: `translate(${x},${y})` });
    g.append(svg("rect", { class: "box", width: w, height: h, rx: 7 }));
    g.append(svg("rect", { class: "head", width: w, height: HEAD_H, rx: 7 }));
    const title = svg("text", { class: "title", x: 7, y: 13 }, s.title);
    const count = svg("text", { class: "count", x: w - 7, y: 13 }, "0");
    g.append(title, count);
    const lines = [];
    for (let i = 0; i < s.lines; i++) {
      const t = svg("text", { class: "line", x: 7, y: HEAD_H + 12 + i * LINE_H });
      lines.push(t);
      g.append(t);
    }
    boxes[s.id] = { g, title, count, lines, maxChars: Math.floor((w - 10) / CHAR_W) };
    pipe.append(g);
  }
  pipe.append(labels, svg("g", { id: "tokens" })); // the labels over the boxes, should one ever reach one
}

// arrowPath joins two boxes: side to side in a row, bottom to top
// between rows, and the reconciler's writes back up to the API server.
function arrowPath(a, b) {
  const [ax, ay, aw, ah] = geo[a], [bx, by, bw, bh] = geo[b];
  if (a === "reconciler" && b === "apiserver") {
    if (narrow) { // up the right-hand margin, its label along it
      const y1 = ay + 30, y2 = by + 30;
      return { path: `M${ax + aw},${y1} H${ax + aw + 14} V${y2} H${bx + bw + 2}`, lx: ax + aw + 28, ly: (y1 + y2) / 2, turn: true };
    }
    const x1 = ax + aw / 2, x2 = bx + bw / 2;
    return { path: `M${x1},${ay} V${ay - 40} H${x2} V${by + bh + 2}`, lx: (x1 + x2) / 2, ly: ay - 44 };
  }
  if (narrow || Math.abs(ay - by) > 40) { // one below the other
    const x = narrow ? ax + 40 : ax + aw / 2;
    const [y1, y2] = by > ay ? [ay + ah, by - 2] : [ay, by + bh + 2];
    return { path: `M${x},${y1} V${y2}`, lx: x + 26, ly: (y1 + y2) / 2 + 4 };
  }
  // Side by side: from title bar to title bar, the label above both.
  const y = ay + HEAD_H / 2;
  const [x1, x2] = bx > ax ? [ax + aw, bx - 2] : [ax, bx + bw + 2];
  return { path: `M${x1},${y} H${x2}`, lx: (x1 + x2) / 2, ly: ay - 4 };
}

// ---- the stream --------------------------------------------------------
let lastFrame = null;   // the newest frame
let followed = null;    // the followed order's name, or null
const snaps = [];       // frames kept for replay, oldest first
const SNAPS = 400;
let replayAt = -1;      // index in snaps while replaying, else -1
const queued = [];      // events waiting for the next animation frame
window.__renderMs = [];   // for the browser tests: how long each part took
window.__longTasks = [];

function connect() {
  const conn = $("#conn");
  const src = new EventSource("/events");
  src.addEventListener("frame", (e) => {
    conn.textContent = "live"; conn.className = "conn live";
    const f = JSON.parse(e.data);
    lastFrame = f;
    // The page is drawn once per animation frame, from the newest frame,
    // with the events of every frame since the last.
    if (f.events && f.events.length) queued.push(...f.events);
    const { events, ...state } = f;
    snaps.push(state);
    if (snaps.length > SNAPS) { snaps.shift(); if (replayAt > 0) replayAt--; }
    for (const part of PARTS) due.add(part);
    if (!asked) { asked = true; requestAnimationFrame(paint); }
  });
  src.onerror = () => { conn.textContent = "reconnecting…"; conn.className = "conn down"; };
}

// A frame is drawn in two parts, each in an animation frame of its own:
// the header and the picture, then the lists and the counters. Drawn
// together, a rush frame's script, style and layout took the page past
// its 16 ms on a busy machine; each part is about half of it. This
// spreads the work, it does not cut it: the two parts cost what the
// whole did, and the lists show a frame one animation frame later. A part
// always draws the newest frame, and the parts take turns, so that frames
// coming faster than two animation frames starve neither. Each part's
// time is counted (window.__renderMs has one entry per part drawn), so
// the split hides no work from the measure.
const PARTS = [renderTop, renderLists];
const due = new Set(); // the parts the newest frame has not drawn yet
let asked = false;     // an animation frame is asked for
let turn = 0;          // the part to try first
function paint() {
  asked = false;
  const i = PARTS.map((_, k) => (turn + k) % PARTS.length).find((k) => due.has(PARTS[k]));
  if (i === undefined || !lastFrame) return;
  due.delete(PARTS[i]);
  turn = (i + 1) % PARTS.length;
  const t0 = performance.now();
  PARTS[i](lastFrame);
  if (window.__measure) void document.body.offsetHeight; // count style and layout too
  window.__renderMs.push(performance.now() - t0);
  if (window.__renderMs.length > 5000) window.__renderMs.shift();
  if (due.size) { asked = true; requestAnimationFrame(paint); }
}

// renderTop draws the header and, live, the picture.
function renderTop(f) {
  setText($("#rv"), f.rv);
  renderSpeed(String(Math.round(f.minuteMs)));
  const slow = $("#slow");
  setAttr(slow, "aria-pressed", String(f.slowMs > 0));
  setText(slow.lastChild, f.slowMs > 0 ? ` desk slowed (${f.slowMs} ms)` : " slow the desk");
  renderGate(f.gate);
  renderScene(f.scene);
  if (replayAt < 0) renderPipe(f);
}

// renderLists draws the log, the orders, the followed one, the counters
// and the replay bar.
function renderLists(f) {
  takeEvents(queued.splice(0));
  renderCounters(f);
  renderOrders(f.orders || []);
  renderFollowBar(f);
  setProp($("#scrub"), "max", String(snaps.length - 1));
  if (replayAt < 0) setProp($("#scrub"), "value", String(snaps.length - 1));
}

const shownFrame = () => (replayAt >= 0 ? snaps[replayAt] : lastFrame);

// ---- the picture -------------------------------------------------------
function renderPipe(f) {
  const p = f.pipe, c = p.counts;
  const refl = p.reflectors || [];
  const orders = refl.find((r) => r.resource === "orders") || { lists: 0, watches: 0, now: "", events: 0 };
  const gateHeld = (f.gate && f.gate.waiting) || [];
  const heldAt = (stage) => gateHeld.filter((h) => h.stage === stage).length;
  fill("waiter", f.counters.placed, [["orders placed", "dim"], ["here, or with", "dim"], ["kubectl", "dim"]]);
  fill("apiserver", "rv " + f.rv, [
    ...(p.commits || []).slice(-5).map((x) => [`${x.rv} ${x.kind} ${x.name} ${x.action}`, ""]),
    c.conflicts ? [`409 Conflict refused: ${c.conflicts}`, "hot"] : [`${c.commits} writes`, "dim"],
    c.notes ? [`+${c.notes} Events (the chef's notes)`, "dim"] : null]);
  fill("watch", refl.filter((r) => r.watching).length, [
    ...refl.map(watchLine),
    [`${c.events} events in`, "dim"], heldAt("watch") ? [`${heldAt("watch")} held at the gate`, "hot"] : null]);
  fill("reflector", orders.lists, [
    ...refl.map((r) => [`${r.resource}: ${r.lists} list, ${r.watches} watch`, ""]),
    ["now: " + orders.now.replace(" orders", ""), /410|LIST/.test(orders.now) ? "hot" : "dim"]]);
  setText(boxes.queue.title, p.queue || "queue");
  fill("queue", p.fifoLen, (p.fifo || []).length ? (p.fifo || []).map((e) => [`${short(e.key)} ${e.deltas.join(", ")}`, ""]) : [["empty: each event goes", "dim"], ["straight to the indexer", "dim"]]);
  fill("indexer", p.cache, [["index by section:", "dim"],
    ...(p.index || []).map((r) => [`${r.value} ${r.count}:`, "", r.names]), [`${c.cached} updates`, "dim"]]);
  fill("handlers", c.handled, [["OnAdd/OnUpdate/OnDelete", "dim"], ["→ the chef's For, Owns", "dim"],
    [`dropped by predicates: ${c.dropped}`, ""], [`${c.pinned} tickets, ${c.merged} merged`, "dim"]]);
  const r = p.rail;
  fill("rail", r.queued, [
    [`ready ${r.queued} · token ${r.token} · delayed ${r.delayed}`, r.token ? "hot" : ""],
    [`backoff ${r.rateLimited} · processing ${r.processing} · dirty ${r.dirty}`, r.dirty ? "hot" : ""],
    [`bucket: ${p.bucket}`, "dim"],
    ...(p.tickets || []).slice(0, 4).map((t) => [ticketText(t), t.key === followedKey() ? "hot" : ""])]);
  const busy = (p.workers || []).length;
  fill("workers", busy + heldAt("workers"), [
    ...(p.workers || []).map((w) => [`#${w.worker} ${short(w.key)} ${w.for}ms`, ""]),
    ...gateHeld.filter((h) => h.stage === "workers").map((h) => [`held: ${short(h.key)}`, "hot"])]);
  fill("reconciler", f.counters.reconciles, [
    [`errors ${f.counters.errors}`, f.counters.errors ? "hot" : "dim"], [`409s: ${c.conflicts}`, c.conflicts ? "hot" : "dim"],
    [`stale skips: ${c.staleSkips || 0}`, c.staleSkips ? "hot" : "dim"],
    ["reads the cache,", "dim"], ["writes the API server", "dim"]]);
  fill("stations", (p.stations || []).reduce((n, s) => n + s.busy, 0), (p.stations || []).map((s) =>
    s.cooks.length ? [`${s.name} ${s.busy}:`, "", s.cooks.map((k) => short(k.order))] : [`${s.name} ${s.busy}: free`, "dim"]));
  for (const s of STAGES) boxes[s.id].g.classList.toggle("held", heldAt(s.id) > 0);
  renderTokens(f);
  renderFollowPath(f);
  renderNotes(f.notes || []);
}

// watchLine says what a reflector's watch is doing: open from an rv; cut
// by the server; watching again after a clean close; or, after an error,
// a 410 or a very short watch, waiting out its backoff before it lists
// again (the count of watches in the reflector's box is of all so far).
const WATCH_WORDS = { cut: ["cut", "hot"], "re-watching": ["re-watch", ""], backoff: ["backoff", "hot"], listed: ["listed", ""] };
function watchLine(r) {
  if (!r.watches && r.state !== "backoff") return [`${r.resource}: opened earlier`, "dim"];
  if (r.watching) return [`${r.resource} ← rv ${r.from}`, ""];
  const [word, cls] = WATCH_WORDS[r.state] || ["cut", "hot"];
  return [`${r.resource} ${word}`, cls];
}

function ticketText(t) {
  const name = (t.priority >= 100 ? "★" : "") + short(t.key);
  const due = t.dueIn ? ` ${(t.dueIn / 1000).toFixed(1)}s` : "";
  return `${name} ${t.state}${due}${t.dirty ? " dirty" : ""}${t.merged ? ` +${t.merged} merged` : ""}`;
}

// fill writes a stage's count and lines, touching only what changed.
// Each line is [text, class] or [text, class, names]: a text too long for
// the box breaks between words onto a second line; names follow the text
// as many as fit, then "+N".
function fill(id, count, lines) {
  const b = boxes[id], n = b.maxChars;
  setText(b.count, String(count));
  const ls = [];
  for (const l of lines) {
    if (!l) continue;
    const [text, cls, names] = l;
    for (const part of names ? [fitNames(text, names, n)] : wrap(text, n)) ls.push([part, cls]);
  }
  b.lines.forEach((t, i) => {
    const [text, cls] = ls[i] || ["", ""];
    setText(t, i === b.lines.length - 1 && ls.length > b.lines.length ? `… ${ls.length - i} more` : text);
    setAttr(t, "class", "line" + (cls ? " " + cls : ""));
  });
}

// wrap breaks text into at most two lines of n characters, between words
// (the second indented), and cuts what still does not fit.
function wrap(text, n) {
  if (text.length <= n) return [text];
  let at = text.lastIndexOf(" ", n);
  if (at < n / 2) at = n;
  const rest = "  " + text.slice(at).trimStart();
  return [text.slice(0, at), rest.length <= n ? rest : rest.slice(0, n - 1) + "…"];
}

// fitNames is text and as many of names as fit in n characters, then
// "+N" for the rest.
function fitNames(text, names, n) {
  let out = text;
  for (let i = 0; i < names.length; i++) {
    const more = i < names.length - 1 ? ` +${names.length - i - 1}` : "";
    if ((out + " " + names[i] + more).length > n) return `${out} +${names.length - i}`;
    out += " " + names[i];
  }
  return out;
}

// Tokens: one dot per open order, at the stage it is at now; a dot that
// changes stage travels along the arrows between.
const tokens = new Map(); // order key → { c, stage, slot }
const PHASE_FILL = { Pending: "#8c96a8", New: "#8c96a8", Cooking: "#c2452d", Ready: "#2f6fb3", Served: "#1f7a3d" };
let flights = 0; // dots set travelling in this frame: a rush moves the rest at once
const MAX_FLIGHTS = 12;
function renderTokens(f) {
  flights = 0;
  const layer = $("#tokens");
  const seen = new Set(), perStage = {};
  const heldKeys = new Set(((f.gate && f.gate.waiting) || []).map((h) => h.key));
  for (const o of f.orders || []) {
    if (o.at === "done" && o.name !== followed) continue;
    const at = o.at === "done" || !geo[o.at] ? "waiter" : o.at;
    seen.add(o.key);
    const slot = perStage[at] = (perStage[at] || 0) + 1;
    let t = tokens.get(o.key);
    if (!t) {
      const c = svg("circle", { class: "tok", r: 5, "data-order": o.name });
      c.append(svg("title", {}, o.name));
      layer.append(c);
      t = { c, stage: null, slot: 0, pos: null };
      tokens.set(o.key, t);
    }
    const cls = "tok" + (o.priority >= 100 ? " vip" : "") + (heldKeys.has(o.key) ? " heldtok" : "") + (o.name === followed ? " me" : "");
    setAttr(t.c, "class", cls);
    const fillColour = PHASE_FILL[o.phase] || "#5b3fa0";
    setAttr(t.c, "fill", fillColour);
    moveToken(t, at, slot - 1);
  }
  for (const [key, t] of tokens) if (!seen.has(key)) { t.c.remove(); tokens.delete(key); }
  for (const [stage, n] of Object.entries(perStage)) overflow(stage, n);
}

function slotPos(stage, i) {
  const [x, y, w, h] = geo[stage];
  const s = STAGES[ORDER.indexOf(stage)];
  const cols = Math.max(1, Math.floor((w - 14) / TOK));
  const rows = Math.max(1, Math.floor((h - HEAD_H - s.lines * LINE_H - 10) / TOK));
  const k = Math.min(i, cols * rows - 1);
  return [x + 10 + (k % cols) * TOK, y + h - 9 - Math.floor(k / cols) * TOK, cols * rows];
}

const more = {};
function overflow(stage, n) {
  const cap = slotPos(stage, 0)[2];
  let t = more[stage];
  if (n <= cap) { if (t) setText(t, ""); return; }
  if (!t || !t.isConnected) { t = more[stage] = svg("text", { class: "more", "text-anchor": "end" }); $("#tokens").append(t); }
  const [x, y, w, h] = geo[stage];
  setAttr(t, "x", String(x + w - 6)); setAttr(t, "y", String(y + h - 4));
  setText(t, `+${n - cap + 1}`);
}

function moveToken(t, stage, slot) {
  const [x, y] = slotPos(stage, slot);
  if (t.pos && t.pos[0] === x && t.pos[1] === y) return;
  const from = t.stage;
  t.stage = stage; t.slot = slot;
  const prev = t.pos;
  t.pos = [x, y];
  t.c.setAttribute("cx", x); t.c.setAttribute("cy", y);
  if (!prev || from === stage || reduceMotion || replayAt >= 0 || document.hidden || !from || ++flights > MAX_FLIGHTS) return;
  // Travel along the arrows: through each stage between, in pipeline order.
  const a = ORDER.indexOf(from), b = ORDER.indexOf(stage);
  const via = b > a ? ORDER.slice(a + 1, b) : [];
  const pts = [prev, ...via.map((s) => { const [gx, gy, gw, gh] = geo[s]; return [gx + gw / 2, gy + gh / 2]; }), [x, y]];
  const frames = pts.map(([px, py]) => ({ transform: `translate(${px - x}px, ${py - y}px)` }));
  t.c.animate(frames, { duration: Math.min(700, 160 * (pts.length - 1)), easing: "ease-in-out" });
}

// renderFollowPath lights up the stages and arrows the followed order
// crossed.
function renderFollowPath(f) {
  const o = followed && (f.orders || []).find((x) => x.name === followed);
  const visited = new Set(o ? o.stages : []);
  for (const s of STAGES) boxes[s.id].g.classList.toggle("on", visited.has(s.id) || (o && o.at === s.id));
  for (const a of document.querySelectorAll("#arrows .arrow")) {
    a.classList.toggle("on", !!o && visited.has(a.dataset.from) && visited.has(a.dataset.to));
  }
}

function renderNotes(notes) {
  const ol = $("#notes");
  const sig = notes.map((n) => n.seq).join(",");
  if (ol.dataset.sig === sig) return;
  ol.dataset.sig = sig;
  ol.replaceChildren(...notes.slice(-4).map((n) => el("li", { class: n.class || "", text: n.text })));
}

// ---- the gate ----------------------------------------------------------
function renderGate(g) {
  const on = g && g.on;
  for (const id of ["#pause", "#resume"]) setProp($(id), "disabled", !on);
  setProp($("#step"), "disabled", !on || g.waiting.length === 0); // once: each change restyles the button
  const st = $("#gate-status");
  if (!on) { setText(st, "(no gate: watch only)"); return; }
  setAttr($("#pause"), "aria-pressed", String(g.paused));
  setText(st, g.paused ? `paused · ${g.waiting.length} held · ${g.stepped} stepped` : (g.waiting.length ? `${g.waiting.length} held for the scene` : "running"));
  setProp(st, "className", "gate-status" + (g.paused ? " paused" : ""));
  setAttr(st, "data-passed", String(g.passed));
  setAttr(st, "data-stepped", String(g.stepped));
  const ol = $("#held");
  setText($("#held-count"), g.waiting.length ? `${g.waiting.length} waiting; step lets the oldest go` : "");
  const sig = g.waiting.map((h) => h.id).join(",");
  if (ol.dataset.sig === sig) return;
  ol.dataset.sig = sig;
  if (!g.waiting.length) {
    ol.replaceChildren(el("li", { class: "empty", text: g.paused ? "nothing yet: the next hand-off will wait here" : "pause to hold the kitchen at its next hand-off" }));
    return;
  }
  ol.replaceChildren(...g.waiting.map((h) => {
    const b = el("button", { "data-id": String(h.id), text: "step", "aria-label": `step #${h.id}` });
    b.addEventListener("click", () => act("step", { id: String(h.id) }));
    return el("li", { "data-id": String(h.id), "data-stage": h.stage }, el("span", { text: `#${h.id} ${h.text}` }), b);
  }));
}

// ---- guided scenes -----------------------------------------------------
let sceneList = [];
const predictions = {}; // scene id → the choice picked
async function loadScenes() {
  try { sceneList = await (await fetch("/scenes")).json(); } catch { sceneList = []; }
  $("#scene-list").replaceChildren(...sceneList.map((s) => {
    const b = el("button", { "data-scene": s.id, text: s.title });
    b.addEventListener("click", () => askScene(s));
    return b;
  }));
}

let asking = null; // the scene whose question shows, before it runs
function askScene(s) {
  asking = s;
  for (const b of document.querySelectorAll("#scene-list button")) b.setAttribute("aria-current", String(b.dataset.scene === s.id));
  const body = $("#scene-body");
  body.hidden = false;
  body.dataset.scene = s.id; body.dataset.phase = "question";
  body.replaceChildren(el("p", { class: "q", text: s.question }), el("div", { class: "choices" }, ...s.choices.map((c, i) => {
    const b = el("button", { "data-choice": String(i), text: c });
    b.addEventListener("click", () => { predictions[s.id] = i; asking = null; closedRun = null; act("scene", { name: s.id }); });
    return b;
  })), el("p", { class: "hint", text: "Pick your prediction: the scene then runs the real kitchen and pauses at the hand-off that answers it." }));
}

let closedRun = null; // the run of the scene the reader closed
function renderScene(st) {
  const body = $("#scene-body");
  if (asking) return;
  if (!st || st.run === closedRun) { setProp(body, "hidden", true); return; }
  const s = sceneList.find((x) => x.id === st.id);
  if (!s) return;
  const sig = `${st.id}:${st.run}:${st.phase}:${st.said.length}:${st.key ? st.key.id : ""}`;
  if (body.dataset.sig === sig) return;
  body.dataset.sig = sig;
  body.hidden = false;
  body.dataset.scene = st.id; body.dataset.phase = st.phase;
  const picked = predictions[st.id];
  const kids = [el("p", { class: "q", text: s.question }),
    el("div", { class: "choices" }, ...s.choices.map((c, i) => el("button", { disabled: "",
      class: (i === picked ? "picked " : "") + (st.phase === "done" && i === st.answer ? "right" : ""), text: c }))),
    el("ol", { class: "said" }, ...st.said.map((t) => el("li", { text: t })))];
  if (st.phase === "setting") kids.push(el("p", { text: "setting the kitchen up…" }));
  if (st.phase === "held") {
    const next = el("button", { id: "scene-next", text: "step it" });
    next.addEventListener("click", () => act("scene-next"));
    kids.push(el("div", { class: "key" }, el("b", { text: "Paused at the key hand-off: " }), `#${st.key.id} ${st.key.text}`),
      el("p", { text: "The kitchen really waits here (see it held in the picture). Step it and watch what it causes." }), next);
  }
  if (st.phase === "running") kids.push(el("p", { text: "running on to the scene's end…" }));
  if (st.phase === "done") {
    const verdict = picked == null ? "" : picked === st.answer ? "You predicted it. " : "Not what you predicted. ";
    kids.push(el("p", { class: "verdict", text: verdict + "Answer: " + s.choices[st.answer] }), el("p", { class: "explain", text: st.explain }),
      el("p", {}, "Read on: ", el("code", { text: s.tour }), s.chapter ? (s.tour === "README.md" ? `, the section “${s.chapter}”` : ` (“${s.chapter}”)`) : "",
        ...s.docs.map((d) => el("span", {}, " · ", el("code", { text: d })))));
  }
  if (st.phase === "failed") kids.push(el("p", { class: "status bad", text: "The scene stopped: " + st.error }));
  const leave = el("button", { id: "scene-leave", text: st.phase === "done" || st.phase === "failed" ? "close" : "leave the scene" });
  leave.addEventListener("click", () => { closedRun = st.run; act("scene-leave"); body.hidden = true; body.dataset.sig = "closed"; });
  kids.push(el("div", { class: "row" }, leave));
  body.replaceChildren(...kids);
}

// ---- counters ----------------------------------------------------------
function renderCounters(f) {
  const c = f.counters;
  setText($("#c-api"), String(c.apiRequests));
  setText($("#c-poll"), String(c.polling));
  setText($("#c-rec"), c.reconciles + (c.errors ? ` (${c.errors} err)` : ""));
  setText($("#c-lat"), c.served ? `${c.p50.toFixed(0)} / ${c.p99.toFixed(0)}` : "–");
  setText($("#c-served"), `${c.served} / ${c.placed}`);
  const points = f.chart || [];
  const n = 90, w = 240, h = 60;
  const max = Math.max(4, ...points.map((p) => Math.max(p.depth, p.backlog)));
  const line = (val) => points.map((p, i) =>
    `${(w * (n - points.length + i) / (n - 1)).toFixed(1)},${(h - 2 - (h - 4) * val(p) / max).toFixed(1)}`).join(" ");
  setAttr($("#chart-depth"), "points", line((p) => p.depth));
  setAttr($("#chart-backlog"), "points", line((p) => p.backlog));
  setText($("#chart-max"), `(max ${max})`);
}

// renderSpeed shows the server's speed in the control when it changed,
// and not while the user is on the control.
let shownSpeed = null;
function renderSpeed(ms) {
  const speed = $("#speed");
  if (!speed.querySelector(`option[value="${ms}"]`)) speed.append(el("option", { value: ms, text: `1 min = ${ms} ms` }));
  if (ms === shownSpeed || document.activeElement === speed) return;
  shownSpeed = ms;
  speed.value = ms;
}

// ---- orders, the log and the followed one ------------------------------
// renderOrders keeps one row per order, in the order the page heard of
// them, so that rows never jump while frames arrive.
const rows = new Map();
function renderOrders(orders) {
  const list = $("#orders");
  // The rows of orders that left go first: removed after the loop below,
  // each would push every row after it into a move, and a moved row is
  // styled and laid out again.
  const keep = new Set(orders.map((o) => o.name));
  for (const [name, li] of rows) if (!keep.has(name)) { li.remove(); rows.delete(name); }
  orders.forEach((o, i) => {
    let li = rows.get(o.name);
    if (!li) { li = orderRow(o.name); rows.set(o.name, li); }
    updateRow(li.firstChild, o);
    if (list.children[i] !== li) list.insertBefore(li, list.children[i] || null);
  });
}

function orderRow(name) {
  const b = el("button", { class: "order", "data-name": name },
    el("span", { class: "name" }), el("span", { class: "items" }), el("span", { class: "at" }), el("span", { class: "phase" }));
  b.addEventListener("click", () => follow(followed === name ? null : name));
  return el("li", {}, b);
}

const STAGE_WORDS = { waiter: "at the waiter", apiserver: "at the API server", watch: "on the watch", reflector: "at the reflector",
  queue: "in the runner's queue", indexer: "in the cache", handlers: "at the handlers", rail: "on the rail",
  workers: "with a worker", reconciler: "being reconciled", stations: "at the stations", done: "done" };
const phaseOf = (o) => o.gone && o.phase !== "Refused" && o.phase !== "Cancelled" ? (o.phase === "Served" ? "Served" : "Gone")
  : (o.deleting && o.phase !== "Cancelled" ? "Deleting" : o.phase);

function updateRow(b, o) {
  const sig = `${o.phase}|${o.at}|${o.rv}|${o.gone}|${o.deleting}|${followed === o.name}|${(o.stages || []).length}`;
  if (b.dataset.sig === sig) return;
  b.dataset.sig = sig;
  const set = (k, v) => { if (b.getAttribute(k) !== v) b.setAttribute(k, v); };
  set("data-phase", o.phase);
  set("data-stages", (o.stages || []).join(" "));
  set("data-at", o.at);
  set("aria-pressed", String(followed === o.name));
  set("title", `${o.key} · table ${o.table} (${o.section || "main"})`);
  const [name, items, at, ph] = b.children;
  setText(name, (o.priority >= 100 ? "★ " : "") + o.name);
  setText(items, o.items || "…");
  setText(at, STAGE_WORDS[o.at] || o.at);
  const phase = phaseOf(o);
  if (ph.className !== "phase " + phase) ph.className = "phase " + phase;
  setText(ph, phase);
}

function renderFollowBar(f) {
  const bar = $("#follow-bar");
  const o = followed && (f.orders || []).find((x) => x.name === followed);
  setProp(bar, "hidden", !followed);
  if (!followed) return;
  setText($("#follow-name"), followed);
  const phase = o ? phaseOf(o) : "";
  setText($("#follow-phase"), phase);
  setProp($("#follow-phase"), "className", "phase " + phase);
  setText($("#follow-at"), o ? STAGE_WORDS[o.at] || o.at : "");
  if (o) syncDetail(o);
}

const followedKey = () => (followed && lastFrame ? (lastFrame.orders || []).find((o) => o.name === followed)?.key : null);

function follow(name) {
  followed = name;
  $("#detail").hidden = !name;
  $(".bottom").classList.toggle("no-detail", !name); // not :has(): that restyles the section at each new log line
  $("#follow-bar").hidden = !name;
  hist = [];
  histTop = 0;
  yamlRV = null;
  $("#history").replaceChildren();
  $("#yaml").textContent = "";
  refillLog();
  if (name) { setText($("#detail-name"), name); loadDetail(name); }
  if (lastFrame) { renderOrders(lastFrame.orders || []); renderFollowBar(lastFrame); renderPipe(shownFrame()); }
  if (name && matchMedia("(max-width: 900px)").matches) $("#detail").scrollIntoView({ block: "nearest" });
}

// The history: fetched when an order is followed, then kept from the
// frames' events, in cause-and-effect order: by the resourceVersion each
// event follows from, then by stage, then as told.
let hist = [];
let histTop = 0; // the newest event's number in hist
let yamlRV = null, detailBusy = false;
const RANK = Object.fromEntries(ORDER.map((s, i) => [s, i + 1]));
const causal = (a, b) => (a.cause || 0) - (b.cause || 0) || (RANK[a.stage] || 0) - (RANK[b.stage] || 0) || a.seq - b.seq;

// syncDetail fetches the followed order o again, its YAML and its
// history, only when it changed: a new resourceVersion; or, once it is
// done, events of it (o.last is the newest one's number) that a full
// frame left out. While it runs, the fetch of its next change brings
// those. Never once a frame.
function syncDetail(o) {
  const missed = o.last > histTop;
  if (o.rv !== yamlRV || (missed && o.at === "done")) loadDetail(o.name);
}

// loadDetail fetches the order name (GET /orders/{name}): its history,
// merged with what the frames told, and its YAML. One fetch at a time;
// a change while one is under way is fetched after it.
async function loadDetail(name) {
  if (detailBusy) return;
  detailBusy = true;
  const o = lastFrame && (lastFrame.orders || []).find((x) => x.name === name);
  if (o) yamlRV = o.rv;
  try {
    const res = await fetch(`/orders/${encodeURIComponent(name)}`);
    const d = await res.json();
    if (!res.ok || name !== followed) return;
    const seqs = new Set(d.history.map((e) => e.seq));
    hist = [...d.history, ...hist.filter((e) => !seqs.has(e.seq))].sort(causal);
    for (const e of hist) histTop = Math.max(histTop, e.seq);
    $("#history").replaceChildren(...hist.map(historyItem));
    if (d.left) $("#history").prepend(el("li", { text: `(${d.left} events in the middle left out)` }));
    showYAML(d);
  } catch (e) { say(String(e), true); } finally { detailBusy = false; }
}

function showYAML(d) {
  yamlRV = d.order.rv;
  setText($("#yaml"), d.yaml || "# not in the runner's cache yet");
}

const historyItem = (ev) => el("li", { class: ev.class || "", "data-stage": ev.stage, "data-seq": String(ev.seq), "data-cause": String(ev.cause || 0) },
  el("b", { text: ev.stage + " " }), ev.text, ev.rv ? el("span", { class: "ver", text: ` rv ${ev.rv}` }) : null);

function addToHistory(ev) {
  if (hist.some((e) => e.seq === ev.seq)) return;
  histTop = Math.max(histTop, ev.seq);
  let i = hist.length;
  while (i > 0 && causal(hist[i - 1], ev) > 0) i--;
  hist.splice(i, 0, ev);
  const ol = $("#history");
  const next = hist[i + 1];
  const before = next ? ol.querySelector(`li[data-seq="${next.seq}"]`) : null;
  ol.insertBefore(historyItem(ev), before);
}

// The log of hand-offs: oldest first, the newest at the bottom. The list
// is drawn bottom up (flex-direction: column-reverse), so that it stays at
// the newest by itself, and stays put while the reader scrolls up. A
// burst (a rush brings 160 events a frame) adds only its newest
// LOG_PER_FRAME items and one line that counts the rest: nobody reads
// faster, and each new item costs the page a layout. The list keeps at
// most LOG_SHOWN items, and the items that fall off its top are reused.
const logEvents = [];
const LOG_KEEP = 2000, LOG_SHOWN = 120, LOG_PER_FRAME = 16;
const logPool = [];
function takeEvents(evs) {
  if (!evs.length) return;
  const key = followedKey();
  const shown = [];
  for (const ev of evs) {
    if (key && ev.order === key) addToHistory(ev);
    if (!followed || ev.order === key) shown.push(ev);
  }
  logEvents.push(...evs);
  if (logEvents.length > LOG_KEEP) logEvents.splice(0, logEvents.length - LOG_KEEP);
  if (!shown.length) return;
  const ol = $("#log");
  const frag = document.createDocumentFragment();
  const left = shown.length - LOG_PER_FRAME;
  for (let i = shown.length - 1; i >= Math.max(0, left); i--) frag.append(logItem(shown[i]));
  if (left > 0) frag.append(logItem({ stage: "…", seq: -1, at: shown[left - 1].at, class: "skipped",
    text: `${left} more hand-offs in this burst, too fast to read: follow an order, or pause, to see each` }));
  ol.prepend(frag);
  while (ol.childElementCount > LOG_SHOWN) logPool.push(ol.removeChild(ol.lastElementChild));
}

// logItem draws ev as a log line (li > b, text, span.ver), in a line
// that fell off the list if there is one.
function logItem(ev) {
  let li = logPool.pop();
  if (!li) li = el("li", {}, el("b"), document.createTextNode(""), el("span", { class: "ver" }));
  li.className = ev.class || "";
  li.dataset.stage = ev.stage; li.dataset.seq = String(ev.seq); li.dataset.at = String(ev.at);
  const [b, text, ver] = li.childNodes;
  setText(b, ev.stage + " ");
  text.data = (ev.order && !followed ? short(ev.order) + " " : "") + ev.text;
  setText(ver, ev.rv ? ` rv ${ev.rv}` : "");
  return li;
}

function refillLog() {
  const key = followed ? `${(lastFrame && lastFrame.orders || []).find((o) => o.name === followed)?.key}` : null;
  const evs = logEvents.filter((e) => !key || e.order === key).slice(-LOG_SHOWN).reverse();
  const ol = $("#log");
  logPool.push(...ol.children);
  ol.replaceChildren(...evs.map(logItem));
}

// ---- replay ------------------------------------------------------------
function scrubTo(i) {
  if (i >= snaps.length - 1 || i < 0) { replayAt = -1; document.body.classList.remove("replay"); $("#live").hidden = true;
    setText($("#scrub-at"), "live"); markFuture(Infinity); if (lastFrame) renderPipe(lastFrame); return; }
  replayAt = i;
  document.body.classList.add("replay");
  $("#live").hidden = false;
  const s = snaps[i];
  setText($("#scrub-at"), `${((s.at - lastFrame.at) / 1000).toFixed(1)} s ago · rv ${s.rv}`);
  renderPipe(s);
  const next = snaps[i + 1];
  markFuture(next && next.at);
}

// markFuture dims the log's events after the replayed frame.
function markFuture(at) {
  for (const li of $("#log").children) {
    li.classList.toggle("future", Number(li.dataset.at) >= at);
  }
}

// ---- buttons and keys --------------------------------------------------
function say(msg, bad) {
  const s = $("#status");
  s.textContent = msg; s.className = "status" + (bad ? " bad" : "");
}

// act posts a button and says the answer; it reports whether the server
// took it.
async function act(action, params = {}) {
  const body = new URLSearchParams(params);
  const btn = $(`[data-action="${action}"]`);
  if (btn) btn.disabled = true;
  try {
    const res = await fetch(`/actions/${action}`, { method: "POST", body });
    const out = await res.json();
    say(out.message || out.error, !res.ok);
    return res.ok;
  } catch (e) { say(String(e), true); return false; } finally { if (btn) btn.disabled = false; }
}

function press(action) {
  const p = {};
  if (action === "truffle" || action === "cancel") { if (followed) p.order = followed; }
  if (action === "fail") p.n = "3";
  if (action === "slow") p.ms = lastFrame && lastFrame.slowMs > 0 ? "0" : "150";
  act(action, p);
}

const KEYS = { p: "place", t: "truffle", x: "cancel", v: "vip", r: "rush", w: "cut-watches", h: "compact", f: "fail", s: "slow", n: "step" };
document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey || /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName)) return;
  if (e.key === " " && e.target.tagName === "BUTTON") return; // the button's own press
  if (e.key === "Escape") { follow(null); return; }
  if (e.key === " ") { e.preventDefault(); press(lastFrame && lastFrame.gate.paused || e.shiftKey ? "resume" : "pause"); return; }
  if (replayAt >= 0 && (e.key === "ArrowLeft" || e.key === "ArrowRight")) {
    scrubTo(replayAt + (e.key === "ArrowLeft" ? -1 : 1)); $("#scrub").value = String(replayAt < 0 ? snaps.length - 1 : replayAt); return;
  }
  const action = KEYS[e.key];
  if (action) { e.preventDefault(); press(action); }
});

document.addEventListener("DOMContentLoaded", () => {
  for (const b of document.querySelectorAll("button[data-action]")) b.addEventListener("click", () => press(b.dataset.action));
  $("#speed").addEventListener("change", async (e) => {
    const picked = e.target.value;
    if (!await act("speed", { minute: picked }) && e.target.value === picked && shownSpeed) e.target.value = shownSpeed;
  });
  $("#unfollow").addEventListener("click", () => follow(null));
  $("#pipe").addEventListener("click", (e) => { const n = e.target.closest("[data-order]"); if (n) follow(n.dataset.order); });
  $("#scrub").addEventListener("input", (e) => scrubTo(Number(e.target.value)));
  $("#live").addEventListener("click", () => scrubTo(-1));
  if ("PerformanceObserver" in window) {
    try { new PerformanceObserver((l) => { for (const t of l.getEntries()) window.__longTasks.push(t.duration); }).observe({ type: "longtask" }); } catch { /* not supported */ }
  }
  matchMedia("(max-width: 700px)").addEventListener("change", layout);
  layout();
  loadScenes();
  connect();
});
