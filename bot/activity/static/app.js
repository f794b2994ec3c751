// The Activity's page: draws the table the server describes and proposes moves on it.
// It knows no game: piles come with their places, cards, what may be picked up and where a
// drop goes; the server's engine decides every move. Outside Discord's iframe (no frame_id
// in the address) it signs in through the SDK's own mock (?mock_code=… gives its code).
//
// Never backwards, and at once: a drop the server listed as legal (view.moves) is drawn the
// moment it is made; moves are queued and sent one by one, each with the version the previous
// answer left; a position is shown only if newer than the one shown, and a refresh started
// before a move was made is ignored; a refused move brings back the server's position and says
// why in the page's words.
"use strict";

const W = 100, H = 140;            // a card in SVG units
const GAP_Y = 0.1 * H;
const FAN = 0.27 * H, MIN_FAN = 0.13 * H;
const TOUCH_FAN = 0.7 * H;         // taller run edges for fingers, where the columns have room
const BACK_FAN = 0.12 * H;         // a face-down card's edge in a fan: enough to count them
const SPREAD_X = 0.5 * W;          // a spread pile's cards side by side (a draw-three waste): whole corners
const NARROW = 600;                // px: a phone's table, edge to edge
const DOUBLE_TAP_MS = 400, DRAG_PX = 6;
const POLL_MS = 4000;
const ROOM_POLL_MS = 2000;         // the table: who is there, their progress (bot/activity/rooms.py)
const SUITS = "SHDC", SYMBOLS = "♠♥♦♣";

const $ = (id) => document.getElementById(id);
const svg = $("table");
const NS = "http://www.w3.org/2000/svg";

