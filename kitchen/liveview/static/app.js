// kitchensync · the pass: renders the frames the Go process streams over
// Server-Sent Events (GET /events) and posts the buttons (POST /actions/…).
// Plain JavaScript, no framework, no build step.
"use strict";

const LANES = ["waiter", "desk", "runner", "rail", "chef", "cooks"];
const FEED_MAX = 9;
const $ = (sel, root = document) => root.querySelector(sel);
const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v; else if (k === "text") e.textContent = v; else e.setAttribute(k, v);
  }
  for (const k of kids) if (k != null) e.append(k);
  return e;
};

let followed = null;       // name of the followed order, or null
let lastFrame = null;
const lastLane = new Map(); // order key → lane it was last seen in
const reduceMotion = matchMedia("(prefers-reduced-motion: reduce)").matches;

// ---- the stream --------------------------------------------------------
function connect() {
  const conn = $("#conn");
  const src = new EventSource("/events");
  src.addEventListener("frame", (e) => {
    conn.textContent = "live"; conn.className = "conn live";
    render(JSON.parse(e.data));
  });
  src.onerror = () => { conn.textContent = "reconnecting…"; conn.className = "conn down"; };
}

function render(f) {
  lastFrame = f;
  $("#rv").textContent = f.rv;
  renderSpeed(String(Math.round(f.minuteMs)));
  const slow = $("#slow");
  slow.setAttribute("aria-pressed", String(f.slowMs > 0));
  slow.lastChild.textContent = f.slowMs > 0 ? ` desk slowed (${f.slowMs} ms)` : " slow the desk";
  renderCounters(f);
  renderLanes(f);
  renderOrders(f.orders || []);
  for (const ev of f.events || []) addEvent(ev);
  document.body.dataset.traced = (f.traced || []).join(" ");
  if (followed) refreshDetail();
}

// renderSpeed shows the server's speed in the control when it changed,
// and not while the user is on the control: a frame built before the
// user's pick reached the server still has the old speed, and must not
// put it back over the pick.
let shownSpeed = null; // the server's speed the control last showed
function renderSpeed(ms) {
  const speed = $("#speed");
  if (!speed.querySelector(`option[value="${ms}"]`)) speed.append(el("option", { value: ms, text: `1 min = ${ms} ms` }));
  if (ms === shownSpeed || document.activeElement === speed) return;
  shownSpeed = ms;
  speed.value = ms;
}

function renderCounters(f) {
  const c = f.counters;
  $("#c-api").textContent = c.apiRequests;
  $("#c-poll").textContent = c.polling;
  $("#c-rec").textContent = c.reconciles + (c.errors ? ` (${c.errors} err)` : "");
  $("#c-depth").textContent = f.depth;
  $("#c-lat").textContent = c.served ? `${c.p50.toFixed(0)} / ${c.p99.toFixed(0)}` : "–";
  $("#c-served").textContent = `${c.served} / ${c.placed}`;
  drawChart(f.chart || []);
}

function drawChart(points) {
  const n = 90, w = 240, h = 60;
  const maxD = Math.max(4, ...points.map((p) => p.depth));
  const maxL = Math.max(1, ...points.map((p) => p.reconcileMs));
  const line = (val, max) => points.map((p, i) =>
    `${(w * (n - points.length + i) / (n - 1)).toFixed(1)},${(h - 2 - (h - 4) * val(p) / max).toFixed(1)}`).join(" ");
  $("#chart-depth").setAttribute("points", line((p) => p.depth, maxD));
  $("#chart-lat").setAttribute("points", line((p) => p.reconcileMs, maxL));
  $("#chart-depth-max").textContent = `(max ${maxD})`;
  $("#chart-lat-max").textContent = `(max ${maxL.toFixed(1)})`;
}

// ---- lanes -------------------------------------------------------------
const chip = (text, cls = "", title = "") => el("span", { class: "chip " + cls, text, title: title || text });
const label = (text) => el("div", { class: "label", text });
const row = (items, empty) => items.length ? el("div", { class: "row" }, ...items) : el("div", { class: "empty", text: empty });
const isFollowed = (key) => followed && (key === followed || key.endsWith("/" + followed));

