// The Activity's page: draws the table the server describes and proposes moves on it.
// It knows no game: piles come with their places, cards, what may be picked up and where a
// drop goes; the server's engine decides every move. Outside Discord's iframe (no frame_id
// in the address) it signs in through the SDK's own mock (?mock_code=… gives its code).
"use strict";

const W = 100, H = 140;            // a card in SVG units
const GAP_X = 0.1 * W, GAP_Y = 0.1 * H, MARGIN = 12;
const FAN = 0.27 * H, MIN_FAN = 0.13 * H;
const DOUBLE_TAP_MS = 400, DRAG_PX = 6;
const POLL_MS = 4000;
const ROOM_POLL_MS = 2000;         // the table: who is there, their progress (bot/activity/rooms.py)
const SUITS = "SHDC", SYMBOLS = "♠♥♦♣";

const $ = (id) => document.getElementById(id);
const svg = $("table");
const NS = "http://www.w3.org/2000/svg";

const state = {
  token: null, kind: null, view: null, words: {}, games: [],
  selected: null,      // {place, count}
  lastTap: null,       // {place, t}
  busy: false,
  layout: [],          // per pile: {pile, x, y, step, height}
  timings: [],         // ms from each proposal to its confirmed position drawn
  instance: null,      // Discord's instanceId: everyone who opened the Activity here
  room: null,          // the table as the server last described it
};

// -- talking to the server ---------------------------------------------------------------
async function api(path, body) {
  const options = { headers: {} };
  if (state.token) options.headers.Authorization = `Bearer ${state.token}`;
  if (body !== undefined) {
    options.method = "POST";
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const answer = await fetch(path, options);
  let data = {};
  try { data = await answer.json(); } catch (e) { data = { error: `HTTP ${answer.status}` }; }
  data.status = answer.status;
  return data;
}

async function signIn() {
  const params = new URLSearchParams(location.search);
  const config = await api("/api/config");
  const inDiscord = params.has("frame_id");
  const SDK = window.BoulangerSDK;
  let sdk;
  if (inDiscord) {
    sdk = new SDK.DiscordSDK(config.client_id);
  } else {
    sdk = new SDK.DiscordSDKMock(config.client_id, null, null, null);
    const code = params.get("mock_code") || "mock_code";
    sdk._updateCommandMocks({ authorize: async () => ({ code }) });
  }
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: config.client_id, response_type: "code", state: "", prompt: "none", scope: ["identify"],
  });
  const got = await api("/api/token", { code });
  if (!got.access_token) throw new Error(got.error || "sign-in failed");
  state.token = got.access_token;
  if (inDiscord) await sdk.commands.authenticate({ access_token: got.access_token });
  // Outside Discord (tests, a browser) the table is named in the address.
  state.instance = inDiscord ? sdk.instanceId : params.get("instance_id");
  window.boulanger = { sdk, state };
}

// -- words ------------------------------------------------------------------------------
function esc(text) {
  return String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}