const state = {
  token: null, kind: null, words: {}, games: [],
  view: null,          // the server's position: the latest confirmed, never an older one
  table: null,         // the table drawn: the view's, with the queued moves drawn on it
  queue: [],           // moves made, not yet answered, in order; the first is on its way
  sending: false,
  later: false,        // a position came while a finger held cards: drawn when it lets go
  epoch: 0,            // bumped by every move and switch: an answer to an earlier refresh is stale
  selected: null,      // {pile, count}
  lastTap: null,       // {index, t}
  layout: [],          // per pile: {pile, x, y, cards: [[index, x, y], …] drawn, height, width}
  timings: [],         // ms from each drop (or tap) to its confirmed position drawn
  drawn: [],           // ms from each drop (or tap) to its cards drawn in their new place
  rollbacks: 0,        // queued moves undone on the page because the server refused one
  refusals: 0,
  instance: null,      // Discord's instanceId: everyone who opened the Activity here
  room: null,          // the table as the server last described it
  touch: window.matchMedia("(pointer: coarse)").matches || navigator.maxTouchPoints > 0,
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
  let answer;
  try {
    answer = await fetch(path, options);
  } catch (e) {
    return { status: 0, error: state.words.no_answer || String(e) };
  }
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
  window.boulanger = { sdk, state, refresh };
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

function roomBelow() {
  // The height the table may take: the window's, less what sits above it and the say line and
  // buttons below it (the rest of the page scrolls under them), within the safe area.
  const body = getComputedStyle(document.body);
  const table = svg.getBoundingClientRect();
  const under = $("controls").getBoundingClientRect().bottom - table.bottom;
  const top = table.top + window.scrollY;
  return Math.max(240, window.innerHeight - top - under - parseFloat(body.paddingBottom || "0") - 2);
}

function layout(table) {
  // Piles at their places. On a phone the columns go edge to edge with thin gaps (each pile's
  // touch area is its whole column), fanned piles share the height left on the screen, and
  // the table fills it; on a wider screen the fan is capped and the table is as tall as it is.
  const feltWidth = Math.min($("felt").clientWidth || window.innerWidth, 980);
  const narrow = feltWidth < NARROW;
  const gapX = narrow ? 0.05 * W : 0.1 * W;
  const margin = narrow ? 3 : 12;
  const width = table.width * (W + gapX) - gapX + 2 * margin;
  const scale = feltWidth / width;
  const room = roomBelow() / scale;
  const fanMost = state.touch || narrow ? TOUCH_FAN : FAN;
  const out = table.piles.map((pile) => {
    const x = margin + pile.x * (W + gapX);
    const y = margin + pile.y * (H + GAP_Y);
    const cards = cardSpots(pile, x, y, fanStep(pile, room - y - H - margin, fanMost));
    const last = cards.length ? cards[cards.length - 1] : [0, x, y];
    return { pile, x, y, cards, height: last[2] - y + H, width: last[1] - x + W };
  });
  const bottom = Math.max(...out.map((p) => p.y + p.height + (p.pile.fan ? 0 : 24))) + margin;
  const least = table.height * (H + GAP_Y) + 2 * margin;
  const height = narrow ? Math.max(bottom, least, room) : Math.max(bottom, least);
  return { piles: out, width, height, gapX };
}

function fanStep(pile, room, most) {
  // A fanned pile's step between face-up cards: the room left shared among them, face-down
  // cards (each edge BACK_FAN) first; within [MIN_FAN, most].
  const gaps = pile.cards.slice(0, -1);
  const backs = gaps.filter((c) => !c).length;
  const ups = gaps.length - backs;
  if (!pile.fan || !ups) return MIN_FAN;
  return Math.max(MIN_FAN, Math.min(most, (room - backs * BACK_FAN) / ups));
}

function cardSpots(pile, x, y, step) {
  // The cards drawn and where: [index, x, y] each. Fanned: all, down the column (a face-down
  // card's edge narrower); spread: the top ``spread``, side by side; else the top card alone.
  const n = pile.cards.length;
  if (pile.fan) {
    let at = y;
    return pile.cards.map((c, j) => {
      const spot = [j, x, at];
      at += c ? step : Math.min(step, BACK_FAN);
      return spot;
    });
  }
  const shown = Math.min(n, Math.max(1, pile.spread || 0));
  return pile.cards.slice(n - shown).map((c, k) => [n - shown + k, x + k * SPREAD_X, y]);
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
  if (!view || !state.table) { svg.setAttribute("viewBox", "0 0 10 1"); return; }
  const table = state.table;
  const placed = layout(table);
  state.layout = placed.piles;
  state.gapX = placed.gapX;
  svg.setAttribute("viewBox", `0 0 ${placed.width} ${placed.height}`);
  svg.classList.toggle("four", view.deck === "four");
  svg.setAttribute("aria-label", view.game.title);
  placed.piles.forEach((spot, i) => drawPile(spot, i, placed));
}

function drawPile(spot, i, placed) {
  const view = state.view;
  const pile = spot.pile;
  const g = el("g", { class: `pile role-${pile.role}` }, svg);
  g.dataset.pile = String(i);
  if (pile.place) g.dataset.place = pile.place;
  if (pile.drop) g.dataset.drop = pile.drop;
  g.dataset.role = pile.role;
  const acts = pile.drag !== "none" || pile.drop || pile.tap;
  if (acts && view.game.active) {
    g.setAttribute("tabindex", "0");
    g.setAttribute("role", "button");
  }
  g.setAttribute("aria-label", pileWords(pile));
  // Its touch area: the column's whole width (half of each gap) and down to the next row or
  // the table's foot, so a finger between two cards or under a short column still finds it.
  const below = placed.piles.filter((o) => o.y > spot.y && o.x < spot.x + W && o.x + W > spot.x);
  const foot = below.length ? Math.min(...below.map((o) => o.y)) - GAP_Y / 2 : placed.height;
  el("rect", {
    class: "hit", x: spot.x - placed.gapX / 2, y: spot.y - GAP_Y / 2,
    width: spot.width + placed.gapX, height: Math.max(H, foot - spot.y + GAP_Y / 2),
  }, g);
  el("rect", { class: "slot", x: spot.x, y: spot.y, width: W, height: H, rx: 9 }, g);
  if (!pile.cards.length && pile.label) {
    const label = el("text", { class: "slot-label", x: spot.x + W / 2, y: spot.y + H / 2 }, g);
    label.textContent = pile.label;
  }
  const n = pile.cards.length;
  for (const [j, x, y] of spot.cards) {
    const picked = state.selected && state.selected.pile === i && j >= n - state.selected.count;
    const movable = view.game.active && pile.cards[j]
      && (pile.drag === "run" || (pile.drag === "top" && j === n - 1));
    const tappable = view.game.active && pile.tap;
    const cls = [movable || tappable ? "" : "fixed", picked ? "picked" : ""].join(" ");
    const card = drawCard(g, pile.cards[j], x, y, cls, j, pile);
    card.setAttribute("aria-hidden", "true");
  }
  if (n && pile.label.length > 2) {
    const cap = el("text", { class: "caption", x: spot.x + W / 2, y: spot.y + H + 19 }, g);
    cap.textContent = pile.label;
  }
  el("rect", {
    class: "focus-ring", x: spot.x - 4, y: spot.y - 4, width: spot.width + 8, height: spot.height + 8, rx: 12,
  }, g);
}

function showNumbers() {
  const game = state.view.game;
  let home = game.home, moves = game.moves;
  for (const entry of state.queue) {  // the queued moves, as drawn
    if (!entry.drop) continue;
    moves += 1;
    if (entry.home) home += entry.drop[2];
  }
  $("numbers").textContent = `${home}/52 · ${moves}`;
}

function showView(view) {
  // The server's position: the queued moves are drawn on it again.
  if (!view) return;
  state.view = view;
  state.kind = view.game.kind;
  state.selected = null;
  const game = view.game;
  $("kind").value = game.kind;
  $("code").textContent = game.code || "⚑";  // a race deal stays secret (a flag DejaVu draws)
  $("text").innerHTML = markdown(view.text);
  $("undo").disabled = !game.can_undo;
  $("hint").disabled = !game.active || !game.hints;
  const home = $("home");
  home.hidden = !view.table.home;
  home.textContent = view.table.home;
  home.disabled = !game.active || !view.table.home_ready;
  redraw();
  showMine();
}

function redraw() {
  state.table = state.view ? queuedTable() : null;
  if (state.view) showNumbers();
  if (press) state.later = true;  // not under a finger: drawn when it lets go
  else draw();
}

function showEmpty() {
  state.view = null;
  state.table = null;
  $("code").textContent = "";
  $("numbers").textContent = "";
  $("text").textContent = state.words.choose || "";
  for (const id of ["undo", "hint", "home"]) $(id).disabled = true;
  draw();
}

function newer(view) {
  // Never backwards: a position is shown only if it is another game's or a later version.
  const shown = state.view;
  return !shown || view.game.id !== shown.game.id || view.game.version > shown.game.version;
}

// -- the moves made, drawn before the server answers -----------------------------------------
function copyTable(table) {
  return { ...table, piles: table.piles.map((p) => ({ ...p, cards: [...p.cards] })) };
}

function moved(table, drop) {
  // The table with ``drop`` ([source, target, count]) drawn on it, or null when it cannot be
  // drawn (no such cards to carry): the cards leave the top of the source for the target's top
  // (of the piles that take this drop, the one of the carried card's suit, if one says so).
  const [source, target, count] = drop;
  const out = copyTable(table);
  const from = out.piles.find((p) => p.place === source && p.drag !== "none");
  if (!from || count < 1 || from.cards.length < count) return null;
  const carried = from.cards.slice(from.cards.length - count);
  if (carried.some((c) => !c)) return null;
  const takers = out.piles.filter((p) => p.drop === target && p !== from);
  if (!takers.length) return null;
  const to = takers.find((p) => p.suit && p.suit === carried[0][1]) || takers[0];
  from.cards.length -= count;
  to.cards.push(...carried);
  return out;
}

function queuedTable() {
  let table = state.view.table;
  for (const entry of state.queue) {
    if (!entry.drop) continue;
    const next = moved(table, entry.drop);
    if (next) table = next;
  }
  return table;
}

function listed(drop) {
  const drops = (state.view.moves && state.view.moves.drops) || [];
  return drops.some((d) => d[0] === drop[0] && d[1] === drop[1] && d[2] === drop[2]);
}

function tapDrop(place) {
  const taps = (state.view.moves && state.view.moves.taps) || {};
  return taps[place] ? [place, taps[place][0], taps[place][1]] : null;
}

function isHome(drop, table) {
  const to = table.piles.find((p) => p.drop === drop[1]);
  return Boolean(to && to.role === "foundation");
}

function propose(move, options) {
  // A move made: drawn at once when the server listed it as legal here (or, behind others still
  // on their way, when its cards can be carried: the engine decides), queued, sent in turn.
  const { t0 = performance.now(), lifted = null } = options || {};
  if (!state.view) return;
  state.epoch += 1;
  const entry = { move, t0, drop: null, home: false, unlisted: false, guess: false };
  const alone = state.queue.length === 0;
  let drop = null;
  if (move.act === "drop") drop = [move.source, move.target, move.count];
  else if (move.act === "tap" && alone) {
    drop = tapDrop(move.source);
    entry.unlisted = !drop;  // no one-press move here: the answer says why
  }
  if (drop && alone && !listed(drop)) {
    entry.unlisted = true;  // not a legal move here: it snaps back; the answer says why
  } else if (drop && moved(state.table, drop)) {
    entry.drop = drop;
    entry.home = isHome(drop, state.table);
    entry.guess = !alone;
  }
  state.queue.push(entry);
  const turn = move.act === "tap" && state.table.piles.some((p) => p.place === move.source && p.tap);
  if (turn) say("");  // a new move (a stock turned): the words about the last one go
  if (entry.drop) {
    say("");
    redraw();
    timeDrawn(entry);
  } else if (lifted) {
    snapBack(lifted).then(() => { if (!press) redraw(); });
  }
  pump();
}

function timeDrawn(entry) {
  // From the drop to the frame that shows its cards in their new place.
  requestAnimationFrame(() => {
    state.drawn.push(performance.now() - entry.t0);
    if (state.drawn.length > 1000) state.drawn.shift();
  });
}

async function pump() {
  if (state.sending || !state.queue.length || !state.view) return;
  state.sending = true;
  const entry = state.queue[0];
  const view = state.view;
  if (entry.move.act === "tap" && !entry.drop && !entry.unlisted) {
    const drop = tapDrop(entry.move.source);  // this position is the one it is played on
    if (drop && moved(view.table, drop)) {
      entry.drop = drop;
      entry.home = isHome(drop, view.table);
      redraw();
      timeDrawn(entry);
    }
  }
  const answer = await api("/api/play", { game: view.game.id, version: view.game.version, ...entry.move });
  state.sending = false;
  state.queue.shift();
  if (answer.status === 200 && answer.view) confirmed(entry, answer.view);
  else refused(entry, answer);
  pump();
}

function confirmed(entry, view) {
  if (!entry.drop) timeDrawn(entry);  // drawn only now: its drawing is its confirmation
  if (newer(view)) showView(view);
  else redraw();
  // From the drop (or tap) to the confirmed position drawn: benchmarks/activity.py reads it.
  state.timings.push(performance.now() - entry.t0);
  if (state.timings.length > 1000) state.timings.shift();
  if (!state.queue.length && !entry.unlisted) say("");
}

function refused(entry, answer) {
  state.refusals += 1;
  const words = answer.error || `HTTP ${answer.status}`;
  if (entry.unlisted && answer.status === 422) {
    // The legal moves said so: nothing changed, the moves made since still stand.
    if (answer.view && newer(answer.view)) showView(answer.view);
    else redraw();
    say(words, true);
    return;
  }
  // Back to the server's position: the moves drawn after this one were drawn on a position
  // that did not happen.
  if (entry.drop || state.queue.some((e) => e.drop)) state.rollbacks += 1;
  state.queue = [];
  state.epoch += 1;
  overturned();
  if (answer.view && (newer(answer.view) || answer.view.game.id === state.view.game.id)) showView(answer.view);
  else if (answer.status === 0) refresh(true);
  else redraw();
  say(words, true);
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

function tapPile(index, t0) {
  // One tap selects (or drops the selection here); two quick taps play the chat's one-press move.
  const view = state.view;
  if (!view || !view.game.active) return;
  const spot = state.layout[index];
  const pile = spot.pile;
  if (pile.tap) {  // a tap plays it (a stock turns): nothing to pick up, no double tap to wait for
    state.selected = null;
    state.lastTap = null;
    propose({ act: "tap", source: pile.place }, { t0 });
    return;
  }
  const now = Date.now();
  const last = state.lastTap;
  state.lastTap = { index, t: now };
  if (last && last.index === index && now - last.t < DOUBLE_TAP_MS && pile.drag !== "none") {
    state.selected = null;
    state.lastTap = null;
    propose({ act: "tap", source: pile.place }, { t0 });
    return;
  }
  const sel = state.selected;
  if (sel && sel.pile !== index && pile.drop) {
    const source = state.layout[sel.pile].pile.place;
    state.selected = null;
    propose({ act: "drop", source, target: pile.drop, count: sel.count }, { t0 });
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

// -- pointer: drag and drop, taps (mouse, pen and finger alike) -----------------------------------
let press = null;

function svgPoint(event) {
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  return point.matrixTransform(svg.getScreenCTM().inverse());
}

function pileAt(point, except) {
  let best = null;
  const half = (state.gapX || 0) / 2;
  state.layout.forEach((spot, i) => {
    if (i === except || !spot.pile.drop) return;
    const inside = point.x >= spot.x - half && point.x <= spot.x + W + half
      && point.y >= spot.y - GAP_Y / 2 && point.y <= spot.y + Math.max(spot.height, H) + H * 0.6;
    if (inside) best = i;
  });
  return best;
}

function cardAt(spot, point) {
  // The card under the finger: the one whose visible edge holds it (the top card below them);
  // on a pile not fanned, its top card.
  const drawn = spot.cards;
  if (!drawn.length) return -1;
  if (!spot.pile.fan) return drawn[drawn.length - 1][0];
  let found = drawn[0][0];
  for (const [j, , y] of drawn) if (point.y >= y) found = j;
  return found;
}

svg.addEventListener("pointerdown", (event) => {
  const pileEl = event.target.closest(".pile");
  if (!pileEl || !state.view || press) return;
  const index = Number(pileEl.dataset.pile);
  const spot = state.layout[index];
  const start = svgPoint(event);
  let count = 0;
  let cards = [];
  const at = cardAt(spot, start);
  const pile = spot.pile;
  const movable = at >= 0 && state.view.game.active && pile.cards[at]
    && (pile.drag === "run" || (pile.drag === "top" && at === pile.cards.length - 1));
  if (movable) {
    count = pile.cards.length - at;
    cards = [...pileEl.querySelectorAll(".card")].filter((c) => Number(c.dataset.index) >= at);
  }
  press = { index, count, cards, start, x: event.clientX, y: event.clientY, moved: false, id: event.pointerId };
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

function overturned() {
  // The position under a finger gives way to one the player has not seen (the server refused a
  // move drawn on it, or the chat moved the game on): the cards it holds were picked up on a
  // position that no longer stands, so its drop (or tap) is not played on the new one, which it
  // might carry other cards on, and the words saying why stay. It is drawn when the finger lets go.
  if (press) press.stale = true;
}

function letGo() {
  // The press is over: a position that came while it lasted is drawn now.
  press = null;
  if (state.later) { state.later = false; draw(); }
}

svg.addEventListener("pointerup", (event) => {
  if (!press || event.pointerId !== press.id) return;
  const done = press;
  letGo();
  svg.querySelectorAll(".pile.target").forEach((g) => g.classList.remove("target"));
  if (done.stale) { state.lastTap = null; return; }  // the new position is drawn (letGo)
  if (!done.moved) { tapPile(done.index, event.timeStamp); return; }
  state.lastTap = null;
  const point = svgPoint(event);
  const box = svg.getBoundingClientRect();
  const outside = event.clientX < box.left || event.clientX > box.right
    || event.clientY < box.top || event.clientY > box.bottom;
  const over = outside ? null : pileAt(point, done.index);  // let go off the table: cancelled
  if (over === null) { snapBack(done.cards).then(() => { if (!press) redraw(); }); return; }
  const source = state.layout[done.index].pile.place;
  const target = state.layout[over].pile.drop;
  state.selected = null;
  propose({ act: "drop", source, target, count: done.count }, { t0: event.timeStamp, lifted: done.cards });
});

svg.addEventListener("pointercancel", () => {
  const done = press;
  letGo();
  if (done && done.moved) snapBack(done.cards).then(() => { if (!press) redraw(); });
  else redraw();
});

// A long press opens no menu and selects nothing on the table.
$("felt").addEventListener("contextmenu", (event) => event.preventDefault());

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
    const faceUp = pile.cards.length - pile.cards.lastIndexOf("") - 1;  // never a face-down card
    state.selected.count = Math.min(faceUp, state.selected.count + 1);
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

function drained() {
  // Resolved once every move made has its answer (a switch of game waits for them).
  return new Promise((resolve) => {
    const check = () => (state.queue.length || state.sending ? setTimeout(check, 20) : resolve());
    check();
  });
}

async function start(options) {
  await drained();
  state.epoch += 1;
  const answer = await api("/api/start", { kind: state.kind, instance: state.instance, ...options });
  if (answer.status === 200) { say(""); state.view = null; showView(answer.view); return; }
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
  const kind = $("kind").value;
  await drained();
  state.kind = kind;
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
  if (race && race.status === "running" && joined && state.view && !state.queue.length && !state.sending
      && (state.view.game.kind !== race.kind || state.view.game.code)) {
    state.kind = race.kind;
    refresh(true);
    return;
  }
  // The chat moved my game on (a press, /undo): the board follows now, not at its next poll.
  const mine = room.yours;
  if (mine && state.view && mine[0] === state.view.game.id && mine[1] > state.view.game.version
      && !state.queue.length && !state.sending) {
    refresh(false);
  }
  showMine();
}

function showMine() {
  // My own line at the table shows what my board shows (the snapshot may be a second old).
  const room = state.room;
  const item = document.querySelector("#room-players li.you .progress");
  if (!room || !item || !state.view) return;
  const me = room.players.find((p) => p.id === room.you);
  if (!me || !me.game || me.game.kind !== state.view.game.kind) return;
  item.textContent = `${me.game.title} ${$("numbers").textContent}`;
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
  // The player's game as stored. Shown only if newer than the position shown, and only if no
  // move was made (nor game switched) since it was asked for: a move's own answer tells more.
  if (switching) state.epoch += 1;
  const epoch = state.epoch;
  const query = new URLSearchParams();
  if (state.kind) query.set("kind", state.kind);
  if (state.instance) query.set("instance", state.instance);
  const answer = await api(`/api/state?${query}`);
  if (answer.status !== 200) { if (switching) say(answer.error, true); return; }
  state.words = answer.words;
  state.games = answer.games;
  if (epoch !== state.epoch || state.queue.length || state.sending) return;
  if (!answer.view) showEmpty();
  else if (switching || newer(answer.view)) {
    if (switching) state.view = null;
    overturned();
    showView(answer.view);
  }
}

function words(w) {
  $("undo").textContent = w.undo;
  $("hint").textContent = w.hint;
  $("new").textContent = w.new;
  $("daily").textContent = w.daily;
  $("code-input").placeholder = w.code;
  $("code-input").size = Math.max(14, w.code.length + 1);  // the whole placeholder shows
  $("code-input").setAttribute("aria-label", w.code);
  $("ask-yes").textContent = w.confirm;
  $("ask-no").textContent = w.keep;
  $("help").textContent = state.touch ? w.touch_help : w.help;  // no keyboard words on a phone
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
  // Without a game named, the server opens the one the player sits at in this instance's
  // channel (a board's "Play on the cards", or the game shown here before a reload).
  const query = new URLSearchParams();
  if (state.kind) query.set("kind", state.kind);
  if (state.instance) query.set("instance", state.instance);
  const first = await api(`/api/state?${query}`);
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
  document.body.classList.toggle("touch", state.touch);
  if (first.view) showView(first.view);
  else { state.kind = state.kind || first.games[0].kind; select.value = state.kind; showEmpty(); }
  document.body.dataset.ready = "1";
  setInterval(() => {
    if (document.visibilityState === "visible" && !state.queue.length && !state.sending && !press) refresh(false);
  }, POLL_MS);
  window.addEventListener("resize", () => { if (!press) draw(); });
  if (state.instance) {
    await pollRoom();
    setInterval(pollRoom, ROOM_POLL_MS);
  }
}

boot();