function renderLanes(f) {
  const c = f.counters, heard = (comp) => (f.traced || []).includes(comp);
  $("#st-waiter").replaceChildren(
    el("div", { class: "big", text: String(c.placed) }), label("orders placed from this page"),
    el("div", { class: "empty", text: "kubectl works too: the API is served on this address" }));
  $("#st-desk").replaceChildren(
    el("div", { class: "big", text: f.rv }), label("resourceVersion now"),
    ...(f.slowMs > 0 ? [chip(`slowed: ${f.slowMs} ms per request`, "delayed")] : []));
  const watches = (f.watches || []).map((w) => {
    const c = chip(`${w.resource}: ${w.lists} list${w.lists === 1 ? "" : "s"}, ${w.watches} watch${w.watches === 1 ? "" : "es"} · ${w.now}`,
      w.now.startsWith("WATCH") ? "" : "delayed", w.now);
    c.dataset.resource = w.resource; c.dataset.lists = w.lists; c.dataset.watches = w.watches;
    return c;
  });
  const fifo = (f.fifo || []).map((e) => chip(`${e.key} · ${e.deltas.join(", ")}`, isFollowed(e.key.split(" ")[1] || "") ? "followed" : ""));
  const cache = (f.cache || []).map((e) => chip(`${e.key.split("/")[1]} rv${e.rv} ${e.phase}`, isFollowed(e.key) ? "followed" : ""));
  $("#st-runner").replaceChildren(
    label("reflectors"), row(watches, heard("reflector") ? "…" : "(no list or watch seen since the view opened)"),
    label(`DeltaFIFO pending (${fifo.length})`), row(fifo, "empty"),
    label(`cache: ${cache.length} orders`), row(cache.slice(-24), "empty"));
  const tickets = (f.tickets || []).map((t) => chip(
    `${t.priority >= 100 ? "VIP " : ""}${t.key.split("/")[1] || t.key}${t.state !== "waiting" ? ` · ${t.state} ${t.dueIn ? Math.ceil(t.dueIn) + "ms" : ""}` : ""}`,
    `${t.priority >= 100 ? "vip " : ""}${t.state}${isFollowed(t.key) ? " followed" : ""}`));
  $("#st-rail").replaceChildren(
    el("div", { class: "big", text: String(f.depth) }), label("waiting · VIP first, then delayed"),
    row(tickets, heard("workqueue") ? "no tickets" : "(the rail is not traced)"));
  const workers = (f.workers || []).map((w) => chip(`#${w.worker} ${w.key.split("/")[1] || w.key} ${w.for}ms`, isFollowed(w.key) ? "followed" : ""));
  $("#st-chef").replaceChildren(label("reconciling now"), row(workers, "idle"));
  $("#st-cooks").replaceChildren(...(f.stations || []).map((s) => el("div", { class: "station" },
    el("b", { text: s.name }), ...((s.cooks || []).length ? s.cooks.map((k) =>
      chip(`${k.order} ${k.dish}`, k.phase + (followed === k.order ? " followed" : ""), `${k.name}: ${k.phase}`))
      : [el("span", { class: "empty", text: "free" })]))));
}

function addEvent(ev) {
  const lane = $(`#lane-${ev.lane}`);
  if (!lane) return;
  if (ev.order) flyToken(ev.order, ev.lane);
  const orderName = ev.order ? ev.order.split("/")[1] : "";
  if (followed && orderName !== followed) return;
  const who = orderName || (ev.key || "").split("/").pop();
  const li = el("li", { class: ev.class || "", "data-order": orderName, title: ev.text },
    who && !followed ? el("b", { text: who + " " }) : null, ev.text, ev.rv ? el("span", { class: "ver", text: ` rv ${ev.rv}` }) : null);
  const feed = $(".feed", lane);
  feed.prepend(li);
  while (feed.children.length > FEED_MAX) feed.lastChild.remove();
}

// flyToken moves a dot from the lane an order was last in to its new lane.
let flying = 0;
function flyToken(key, lane) {
  const from = lastLane.get(key);
  lastLane.set(key, lane);
  if (reduceMotion || !from || from === lane || flying > 12 || document.hidden) return;
  if (followed && key.split("/")[1] !== followed) return;
  const a = $(`#lane-${from} h2`).getBoundingClientRect(), b = $(`#lane-${lane} h2`).getBoundingClientRect();
  const dot = el("div", { class: "token" });
  dot.style.background = getComputedStyle($(`#lane-${lane}`)).borderTopColor;
  dot.style.left = `${a.left + a.width / 2}px`; dot.style.top = `${a.top + a.height / 2}px`;
  document.body.append(dot);
  flying++;
  const anim = dot.animate([{ transform: "translate(0,0)" },
    { transform: `translate(${b.left - a.left}px, ${b.top - a.top}px)` }], { duration: 500, easing: "ease-in-out" });
  anim.onfinish = () => { dot.remove(); flying--; };
}

// ---- orders and the followed one ---------------------------------------
// renderOrders updates the list in place, one row per order, so that
// focus, clicks and screen readers keep their place while frames arrive.
const rows = new Map(); // order name → its <li>
function renderOrders(orders) {
  const list = $("#orders");
  const keep = new Set();
  orders.forEach((o, i) => {
    keep.add(o.name);
    let li = rows.get(o.name);
    if (!li) { li = orderRow(o.name); rows.set(o.name, li); }
    updateRow(li.firstChild, o);
    if (list.children[i] !== li) list.insertBefore(li, list.children[i] || null);
  });
  for (const [name, li] of rows) if (!keep.has(name)) { li.remove(); rows.delete(name); }
}