function plain(text) {
  // Discord's markup in the server's words: timestamps as relative times, mentions as a name.
  const lang = document.documentElement.lang || "en";
  return String(text)
    .replace(/<t:(\d+):R>/g, (_, s) => {
      const seconds = Math.max(1, Math.round(Number(s) - Date.now() / 1000));
      try { return new Intl.RelativeTimeFormat(lang, { numeric: "auto" }).format(seconds, "second"); }
      catch (e) { return `${seconds} s`; }
    })
    .replace(/<@!?\d+>/g, "@…");
}
function markdown(text) {
  return esc(plain(text)).split("\n").map((line) => line
    .replace(/^-# /, "")
    .replace(/\*\*(.+?)\*\*/g, "<b>$1</b>")
    .replace(/`(.+?)`/g, "<code>$1</code>")).join("<br>");
}
function say(text, bad) {
  const el = $("say");
  el.textContent = text ? plain(text) : "";
  el.classList.toggle("bad", Boolean(bad));
}
function cardWords(text) {
  if (!text) return "🂠";
  const rank = text[0] === "T" ? "10" : text[0];
  return rank + SYMBOLS[SUITS.indexOf(text[1])];
}

// -- drawing ----------------------------------------------------------------------------
function el(name, attrs, parent) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function layout(table) {
  // Piles at their places; fanned piles share the room left below the viewport's shape.
  const width = table.width * (W + GAP_X) - GAP_X + 2 * MARGIN;
  const box = $("felt").getBoundingClientRect();
  const room = Math.max(320, window.innerHeight - box.top - 190);
  const shape = Math.max(0.9, Math.min(2.2, room / Math.max(300, box.width)));
  const target = width * shape;
  const out = table.piles.map((pile) => {
    const x = MARGIN + pile.x * (W + GAP_X);
    const y = MARGIN + pile.y * (H + GAP_Y);
    const n = pile.cards.length;
    let step = 0;
    if (pile.fan && n > 1) step = Math.max(MIN_FAN, Math.min(FAN, (target - y - H - MARGIN) / (n - 1)));
    return { pile, x, y, step, height: H + step * Math.max(0, n - 1) };
  });
  const bottom = Math.max(...out.map((p) => p.y + p.height + (p.pile.fan ? 0 : 24))) + MARGIN;
  return { piles: out, width, height: Math.max(bottom, table.height * (H + GAP_Y) + 2 * MARGIN) };
}

function drawCard(group, text, x, y, cls, index, pile) {
  const g = el("g", { class: `card ${cls}`, transform: `translate(${x},${y})` }, group);
  g.dataset.index = String(index);
  if (pile.place) g.dataset.place = pile.place;
  if (!text) {
    el("rect", { class: "back", width: W, height: H, rx: 9 }, g);
    return g;
  }
  g.dataset.card = text;
  const suit = SUITS.indexOf(text[1]);
  el("rect", { class: "face", width: W, height: H, rx: 9 }, g);
  const corner = el("text", { class: `corner ink-${suit}`, x: 7, y: 31 }, g);
  corner.textContent = cardWords(text);
  const pip = el("text", { class: `pip ink-${suit}`, x: W / 2, y: H * 0.62 }, g);
  pip.textContent = SYMBOLS[suit];
  return g;
}

function pileWords(pile) {
  const cards = pile.cards.map(cardWords).join(" ");
  return `${pile.name || pile.label}: ${cards || "—"}`;
}

function draw() {
  const view = state.view;
  svg.textContent = "";
  if (!view) { svg.setAttribute("viewBox", "0 0 10 1"); return; }
  const table = view.table;
  const placed = layout(table);
  state.layout = placed.piles;
  svg.setAttribute("viewBox", `0 0 ${placed.width} ${placed.height}`);
  svg.classList.toggle("four", view.deck === "four");
  svg.setAttribute("aria-label", view.game.title);
  placed.piles.forEach((spot, i) => {
    const pile = spot.pile;
    const g = el("g", { class: `pile role-${pile.role}` }, svg);
    g.dataset.pile = String(i);
    if (pile.place) g.dataset.place = pile.place;
    if (pile.drop) g.dataset.drop = pile.drop;
    g.dataset.role = pile.role;
    const acts = pile.drag !== "none" || pile.drop;
    if (acts && view.game.active) {
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
    }
    g.setAttribute("aria-label", pileWords(pile));
    el("rect", { class: "slot", x: spot.x, y: spot.y, width: W, height: H, rx: 9 }, g);
    if (!pile.cards.length && pile.label) {
      const label = el("text", { class: "slot-label", x: spot.x + W / 2, y: spot.y + H / 2 }, g);
      label.textContent = pile.label;
    }
    const n = pile.cards.length;
    const shown = pile.fan ? pile.cards.map((c, j) => j) : (n ? [n - 1] : []);
    for (const j of shown) {
      const picked = state.selected && state.selected.pile === i && j >= n - state.selected.count;
      const movable = view.game.active && (pile.drag === "run" || (pile.drag === "top" && j === n - 1));
      const cls = [movable ? "" : "fixed", picked ? "picked" : ""].join(" ");
      const card = drawCard(g, pile.cards[j], spot.x, spot.y + (pile.fan ? j * spot.step : 0), cls, j, pile);
      card.setAttribute("aria-hidden", "true");
    }
    if (n && pile.label.length > 2) {
      const cap = el("text", { class: "caption", x: spot.x + W / 2, y: spot.y + H + 19 }, g);
      cap.textContent = pile.label;
    }
    el("rect", { class: "focus-ring", x: spot.x - 4, y: spot.y - 4, width: W + 8, height: spot.height + 8, rx: 12 }, g);
  });
}

function showView(view) {
  if (!view) return;
  state.view = view;
  state.kind = view.game.kind;
  state.selected = null;
  const game = view.game;
  $("kind").value = game.kind;
  $("code").textContent = game.code || "⚑";  // a race deal stays secret (a flag DejaVu draws)
  $("numbers").textContent = `${game.home}/52 · ${game.moves}`;
  $("text").innerHTML = markdown(view.text);
  $("undo").disabled = !game.can_undo;
  $("hint").disabled = !game.active || !game.hints;
  const home = $("home");
  home.hidden = !view.table.home;
  home.textContent = view.table.home;
  home.disabled = !game.active || !view.table.home_ready;
  draw();
}

function showEmpty() {
  state.view = null;
  $("code").textContent = "";
  $("numbers").textContent = "";
  $("text").textContent = state.words.choose || "";
  for (const id of ["undo", "hint", "home"]) $(id).disabled = true;
  draw();
}

// -- proposing moves ---------------------------------------------------------------------
async function propose(move, lifted) {
  const view = state.view;
  if (!view || state.busy) return false;
  state.busy = true;
  const t0 = performance.now();
  const answer = await api("/api/play", { game: view.game.id, version: view.game.version, ...move });
  state.busy = false;
  if (answer.view && answer.status === 200) {
    say("");
    showView(answer.view);
    // From the drop (or tap) to the confirmed position drawn: benchmarks/activity.py reads it.
    state.timings.push(performance.now() - t0);
    if (state.timings.length > 1000) state.timings.shift();
    return true;
  }
  if (lifted) await snapBack(lifted);
  say(answer.error || `HTTP ${answer.status}`, true);
  if (answer.view) showView(answer.view);
  else draw();
  return false;
}

function snapBack(cards) {
  return new Promise((resolve) => {
    for (const c of cards) {
      c.classList.add("back-home");
      c.setAttribute("transform", c.dataset.home);
      c.classList.remove("lifted");
    }
    setTimeout(resolve, 200);
  });
}

function tapPile(index) {
  // One tap selects (or drops the selection here); two quick taps play the chat's one-press move.
  const view = state.view;
  if (!view || !view.game.active) return;
  const spot = state.layout[index];
  const pile = spot.pile;
  const now = Date.now();
  const last = state.lastTap;
  state.lastTap = { index, t: now };
  if (last && last.index === index && now - last.t < DOUBLE_TAP_MS && pile.drag !== "none") {
    state.selected = null;
    state.lastTap = null;
    propose({ act: "tap", source: pile.place });
    return;
  }
  const sel = state.selected;
  if (sel && sel.pile !== index && pile.drop) {
    const source = state.layout[sel.pile].pile.place;
    state.selected = null;
    propose({ act: "drop", source, target: pile.drop, count: sel.count });
    return;
  }
  if (sel && sel.pile === index) {
    state.selected = null;
  } else if (pile.drag !== "none" && pile.cards.length && pile.cards[pile.cards.length - 1]) {
    state.selected = { pile: index, count: 1 };
  }
  draw();
  focusPile(index);
}

function focusPile(index) {
  const g = svg.querySelector(`.pile[data-pile="${index}"]`);
  if (g && g.getAttribute("tabindex") !== null) g.focus({ preventScroll: true });
}

// -- pointer: drag and drop, taps ----------------------------------------------------------
let press = null;

function svgPoint(event) {
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  return point.matrixTransform(svg.getScreenCTM().inverse());
}

function pileAt(point, except) {
  let best = null;
  state.layout.forEach((spot, i) => {
    if (i === except || !spot.pile.drop) return;
    const inside = point.x >= spot.x - GAP_X / 2 && point.x <= spot.x + W + GAP_X / 2
      && point.y >= spot.y - GAP_Y / 2 && point.y <= spot.y + Math.max(spot.height, H) + H * 0.6;
    if (inside) best = i;
  });
  return best;
}

svg.addEventListener("pointerdown", (event) => {
  const pileEl = event.target.closest(".pile");
  if (!pileEl || !state.view || state.busy) return;
  const index = Number(pileEl.dataset.pile);
  const spot = state.layout[index];
  const cardEl = event.target.closest(".card");
  let count = 0;
  let cards = [];
  if (cardEl && state.view.game.active && !cardEl.classList.contains("fixed")) {
    const at = Number(cardEl.dataset.index);
    count = spot.pile.cards.length - at;
    cards = [...pileEl.querySelectorAll(".card")].filter((c) => Number(c.dataset.index) >= at);
  }
  press = { index, count, cards, start: svgPoint(event), x: event.clientX, y: event.clientY, moved: false, id: event.pointerId };
  svg.setPointerCapture(event.pointerId);
  event.preventDefault();
});

svg.addEventListener("pointermove", (event) => {
  if (!press || event.pointerId !== press.id || !press.cards.length) return;
  if (!press.moved && Math.hypot(event.clientX - press.x, event.clientY - press.y) < DRAG_PX) return;
  if (!press.moved) {
    press.moved = true;
    const group = press.cards[0].parentNode;
    for (const c of press.cards) {
      c.dataset.home = c.getAttribute("transform");
      c.classList.add("lifted");
      group.appendChild(c);      // above the others in its pile
    }
    svg.appendChild(group);      // and its pile above the other piles
  }
  const p = svgPoint(event);
  const dx = p.x - press.start.x, dy = p.y - press.start.y;
  for (const c of press.cards) {
    const [x, y] = c.dataset.home.match(/-?[\d.]+/g).map(Number);
    c.setAttribute("transform", `translate(${x + dx},${y + dy})`);
  }
  const over = pileAt(p, press.index);
  svg.querySelectorAll(".pile.target").forEach((g) => g.classList.remove("target"));
  if (over !== null) svg.querySelector(`.pile[data-pile="${over}"]`).classList.add("target");
});

svg.addEventListener("pointerup", async (event) => {
  if (!press || event.pointerId !== press.id) return;
  const done = press;
  press = null;
  svg.querySelectorAll(".pile.target").forEach((g) => g.classList.remove("target"));
  if (!done.moved) { tapPile(done.index); return; }
  state.lastTap = null;
  const over = pileAt(svgPoint(event), done.index);
  if (over === null) { await snapBack(done.cards); draw(); return; }
  const source = state.layout[done.index].pile.place;
  const target = state.layout[over].pile.drop;
  state.selected = null;
  await propose({ act: "drop", source, target, count: done.count }, done.cards);
});

svg.addEventListener("pointercancel", async () => {
  if (press && press.moved) await snapBack(press.cards);
  press = null;
  draw();
});

// -- keyboard ------------------------------------------------------------------------------
svg.addEventListener("keydown", (event) => {
  const pileEl = event.target.closest(".pile");
  if (!pileEl) return;
  const index = Number(pileEl.dataset.pile);
  const pile = state.layout[index].pile;
  if (event.key === "Enter" && (event.shiftKey || event.altKey) || event.key === "d") {
    state.selected = null;
    propose({ act: "tap", source: pile.place });
  } else if (event.key === "Enter" || event.key === " ") {
    state.lastTap = null;
    tapPile(index);
  } else if (event.key === "ArrowUp" && state.selected && state.selected.pile === index && pile.drag === "run") {
    state.selected.count = Math.min(pile.cards.length, state.selected.count + 1);
    draw(); focusPile(index);
  } else if (event.key === "ArrowDown" && state.selected && state.selected.pile === index) {
    state.selected.count = Math.max(1, state.selected.count - 1);
    draw(); focusPile(index);
  } else if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
    const all = [...svg.querySelectorAll(".pile[tabindex]")];
    const at = all.indexOf(pileEl);
    const next = all[(at + (event.key === "ArrowRight" ? 1 : all.length - 1)) % all.length];
    if (next) next.focus();
  } else if (event.key === "Escape") {
    state.selected = null; draw(); focusPile(index);
  } else {
    return;
  }
  event.preventDefault();
});

document.addEventListener("keydown", (event) => {
  if (event.target.closest && event.target.closest("input, select")) return;
  if (event.key === "u" && !$("undo").disabled) $("undo").click();
  else if (event.key === "h" && !$("home").disabled && !$("home").hidden) $("home").click();
});

// -- buttons -------------------------------------------------------------------------------
$("undo").addEventListener("click", () => propose({ act: "undo" }));
$("home").addEventListener("click", () => propose({ act: "home" }));
$("hint").addEventListener("click", async () => {
  if (!state.view) return;
  const answer = await api("/api/hint", { game: state.view.game.id });
  if (answer.hint) say(answer.hint);
  else say(answer.error, true);
});

async function start(options) {
  const answer = await api("/api/start", { kind: state.kind, ...options });
  if (answer.status === 200) { say(""); showView(answer.view); return; }
  if (answer.why === "in_progress") {
    ask(answer.error, () => start({ ...options, replace: answer.ask }));
    return;
  }
  say(answer.error, true);
}

function ask(text, yes) {
  $("ask-text").textContent = plain(text);
  $("ask").hidden = false;
  $("ask-yes").onclick = () => { $("ask").hidden = true; yes(); };
  $("ask-no").onclick = () => { $("ask").hidden = true; };
  $("ask-yes").focus();
}