function orderRow(name) {
  const b = el("button", { class: "order", "data-name": name },
    el("span", { class: "name" }), el("span", { class: "items" }),
    el("span", { class: "path" }, ...LANES.map((l) => el("i", { "data-l": l, title: l }))),
    el("span", { class: "phase" }));
  b.addEventListener("click", () => follow(followed === name ? null : name));
  return el("li", {}, b);
}

function updateRow(b, o) {
  const phase = o.gone && o.phase !== "Refused" && o.phase !== "Cancelled" ? (o.phase === "Served" ? "Served" : "Gone")
    : (o.deleting && o.phase !== "Cancelled" ? "Deleting" : o.phase);
  const lanes = o.lanes || [];
  const set = (k, v) => { if (b.getAttribute(k) !== v) b.setAttribute(k, v); };
  set("data-phase", o.phase);
  set("data-lanes", lanes.join(" "));
  set("aria-pressed", String(followed === o.name));
  set("title", `${o.key} · table ${o.table} (${o.section || "main"})`);
  const [name, items, path, ph] = b.children;
  name.textContent = (o.priority >= 100 ? "★ " : "") + o.name;
  items.textContent = o.items || "…";
  path.setAttribute("aria-label", "lanes visited: " + lanes.join(", "));
  for (const dot of path.children) {
    const l = dot.dataset.l;
    dot.className = lanes.includes(l) ? (o.current === l ? "on now" : "on") : "";
  }
  ph.className = "phase " + phase;
  ph.textContent = phase;
}

function follow(name) {
  followed = name;
  $("#detail").hidden = !name;
  for (const f of document.querySelectorAll(".feed")) f.replaceChildren();
  if (name) { $("#detail-name").textContent = name; refreshDetail(); }
  if (lastFrame) { renderOrders(lastFrame.orders || []); renderLanes(lastFrame); }
}

let detailBusy = false;
async function refreshDetail() {
  if (detailBusy || !followed) return;
  detailBusy = true;
  try {
    const name = followed;
    const res = await fetch(`/orders/${encodeURIComponent(name)}`);
    const d = await res.json(); // read the body always: an unread one holds its connection
    if (!res.ok || name !== followed) return;
    const yaml = $("#yaml");
    if (yaml.textContent !== d.yaml) yaml.textContent = d.yaml || "# not in the runner's cache yet";
    const hist = $("#history");
    if (hist.children.length !== d.history.length || hist.dataset.last !== String(d.history.at(-1)?.seq)) {
      hist.replaceChildren(...d.history.map((ev) => el("li", { class: ev.class || "", "data-lane": ev.lane },
        el("b", { text: ev.lane }), ev.text, ev.rv ? el("span", { class: "ver", text: ` rv ${ev.rv}` }) : null)));
      hist.dataset.last = String(d.history.at(-1)?.seq);
      hist.scrollTop = hist.scrollHeight;
    }
  } finally { detailBusy = false; }
}

// ---- buttons and keys --------------------------------------------------
let toastTimer;
function toast(msg, bad) {
  const t = $("#toast");
  t.textContent = msg; t.className = "show" + (bad ? " bad" : "");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.className = ""; }, 3500);
}

// act posts a button and toasts the answer; it reports whether the server
// took it.
async function act(action, params = {}) {
  const body = new URLSearchParams(params);
  const btn = $(`[data-action="${action}"]`);
  if (btn) btn.disabled = true;
  try {
    const res = await fetch(`/actions/${action}`, { method: "POST", body });
    const out = await res.json();
    toast(out.message || out.error, !res.ok);
    return res.ok;
  } catch (e) { toast(String(e), true); return false; } finally { if (btn) btn.disabled = false; }
}

function press(action) {
  const p = {};
  if (action === "truffle" || action === "cancel") { if (followed) p.order = followed; }
  if (action === "fail") p.n = $("#fail-n").value;
  if (action === "slow") p.ms = lastFrame && lastFrame.slowMs > 0 ? "0" : "150";
  act(action, p);
}

const KEYS = { p: "place", t: "truffle", x: "cancel", v: "vip", r: "rush", w: "cut-watches", h: "compact", f: "fail", s: "slow" };
document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey || /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName)) return;
  if (e.key === "Escape") { follow(null); return; }
  const action = KEYS[e.key];
  if (action) { e.preventDefault(); press(action); }
});

document.addEventListener("DOMContentLoaded", () => {
  for (const b of document.querySelectorAll("button[data-action]")) b.addEventListener("click", () => press(b.dataset.action));
  $("#speed").addEventListener("change", async (e) => {
    const picked = e.target.value;
    // A refused pick, not yet replaced by another: show the server's speed again.
    if (!await act("speed", { minute: picked }) && e.target.value === picked && shownSpeed) e.target.value = shownSpeed;
  });
  $("#unfollow").addEventListener("click", () => follow(null));
  connect();
});