$("new").addEventListener("click", () => start({}));
$("daily").addEventListener("click", () => start({ daily: true }));
$("code-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const code = $("code-input").value.trim();
  if (code) start({ code });
});
$("kind").addEventListener("change", async () => {
  state.kind = $("kind").value;
  await refresh(true);
});

// -- the table: several players in one instance --------------------------------------------------
const STATUS = { won: "🏆", lost: "✗", resigned: "🏳", active: "▶", waiting: "…" };

function progressText(game) {
  return game ? `${game.home}/52 · ${game.moves}` : "—";
}

function fill(list, items, render) {
  list.textContent = "";
  for (const item of items) {
    const li = document.createElement("li");
    render(li, item);
    list.appendChild(li);
  }
}

function template(text, values) {
  return String(text || "").replace(/\{(\w+)\}/g, (_, k) => (k in values ? values[k] : `{${k}}`));
}

function showRoom(room) {
  state.room = room;
  const w = state.words;
  $("room").hidden = false;
  $("room-title").textContent = `${w.room} · ${room.players.length}/${room.limit}`;
  fill($("room-players"), room.players, (li, p) => {
    li.dataset.player = p.id;
    if (p.id === room.you) li.classList.add("you");
    const name = document.createElement("span");
    name.textContent = p.name;
    const progress = document.createElement("span");
    progress.className = "progress";
    progress.textContent = p.game ? `${p.game.title} ${progressText(p.game)}` : "—";
    li.append(name, progress);
    li.setAttribute("aria-label", `${p.name}: ${progress.textContent}`);
  });
  const race = room.race;
  const line = $("race-line");
  const joined = Boolean(race && race.players.includes(room.you));
  if (!race) line.textContent = "";
  else if (race.status === "lobby") {
    line.textContent = plain(template(w.race_lobby, { game: race.title, when: `<t:${race.starts}:R>` }))
      + ` (${race.players.length})`;
  } else if (race.status === "running") line.textContent = template(w.race_running, { game: race.title });
  else if (race.status === "finished") line.textContent = template(w.race_over, { game: race.title });
  else line.textContent = w.race_cancelled;
  line.dataset.status = race ? race.status : "";
  fill($("race-standings"), race ? race.standings : [], (li, s) => {
    li.dataset.player = s.id;
    if (s.id === room.you) li.classList.add("you");
    const place = document.createElement("span");
    place.className = "place";
    place.textContent = s.place ? `${s.place}.` : (STATUS[s.status] || "");
    const name = document.createElement("span");
    name.textContent = s.name;
    const progress = document.createElement("span");
    progress.className = "progress";
    progress.textContent = `${s.home}/52 · ${s.moves}`;
    li.append(place, name, progress);
  });
  const open = race && (race.status === "lobby" || race.status === "running");
  $("race-new").hidden = Boolean(open) || !state.kind;
  $("race-join").hidden = !(race && race.status === "lobby" && !joined);
  $("race-go").hidden = !(race && race.status === "lobby" && race.creator === room.you);
  $("race-go").disabled = !(race && race.players.length >= 2);
  // My race game, dealt: play it here.
  if (race && race.status === "running" && joined && state.view && !state.busy
      && (state.view.game.kind !== race.kind || state.view.game.code)) {
    state.kind = race.kind;
    refresh(true);
  }
}

async function roomCall(path, body) {
  const answer = await api(path, { instance: state.instance, ...body });
  if (answer.status === 200) { say(""); showRoom(answer); return; }
  if (answer.why === "in_progress") {
    ask(answer.error, () => roomCall(path, { ...body, agreed: true }));
    return;
  }
  say(answer.error, true);
}

async function pollRoom() {
  if (!state.instance || document.visibilityState !== "visible") return;
  const answer = await api(`/api/room?instance=${encodeURIComponent(state.instance)}`);
  if (answer.status === 200) showRoom(answer);
  else if (answer.status === 403 || answer.status === 400) { $("room").hidden = true; state.instance = null; }
}

$("race-new").addEventListener("click", () => roomCall("/api/room/race", { kind: state.kind }));
$("race-join").addEventListener("click", () => roomCall("/api/room/join", {}));
$("race-go").addEventListener("click", () => roomCall("/api/room/start", {}));

// -- state -----------------------------------------------------------------------------------
async function refresh(switching) {
  const answer = await api(`/api/state?kind=${encodeURIComponent(state.kind || "")}`);
  if (answer.status !== 200) { say(answer.error, true); return; }
  state.words = answer.words;
  state.games = answer.games;
  if (switching || !state.view || !answer.view || answer.view.game.version !== state.view.game.version
      || answer.view.game.id !== state.view.game.id) {
    if (answer.view) showView(answer.view);
    else showEmpty();
  }
}

function words(w) {
  $("undo").textContent = w.undo;
  $("hint").textContent = w.hint;
  $("new").textContent = w.new;
  $("daily").textContent = w.daily;
  $("code-input").placeholder = w.code;
  $("code-input").setAttribute("aria-label", w.code);
  $("ask-yes").textContent = w.confirm;
  $("ask-no").textContent = w.keep;
  $("help").textContent = w.help;
  $("race-new").textContent = w.race_new;
  $("race-join").textContent = w.race_join;
  $("race-go").textContent = w.race_go;
}

async function boot() {
  try {
    await signIn();
  } catch (error) {
    say(String(error.message || error), true);
    return;
  }
  const params = new URLSearchParams(location.search);
  state.kind = params.get("kind") || null;
  const first = await api(`/api/state${state.kind ? `?kind=${state.kind}` : ""}`);
  if (first.status !== 200) { say(first.error, true); return; }
  state.words = first.words;
  state.games = first.games;
  const select = $("kind");
  for (const g of first.games) {
    const option = document.createElement("option");
    option.value = g.kind;
    option.textContent = g.title;
    select.appendChild(option);
  }
  words(first.words);
  document.documentElement.lang = first.language || "en";
  if (first.view) showView(first.view);
  else { state.kind = state.kind || first.games[0].kind; select.value = state.kind; showEmpty(); }
  document.body.dataset.ready = "1";
  setInterval(() => {
    if (document.visibilityState === "visible" && !state.busy && !press) refresh(false);
  }, POLL_MS);
  window.addEventListener("resize", () => draw());
  if (state.instance) {
    await pollRoom();
    setInterval(pollRoom, ROOM_POLL_MS);
  }
}

boot();
