// mjc serve browser client: plain JS, no build step.
// Lobby (open tables, a new table from a variant's option panel), invite
// links (/t/ID), spectators (/watch/ID), one seat's play over the WebSocket
// protocol (/api/protocol.schema.json) and a replay viewer (/replay/ID/H).
// Events and view fields it does not know are shown generically.
"use strict";

const { tileSvg, tileZh, tileName } = window.Tiles;
const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const k of kids) if (k !== null && k !== undefined && k !== false) e.append(k);
  return e;
};
const both = (zh, en) => el("span", {}, zh + " ", el("small", { text: en }));
const TILE_RE = /[1-9][mpsz]|[1-8]f/g;
const tilesIn = (text) => (String(text).match(TILE_RE) || []);
const WINDS = ["东", "南", "西", "北"];
const WINDS_EN = ["E", "S", "W", "N"];
const SUIT_ZH = { m: "万", p: "筒", s: "条" };

// ------------------------------------------------------------ storage

const store = {
  get(key, dflt) { try { return JSON.parse(localStorage.getItem(key)) ?? dflt; } catch (e) { return dflt; } },
  set(key, v) { localStorage.setItem(key, JSON.stringify(v)); },
  seat(table) { return store.get("mjc-seats", {})[table] || null; },
  saveSeat(table, s) { const all = store.get("mjc-seats", {}); if (s) all[table] = s; else delete all[table]; store.set("mjc-seats", all); },
  owner(table) { return store.get("mjc-owner", {})[table] || null; },
  saveOwner(table, token) { const all = store.get("mjc-owner", {}); all[table] = token; store.set("mjc-owner", all); },
  name() { return localStorage.getItem("mjc-name") || ""; },
  saveName(n) { localStorage.setItem("mjc-name", n); },
};

// ------------------------------------------------------------ state

const S = {
  variants: [], mode: null, tableId: null, seat: null, token: null, spectator: false,
  ws: null, info: null, view: null, msg: null, hints: null, last: 0, retry: 0, deadline: null,
  wilds: [], dealt: null, hashes: {}, results: [], lastAsk: null, emoteAt: {}, closed: false, pick: [],
};

const VERBS = {
  discard: ["打", "Discard"], pong: ["碰", "Pung"], kong: ["杠", "Kong"], chow: ["吃", "Chow"],
  hu: ["胡", "Win"], pass: ["过", "Pass"], ready: ["报听", "Declare ready"], take: ["拿", "Take"], buy: ["买点", "Buy"],
  double: ["加倍", "Double"], exchange: ["换牌", "Exchange"], void: ["定缺", "Void suit"],
};
const EMOTES = { thumbs_up: "赞", laugh: "哈哈", cry: "呜呜", angry: "哼", hurry: "快点", wow: "哇" };

// a match of N hands, or of N rounds of wind (hands is then 0: the deal decides how many)
function matchLength(t) {
  return t.rounds ? `${t.rounds}圈 ${t.rounds === 1 ? "round" : "rounds"} of wind` : `${t.hands}局 hands`;
}

function variantOf(name) { return S.variants.find((v) => v.name === name); }
function unitOf() { const u = S.info && S.info.unit; return u ? u : { zh: "番", en: "fan" }; }
function seatName(s) {
  const i = S.info && S.info.seats && S.info.seats[s];
  const mine = s === S.seat && !S.spectator;
  const name = i ? (i.kind === "bot" ? botName(s) : i.name || "空位 free") : `#${s + 1}`;
  return mine ? `${name} (我 me)` : name;
}
function botName(s) { return `机器人${"甲乙丙丁"[s] || s + 1} bot ${"ABCD"[s] || s + 1}`; }
function windOf(s, v) { const n = v.players; return (s - v.dealer + n) % n; }
function reasonLabel(id) {
  const v = S.info && variantOf(S.info.variant);
  const r = v && v.reasons && v.reasons[id];
  if (r) return `${r.zh} ${r.en}`;
  const fan = v && v.fans.find((f) => f.id === id);
  return fan ? `${fan.name.zh} ${fan.name.en}` : id.replace(/_/g, " ");
}

// ------------------------------------------------------------ tiles

function tile(t, opts = {}) {
  const wrap = el(opts.button ? "button" : "span", { class: "tile" + (opts.small ? " small" : "") + (opts.tiny ? " tiny" : "")
    + (opts.sideways ? " sideways" : "") + (opts.hot ? " hot" : "") + (opts.dim ? " dim" : "") + (opts.fresh ? " fresh" : ""),
    type: opts.button ? "button" : undefined, "data-tile": t || "back", "aria-label": tileName(t) });
  wrap.append(tileSvg(t, { wild: t && S.wilds.includes(t), title: opts.title }));
  return wrap;
}

// a meld with the claimed tile turned: from the seat on the left it is the
// first tile, from across the middle one, from the right the last
function meldEl(m, owner, n, small) {
  const tiles = [...m.tiles];
  let turned = -1;
  if (m.from !== undefined && m.from !== null && m.claimed) {
    const d = (m.from - owner + n) % n;
    const k = tiles.indexOf(m.claimed);
    if (k >= 0) {
      tiles.splice(k, 1);
      const at = d === n - 1 ? 0 : d === 1 ? tiles.length : Math.floor(tiles.length / 2);
      tiles.splice(at, 0, m.claimed);
      turned = at;
    }
  }
  const box = el("span", { class: "meld", title: `${m.type}${m.kind ? " " + m.kind : ""}${m.from !== undefined ? " ← " + seatName(m.from) : ""}` });
  tiles.forEach((t, i) => box.append(tile(t, { small, sideways: i === turned })));
  return box;
}

// ------------------------------------------------------------ HTTP

async function api(path, body, method) {
  const opts = body === undefined && !method ? {} : {
    method: method || "POST", headers: { "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body),
  };
  const r = await fetch(path, opts);
  const data = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) { const e = new Error(data.error || `HTTP ${r.status}`); e.status = r.status; throw e; }
  return data;
}

// ------------------------------------------------------------ routing

function show(section) {
  for (const id of ["lobby", "join", "game", "replay"]) $(id).hidden = id !== section;
}

function go(path) { history.pushState({}, "", path); route(); }
window.addEventListener("popstate", route);

async function route() {
  closeSocket();
  const parts = location.pathname.split("/").filter(Boolean);
  if (!S.variants.length) {
    try { S.variants = (await api("/api/variants")).variants; } catch (e) { $("lobby-error").textContent = e.message; }
  }
  if (parts[0] === "t" && parts[1]) return openTable(parts[1]);
  if (parts[0] === "watch" && parts[1]) return watch(parts[1]);
  if (parts[0] === "replay" && parts[1] && parts[2]) return openReplay(parts[1], +parts[2]);
  return lobby();
}

// ------------------------------------------------------------ lobby

let lobbyTimer = null;

function lobby() {
  show("lobby");
  $("where").textContent = "大厅 Lobby";
  $("my-name").value = store.name();
  fillVariants();
  refreshTables();
  clearInterval(lobbyTimer);
  lobbyTimer = setInterval(() => { if (!$("lobby").hidden) refreshTables(); }, 3000);
}

function optionsSummary(t) {
  const v = variantOf(t.variant);
  if (!v) return "";
  const out = [];
  for (const o of v.options) {
    const val = t.options[o.id];
    if (val === undefined || val === o.default) continue;
    const item = (o.values || []).find((x) => x.value === val);
    out.push(`${o.name.zh} ${item && item.label ? item.label.zh : val === true ? "✓" : val === false ? "✗" : val}`);
  }
  return out.join(" · ");
}

async function refreshTables() {
  let tables;
  try { tables = (await api("/api/tables")).tables; } catch (e) { return; }
  const box = $("open-tables");
  if (!tables.length) { box.replaceChildren(el("p", { class: "muted", text: "还没有牌桌：开一桌吧 No open table yet: start one below" })); return; }
  box.replaceChildren(...tables.map((t) => {
    const mine = store.seat(t.id);
    const seats = el("div", { class: "seat-list" }, ...t.seats.map((s) => el("span", {
      class: "seat-chip" + (t.free_seats.includes(s.seat) ? " free" : "") + (s.kind === "bot" ? " bot" : ""),
      text: t.free_seats.includes(s.seat) ? (s.left ? "空位(已离开) free" : "空位 free") : s.kind === "bot" ? "机器人" : s.name,
    })));
    const buttons = el("div", { class: "row-buttons" });
    if (mine) buttons.append(el("button", { class: "primary", onclick: () => go(`/t/${t.id}`) }, both("回到座位", "Back to my seat")));
    else if (t.free_seats.length) buttons.append(el("button", { class: "primary", "data-join": t.id, onclick: () => go(`/t/${t.id}`) }, both("加入", "Join")));
    buttons.append(el("button", { onclick: () => go(`/watch/${t.id}`) }, both("观战", "Watch")));
    return el("div", { class: "table-row", "data-table": t.id },
      el("div", {}, el("b", { text: `${t.title.zh} ` }), el("small", { text: t.title.en }),
        el("span", { class: "tag " + t.status, text: t.status === "waiting" ? "等人 waiting" : `第${t.hand + 1}${t.rounds ? "" : "/" + t.hands}局 playing` })),
      el("div", { class: "muted small", text: `${t.players}人 players · ${matchLength(t)}${optionsSummary(t) ? " · " + optionsSummary(t) : ""}` }),
      seats, buttons);
  }));
}

function fillVariants() {
  const sel = $("variant");
  if (sel.options.length) return;
  sel.replaceChildren(...S.variants.map((v) => el("option", { value: v.name, text: `${v.title.zh} ${v.title.en}` })));
  sel.onchange = showVariant;
  $("players").onchange = showSeats;
  showVariant();
}

function showVariant() {
  const v = variantOf($("variant").value);
  $("summary").textContent = v.summary || "";
  $("players").replaceChildren(...v.players.map((n) => el("option", { value: n, text: `${n} 人 players`, selected: n === v.default_players })));
  const normal = $("options"), adv = $("advanced");
  normal.replaceChildren(el("legend", {}, both("选项", "Options")));
  adv.replaceChildren();
  for (const o of v.options) (o.advanced ? adv : normal).append(optionInput(o));
  $("advanced-box").hidden = !v.options.some((o) => o.advanced);
  showSeats();
}

function optionInput(o) {
  const label = el("label", { title: o.doc || o.rule || "" }, both(o.name.zh, o.name.en), " ");
  // where the option comes from (the variant's source: marks)
  const from = { document: "原文 document", resolution: "释疑 resolution", house: "自定 house" }[o.source];
  if (from) label.append(el("small", { class: "source", title: "from: " + from, text: `[${from.split(" ")[0]}]` }), " ");
  let input;
  if (o.type === "bool") {
    input = el("input", { type: "checkbox", "data-option": o.id, "data-type": "bool", checked: o.default === true });
  } else if (o.values) {
    input = el("select", { "data-option": o.id, "data-type": o.type });
    for (const item of o.values) {
      const text = item.label ? `${item.label.zh}${item.label.en && item.label.en !== item.label.zh ? " · " + item.label.en : ""}` : String(item.value);
      input.append(el("option", { value: String(item.value), text, selected: item.value === o.default }));
    }
  } else {
    input = el("input", { type: "number", "data-option": o.id, "data-type": o.type, value: o.default, min: o.minimum, max: o.maximum });
  }
  label.append(input);
  return label;
}

function showSeats() {
  const n = +$("players").value;
  const box = $("seats");
  box.replaceChildren(el("legend", {}, both("座位", "Seats")));
  for (let s = 0; s < n; s++) {
    const sel = el("select", { "data-seat": s, disabled: s === 0 },
      el("option", { value: "human", text: s === 0 ? "我 me" : "玩家 friend", selected: s === 0 }),
      el("option", { value: "bot", text: "机器人 bot", selected: s !== 0 }));
    box.append(el("label", {}, `${WINDS[s]} `, sel));
  }
}

function readOptions() {
  const out = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    const t = input.dataset.type;
    out[input.dataset.option] = t === "bool" ? input.checked : t === "int" ? parseInt(input.value, 10) : input.value;
  }
  return out;
}

function myName() {
  const n = ($("my-name").value || store.name() || "").trim().slice(0, 24);
  if (n) store.saveName(n);
  return n;
}

async function createTable(ev) {
  ev.preventDefault();
  $("lobby-error").textContent = "";
  const n = +$("players").value;
  const seats = [...document.querySelectorAll("[data-seat]")].map((s) => s.value).slice(0, n);
  const body = {
    variant: $("variant").value, players: n, options: readOptions(), seats, bot: $("bot").value,
    turn_seconds: $("turn").value ? +$("turn").value : null, bot_delay: +$("delay").value,
    ready_check: seats.filter((s) => s === "human").length > 1,
  };
  if ($("hands").value) body.hands = +$("hands").value;
  try {
    const table = await api("/api/tables", body);
    store.saveOwner(table.id, table.owner_token);
    const seat = await api(`/api/tables/${table.id}/join`, { seat: 0, name: myName() || "庄家" });
    store.saveSeat(table.id, { token: seat.token, seat: seat.seat });
    go(`/t/${table.id}`);
  } catch (e) {
    $("lobby-error").textContent = `开桌失败 Could not create the table: ${e.message}`;
  }
}

// ------------------------------------------------------------ invite link: sit down

async function openTable(id) {
  const mine = store.seat(id);
  if (mine) return enterTable(id, mine);
  show("join");
  $("where").textContent = "";
  $("join-error").textContent = "";
  $("join-name").value = store.name();
  let t;
  try { t = await api(`/api/tables/${id}`); } catch (e) {
    $("join-info").textContent = `找不到牌桌 No such table: ${e.message}`;
    $("join-btn").hidden = true;
    return;
  }
  S.info = t;
  const free = t.free_seats.length;
  $("join-title").replaceChildren(both(`${t.title.zh} · 入座`, `${t.title.en} · take a seat`));
  $("join-info").textContent = `${t.players}人 players, ${matchLength(t)} · ` + t.seats.map((s) => `${WINDS[s.seat]} ${s.kind === "bot" ? "机器人" : t.free_seats.includes(s.seat) ? "空位 free" : s.name}`).join(" · ");
  $("join-btn").hidden = !free;
  if (!free) $("join-error").textContent = "没有空位了，可以观战 No free seat: you can watch";
  $("join-btn").onclick = async () => {
    const name = ($("join-name").value || "").trim().slice(0, 24);
    if (!name) { $("join-error").textContent = "请填写名字 Please give a name"; $("join-name").focus(); return; }
    store.saveName(name);
    try {
      const seat = await api(`/api/tables/${id}/join`, { name });
      store.saveSeat(id, { token: seat.token, seat: seat.seat });
      enterTable(id, seat);
    } catch (e) { $("join-error").textContent = `入座失败 Could not sit down: ${e.message}`; }
  };
  $("watch-btn").onclick = () => go(`/watch/${id}`);
}

function resetTable(id) {
  Object.assign(S, { tableId: id, info: null, view: null, msg: null, hints: null, last: 0, retry: 0, deadline: null,
    wilds: [], dealt: null, hashes: {}, results: [], lastAsk: null, closed: false });
  $("log").replaceChildren();
  $("result").hidden = true;
  $("fair").replaceChildren();
}

function enterTable(id, seat) {
  resetTable(id);
  S.seat = seat.seat; S.token = seat.token; S.spectator = false;
  show("game");
  document.body.classList.remove("spectating");
  connect();
}

function watch(id) {
  resetTable(id);
  S.seat = null; S.token = null; S.spectator = true;
  show("game");
  document.body.classList.add("spectating");
  connect();
}

// ------------------------------------------------------------ socket

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/tables/${S.tableId}`);
  S.ws = ws;
  ws.onopen = () => ws.send(JSON.stringify(S.spectator ? { type: "hello", spectate: true, last_seen: S.last }
    : { type: "hello", token: S.token, last_seen: S.last }));
  ws.onmessage = (m) => onMessage(JSON.parse(m.data));
  ws.onclose = (ev) => {
    if (S.ws !== ws) return;
    setConn(false);
    if ([4001, 4401, 4403, 4404, 4410].includes(ev.code) || (ev.code === 4000 && !S.closed)) {
      addLog(`连接结束 Disconnected: ${ev.reason || ev.code}`, "error");
      if (ev.code === 4401 || ev.code === 4001) store.saveSeat(S.tableId, null);
      if (ev.code === 4410) renderWaiting();
      return;
    }
    if (!S.closed) setTimeout(() => { if (S.ws === ws) connect(); }, Math.min(5000, 400 * ++S.retry));
  };
}

function closeSocket() {
  S.closed = true;
  const ws = S.ws;
  S.ws = null;
  if (ws) ws.close();
}

function setConn(on) {
  const b = $("conn");
  b.className = "badge " + (on ? "on" : "off");
  b.textContent = on ? (S.spectator ? "观战中 watching" : "已连接 online") : "未连接 offline";
}

function send(msg) { if (S.ws && S.ws.readyState === 1) S.ws.send(JSON.stringify(msg)); }

function onMessage(m) {
  if (m.n) {
    // numbered: exactly once each, in order; a gap asks for a resend
    if (m.n <= S.last) return;
    if (m.n !== S.last + 1) { send({ type: "sync", last_seen: S.last }); return; }
    S.last = m.n;
  }
  switch (m.type) {
    case "welcome": S.info = m.table; S.retry = 0; S.lastAsk = null; setConn(true); renderAll(); break;  // a move sent before a drop may be lost: answer again
    case "status":
      if (S.info) {
        S.info.seats = m.seats; S.info.status = m.status;
        if (m.free_seats) S.info.free_seats = m.free_seats;
        if (m.spectators !== undefined) S.info.spectators = m.spectators;
      }
      renderAll(); break;
    case "view":
      if (S.msg && m.hand === S.msg.hand && m.step < S.msg.step) break;  // an older view
      S.msg = m; S.view = m.view; S.hints = m.hints || null;
      if (m.view) S.wilds = m.view.wilds || [];
      S.deadline = m.deadline_ms == null ? null : Date.now() + m.deadline_ms;
      renderAll();
      break;
    case "event": onEvent(m.event, m.by); break;
    case "hand_start":
      S.hashes[m.hand] = m.seed_sha256; S.dealt = null; $("result").hidden = true;
      if (S.info) { S.info.hand = m.hand; S.info.status = "playing"; }
      addLog(`第${m.hand + 1}局开始 Hand ${m.hand + 1}: 庄 dealer ${seatName(m.dealer)}`);
      renderFair(m); break;
    case "hand_end": S.results[m.hand] = m; if (S.info) { S.info.scores = m.scores; S.info.hands_played = m.hand + 1; } showResult(m); break;
    case "match_end": addLog(`比赛结束 Match over: ${m.scores.join(" / ")}`); if (S.info) S.info.status = "finished"; showMatchEnd(m); break;
    case "emote": showEmote(m.seat, m.emote); break;
    case "error": addLog(`⚠ ${m.message} (${m.code})`, "error"); break;
  }
}

// ------------------------------------------------------------ events (log)

function describe(e, everything) {
  const who = (s) => seatName(s);
  const t = (x) => (x ? `${tileZh(x)}` : "");
  switch (e.type) {
    case "deal": S.dealt = e.hand;
      return `发牌 Deal: ${e.wall} 张在墙 in the wall` + (e.indicator ? `, 翻鬼 indicator ${t(e.indicator)}` : "") + (e.wilds ? `, 鬼牌 wilds ${e.wilds.map(tileZh).join(" ")}` : "");
    case "draw": return everything ? `${who(e.seat)} 摸 draws ${t(e.tile)}` : e.tile ? `摸牌 You draw ${t(e.tile)}` : null;
    case "replacement": return `${who(e.seat)} 补牌 replacement ${e.tile ? t(e.tile) : ""}`;
    case "flower": return `${who(e.seat)} 补花 flower ${t(e.tile)}`;
    case "discard": return `${who(e.seat)} 打 ${t(e.tile)}${e.ready ? " 报听 ready" : ""}`;
    case "ready": return `${who(e.seat)} 报听 declares ready`;
    case "pong": return `${who(e.seat)} 碰 ${t(e.tile)} ← ${who(e.source)}`;
    case "chow": return `${who(e.seat)} 吃 ${t(e.tile)} (${(e.tiles || []).map(tileZh).join("")})`;
    case "kong": return `${who(e.seat)} 杠 kong ${e.tile ? t(e.tile) : (e.tiles || []).map(tileZh).join("")} (${e.kind})`;
    case "payment": return `${who(e.from)} → ${e.to === null ? "台费 house" : who(e.to)} ${e.amount}分 (${reasonLabel(e.reason)})`;
    case "hu": return `${who(e.seat)} 胡 ${t(e.tile)} ${e.self_drawn ? "自摸 self-drawn" : "← " + who(e.source)}`;
    case "double": return `${who(e.seat)} 加倍 doubles (×${e.doublings})`;
    case "end": return e.end === "draw" ? "荒庄 Exhausted wall" : "结束 Hand over";
    case "stakes": return `买点 Stakes on offer: ${e.values.join(", ")}`;
    case "bought": return `买点 Stakes bought: ${e.stakes.join(" / ")}`;
    default: {  // an event this client does not know: its fields, tiles drawn
      const parts = Object.entries(e).filter(([k]) => k !== "type").map(([k, v]) => k === "seat" ? who(v) : `${k}: ${typeof v === "object" ? JSON.stringify(v) : v}`);
      return `${e.type} ${parts.join(", ")}`;
    }
  }
}

function onEvent(e, by) {
  const text = describe(e);
  if (text) addLog(text + (by === "auto" ? " [托管 auto]" : ""), e.type === "hu" ? "win" : "");
  if (e.type === "discard") S.lastDiscard = { seat: e.seat, tile: e.tile, at: Date.now() };
}

function addLog(text, cls) {
  const log = $("log");
  log.prepend(el("li", { class: cls || "", text }));
  while (log.children.length > 200) log.lastChild.remove();
}

function showEmote(seat, emote) {
  S.emoteAt[seat] = { emote, until: Date.now() + 3000 };
  renderBoard();
  setTimeout(renderBoard, 3100);
}

// ------------------------------------------------------------ rendering the table

function renderAll() { renderInfo(); renderWaiting(); renderBoard(); renderMine(); }

function renderInfo() {
  const i = S.info;
  if (!i) return;
  const v = S.view;
  $("where").textContent = `${i.title.zh} ${S.spectator ? "· 观战 watching" : ""}`;
  const box = $("info");
  box.replaceChildren(
    el("b", {}, `${i.title.zh} `, el("small", { text: i.title.en })),
    el("span", { text: `第 ${Math.max(0, (S.msg ? S.msg.hand : i.hand)) + 1}${i.rounds ? "" : " / " + i.hands} 局 hand` }),
  );
  if (v) {
    box.append(el("span", { class: "wall-count", text: `牌墙 wall ${v.wall_remaining}` }));
    if (v.indicator) box.append(el("span", {}, "翻鬼 indicator ", tile(v.indicator, { tiny: true })));
    if (v.wilds && v.wilds.length) box.append(el("span", {}, "鬼牌 wilds ", ...v.wilds.map((t) => tile(t, { tiny: true }))));
    if (v.face_up && v.face_up.length) box.append(el("span", {}, "翻牌 face-up tail ", ...v.face_up.map((t) => tile(t, { tiny: true }))));
    if (v.horses) box.append(el("span", { text: "买马 horses " + Object.entries(v.horses).map(([s, k]) => `${seatName(+s)}×${k}`).join(" ") }));
  }
  if (i.spectators) box.append(el("span", { class: "muted", text: `观战 ${i.spectators} watching` }));
  if (i.status === "finished") box.append(el("b", { class: "tag", text: "已结束 finished" }));
  if (i.status === "abandoned") box.append(el("b", { class: "tag auto", text: "已关闭 closed" }));
}

function renderWaiting() {
  const i = S.info, box = $("waiting");
  if (!i || (i.status !== "waiting" && i.status !== "abandoned")) { box.hidden = true; return; }
  box.hidden = false;
  if (i.status === "abandoned") { box.replaceChildren(el("h3", {}, both("牌桌已关闭", "This table was closed by its creator"))); return; }
  const link = `${location.origin}/t/${i.id}`;
  const owner = store.owner(i.id);
  const me = i.seats[S.seat];
  box.replaceChildren(
    el("h3", {}, both("等待玩家", "Waiting for players")),
    el("p", {}, both("邀请好友", "Invite a friend"), " ", el("input", { id: "invite", readonly: true, value: link, onclick: (e) => e.target.select() }),
      el("button", { type: "button", onclick: () => navigator.clipboard && navigator.clipboard.writeText(link) }, both("复制", "Copy"))),
    el("div", { class: "seat-list" }, ...i.seats.map((s) => el("span", {
      class: "seat-chip" + (i.free_seats.includes(s.seat) ? " free" : "") + (s.ready ? " ready" : ""),
      text: `${WINDS[s.seat]} ${s.kind === "bot" ? "机器人" : i.free_seats.includes(s.seat) ? "空位 free" : s.name}${s.ready ? " ✓" : ""}`,
    }))),
  );
  const row = el("p", { class: "row-buttons" });
  if (!S.spectator && me) {
    row.append(el("button", { id: "ready-btn", class: me.ready ? "" : "primary", onclick: () => send({ type: "ready", ready: !me.ready }) },
      me.ready ? both("取消准备", "Not ready") : both("准备", "Ready")));
  }
  if (owner && i.free_seats.length) {
    row.append(el("button", { onclick: () => api(`/api/tables/${i.id}/bots`, { token: owner }).catch((e) => addLog(e.message, "error")) }, both("机器人补位", "Bots in free seats")));
  }
  if (owner) {
    row.append(el("button", { class: "danger", onclick: () => closeTable(i.id, owner) }, both("关闭牌桌", "Close table")));
  }
  box.append(row);
}

async function closeTable(id, owner) {
  await fetch(`/api/tables/${id}`, { method: "DELETE", headers: { Authorization: `Bearer ${owner}` } });
}

function place(seat, n, me) {
  const d = (seat - me + n) % n;
  if (d === 0) return "bottom";
  if (n === 2) return "top";
  if (n === 3) return d === 1 ? "right" : "left";
  return ["bottom", "right", "top", "left"][d];
}

function seatTags(s, v, info) {
  const tags = [];
  if (s.seat === v.dealer) tags.push(el("span", { class: "tag dealer", text: "庄" }));
  if (s.declared_ready) tags.push(el("span", { class: "tag ready", text: "听 ready" }));
  if (s.out) tags.push(el("span", { class: "tag out", text: "已胡 out" }));
  const wins = Array.isArray(s.wins) ? s.wins.length : s.wins;
  if (wins) tags.push(el("span", { class: "tag out", text: `胡×${wins}` }));
  if (s.choices && typeof s.choices === "object") {
    for (const [k, val] of Object.entries(s.choices)) {
      const text = k === "void" ? `定缺 ${SUIT_ZH[val] || val}` : `${k} ${Array.isArray(val) ? val.join("") : val}`;
      tags.push(el("span", { class: "tag choice", text }));
    }
  }
  if (info && info.auto) tags.push(el("span", { class: "tag auto", text: "托管 auto" }));
  if (info && info.left) tags.push(el("span", { class: "tag", text: "已离开 left" }));
  else if (info && info.kind === "human" && !info.connected && s.seat !== S.seat) tags.push(el("span", { class: "tag", text: "离线 away" }));
  const emote = S.emoteAt[s.seat];
  if (emote && emote.until > Date.now()) tags.push(el("span", { class: "emote-bubble", text: EMOTES[emote.emote] || emote.emote }));
  return tags;
}

function seatHead(s, v, info) {
  const w = windOf(s.seat, v);
  const score = S.info && S.info.scores ? S.info.scores[s.seat] : 0;
  return el("div", { class: "seat-head" },
    el("span", { class: "wind", title: WINDS_EN[w], text: WINDS[w] }),
    el("span", { class: "name", text: seatName(s.seat) }),
    el("span", { class: "score", text: `${score >= 0 ? "+" : ""}${score}` }),
    ...seatTags(s, v, info));
}

function me() { return S.spectator ? 0 : S.seat; }

function renderBoard() {
  const v = S.view, i = S.info;
  if (!v || !i) { $("board").hidden = !!(i && i.status === "waiting"); return; }
  $("board").hidden = false;
  const n = v.players, my = me();
  for (const pos of ["top", "left", "right"]) { $("seat-" + pos).replaceChildren(); $("seat-" + pos).className = "seat-box empty"; }
  for (const pos of ["top", "left", "right", "bottom"]) $("pond-" + pos).replaceChildren();
  const last = S.lastDiscard;
  for (const s of v.seats) {
    const pos = place(s.seat, n, my);
    const info = (i.seats || [])[s.seat] || {};
    const acting = v.current === s.seat || (v.to_act || []).includes(s.seat) && s.seat !== S.seat;
    // the pond: this seat's discards, in front of it
    const pond = $("pond-" + pos);
    pond.className = "pond " + pos;
    const claimed = new Set(s.claimed);
    s.discards.forEach((t, k) => pond.append(tile(t, { small: true, dim: claimed.has(k),
      fresh: last && last.seat === s.seat && k === s.discards.length - 1 && Date.now() - last.at < 1500,
      hot: v.claim && v.claim.from === s.seat && k === s.discards.length - 1 && !claimed.has(k) })));
    if (pos === "bottom" && !S.spectator) continue;  // my own seat is drawn below the board
    const box = pos === "bottom" ? $("seat-top") : $("seat-" + pos);
    box.className = "seat-box " + pos + (acting ? " acting" : "");
    box.replaceChildren(seatHead(s, v, info));
    const row = el("div", { class: "row" });
    const shown = v.opponent_hands && v.opponent_hands[String(s.seat)];
    const ended = v.phase === "end" && S.msg && S.results[S.msg.hand];  // every hand is shown once it is over
    const revealed = (ended && ended.revealed && ended.revealed[String(s.seat)]) || (v.revealed && v.revealed[String(s.seat)]);
    const concealed = revealed || shown;
    if (concealed) concealed.forEach((t) => row.append(tile(t, { small: true })));
    else for (let k = 0; k < s.hand_size; k++) row.append(tile(null, { small: true }));
    const melds = el("div", { class: "row melds" }, ...s.melds.map((m) => meldEl(m, s.seat, n, true)));
    if (s.won_tiles && s.won_tiles.length) melds.append(el("span", { class: "meld won", title: "已胡 won tiles" }, ...s.won_tiles.map((t) => tile(t, { small: true, hot: true }))));
    if (s.flowers.length) melds.append(el("span", { class: "meld flowers", title: "花 flowers" }, ...s.flowers.map((t) => tile(t, { small: true }))));
    box.append(melds, row);
  }
  renderMiddle(v);
}

function renderMiddle(v) {
  const mid = $("middle");
  const parts = [el("div", { class: "wall-left", text: `余 ${v.wall_remaining}` })];
  if (v.claim) {
    parts.push(el("div", { class: "claim-tile" }, tile(v.claim.tile, { hot: true }),
      el("div", { text: `${seatName(v.claim.from)} ${v.claim.kind === "rob" ? "加杠 adds to a kong" : "打出 discards"}` })));
  } else if (v.phase === "turn" && v.current !== null && v.current !== undefined) {
    parts.push(el("div", { class: "turn" }, el("span", { class: "arrow", text: "▶" }), ` ${v.current === S.seat && !S.spectator ? "轮到你 your turn" : seatName(v.current) + " 出牌"}`));
  } else if (v.phase === "start") {
    parts.push(el("div", { class: "turn", text: "开局 opening" }));
  } else if (v.phase === "end") {
    parts.push(el("div", { class: "turn", text: "本局结束 hand over" }));
  }
  const w = S.msg && S.msg.deadline_ms != null && S.deadline ? Math.max(0, Math.round((S.deadline - Date.now()) / 1000)) : null;
  if (w !== null && S.msg.ask !== null) parts.push(el("div", { class: "clock", id: "clock", text: `${w}″` }));
  mid.replaceChildren(...parts);
}

function actionTiles(a, v) {
  // the tiles a claim or move would take or show
  const [verb, arg] = a.split(" ");
  const claimTile = v.claim ? v.claim.tile : null;
  if (verb === "chow") return [claimTile, ...tilesIn(arg)].filter(Boolean).sort();
  if (verb === "pong") return [arg || claimTile, arg || claimTile, arg || claimTile];
  if (verb === "kong") { const ts = tilesIn(arg || claimTile); return ts.length > 1 ? ts : [ts[0], ts[0], ts[0], ts[0]]; }
  if (verb === "hu") return claimTile ? [claimTile] : v.drawn ? [v.drawn] : [];
  if (verb === "void") return [];
  return tilesIn(arg || "");
}

function actionButton(a, v) {
  const [verb, arg] = a.split(" ");
  const [zh, en] = VERBS[verb] || [verb, verb];
  const label = verb === "void" ? `${zh} ${SUIT_ZH[arg] || arg}` : verb === "buy" ? `${zh} ${arg}` : zh;
  const b = el("button", { class: "act " + verb, "data-action": a, onclick: () => act(a) }, el("span", { class: "verb" }, label, " ", el("small", { text: en })));
  const ts = actionTiles(a, v);
  if (ts.length) b.append(el("span", { class: "act-tiles" }, ...ts.map((t, k) => tile(t, { tiny: true, hot: verb === "chow" && t === (v.claim && v.claim.tile) && k === ts.indexOf(t) }))));
  return b;
}

function renderMine() {
  const v = S.view, m = S.msg;
  const hand = $("hand"), bar = $("actions"), melds = $("my-melds"), head = $("me-head"), hints = $("hints");
  for (const e of [hand, bar, melds, head, hints]) e.replaceChildren();
  $("mine").hidden = S.spectator && !!v;
  if (S.spectator) {
    $("emotes").replaceChildren();
    if (v) { const bottomSeat = v.seats[0]; void bottomSeat; }
    return;
  }
  if (!v) {
    hand.append(el("span", { class: "muted", text: S.info && S.info.status === "waiting" ? "等待开局… waiting for the match to start" : "…" }));
    renderEmotes();
    return;
  }
  const mine = v.seats[S.seat];
  head.append(seatHead(mine, v, (S.info.seats || [])[S.seat]));
  if (v.exchange && (v.exchange.gave.length || v.exchange.received.length)) {
    head.append(el("span", { class: "exchange-note" }, "换出 gave ", ...v.exchange.gave.map((t) => tile(t, { tiny: true })),
      " 换入 received ", ...v.exchange.received.map((t) => tile(t, { tiny: true }))));
  }
  if (mine.won_tiles && mine.won_tiles.length) head.append(el("span", { class: "exchange-note" }, "已胡 won ", ...mine.won_tiles.map((t) => tile(t, { tiny: true }))));
  $("mine").classList.toggle("acting", v.current === S.seat || (m && m.ask !== null));
  mine.melds.forEach((x) => melds.append(meldEl(x, S.seat, v.players, false)));
  if (mine.flowers.length) melds.append(el("span", { class: "meld flowers" }, ...mine.flowers.map((t) => tile(t, { small: true }))));
  const legal = m && m.ask !== null ? v.legal_actions || [] : [];
  const discards = new Set(legal.filter((a) => a.startsWith("discard ")).map((a) => a.slice(8)));
  const readyDiscards = new Set(legal.filter((a) => a.startsWith("ready ")).map((a) => a.slice(6)));
  const after = (S.hints && S.hints.discards) || {};
  const tiles = [...v.hand];
  let drawn = null;
  if (v.drawn) { const k = tiles.lastIndexOf(v.drawn); if (k >= 0) { tiles.splice(k, 1); drawn = v.drawn; } }
  const exchanges = new Set(legal.filter((a) => a.startsWith("exchange ")));
  if (!exchanges.size) S.pick = [];
  let index = 0;
  const tileButton = (t, isDrawn) => {
    const b = tile(t, { button: true, hot: isDrawn });
    const k = index++;
    if (exchanges.size) {  // 换三张: pick the tiles to pass, then confirm
      b.classList.add("can");
      if ((S.pick || []).includes(k)) b.classList.add("picked");
      b.onclick = () => { S.pick = S.pick || []; S.pick = S.pick.includes(k) ? S.pick.filter((x) => x !== k) : [...S.pick, k]; renderMine(); };
    } else if (discards.has(t)) {
      b.classList.add("can");
      b.onclick = () => act(`discard ${t}`);
      if (after[t]) {
        b.classList.add("tenpai");
        b.title = `打出后听 discard to wait on: ${after[t].map(tileZh).join(" ")}`;
        b.append(el("span", { class: "tenpai-mark", text: "听" }));
        b.onmouseenter = () => showWaits(after[t], `打${tileZh(t)}听 after discarding ${tileZh(t)}`);
        b.onmouseleave = () => showWaits(S.hints && S.hints.waits, null);
      }
    } else b.disabled = true;
    return b;
  };
  // the hand fits the screen's width, however many tiles the variant deals (16 in 台湾)
  hand.style.setProperty("--tile-w", `min(2.4rem, calc((100vw - 3.4rem) / ${tiles.length + (drawn ? 1.6 : 0.6)}))`);
  for (const t of tiles) hand.append(tileButton(t, false));
  if (drawn) { hand.append(el("span", { class: "gap" })); hand.append(tileButton(drawn, true)); }
  showWaits(S.hints && S.hints.waits, null);
  if (!S.hints || !S.hints.waits) {
    const ready = Object.keys(after);
    if (ready.length) hints.append(el("span", { class: "muted", text: `听牌提示: 打 ${ready.map(tileZh).join(" ")} 可听 — discard a marked tile to be ready` }));
  }
  if (exchanges.size) {
    const order = [...tiles, ...(drawn ? [drawn] : [])];
    const picked = (S.pick || []).map((k) => order[k]).sort();
    const choice = `exchange ${picked.join("")}`;
    const o = v.opening || {};
    bar.append(el("span", { class: "muted", text: `换牌: 选${o.tiles || 3}张${o.same_suit ? "同花色" : ""}的牌 pick ${o.tiles || 3} tiles${o.same_suit ? " of one suit" : ""} to pass` }),
      el("button", { class: "act exchange primary", "data-action": choice, disabled: !exchanges.has(choice), onclick: () => act(choice) },
        both("换这几张", "Exchange these"), el("span", { class: "act-tiles" }, ...picked.map((t) => tile(t, { tiny: true })))));
  }
  // every other choice as a button with the tiles it would take; many of one verb: a picker
  const others = legal.filter((a) => !a.startsWith("discard ") && !a.startsWith("exchange "));
  const byVerb = {};
  for (const a of others) (byVerb[a.split(" ")[0]] = byVerb[a.split(" ")[0]] || []).push(a);
  for (const [verb, acts] of Object.entries(byVerb)) {
    if (acts.length > 6) {
      const sel = el("select", { class: "picker", "data-verb": verb }, ...acts.map((a) => el("option", { value: a, text: a })));
      const [zh, en] = VERBS[verb] || [verb, verb];
      bar.append(el("span", { class: "picker-box" }, sel, el("button", { class: "act " + verb, onclick: () => act(sel.value) }, both(zh, en))));
    } else acts.forEach((a) => bar.append(actionButton(a, v)));
  }
  if (readyDiscards.size) bar.append(el("span", { class: "muted", text: "报听: 点按钮 declare with the buttons" }));
  if (discards.size) bar.prepend(el("span", { class: "muted hint-text", text: "点牌打出 tap a tile to discard" }));
  if (m && m.auto) bar.append(el("button", { class: "primary", onclick: () => send({ type: "resume" }) }, both("取消托管", "Take my seat back")));
  renderEmotes();
  tickTimer();
}

function showWaits(waits, label) {
  const box = $("hints");
  if (!box) return;
  box.querySelectorAll(".waits").forEach((e) => e.remove());
  if (!waits || !waits.length) return;
  box.prepend(el("span", { class: "waits" }, el("b", { text: label || "听 waiting on " }), ...waits.map((t) => tile(t, { tiny: true }))));
}

function renderEmotes() {
  const box = $("emotes");
  if (S.spectator || !S.info || S.info.status !== "playing") { box.replaceChildren(); return; }
  box.replaceChildren(...Object.entries(EMOTES).map(([id, face]) => el("button", { class: "emote", title: id, onclick: () => send({ type: "emote", emote: id }) }, face)));
}

function act(a) {
  const m = S.msg;
  if (!m || m.ask === null || m.ask === S.lastAsk) return;
  S.lastAsk = m.ask;
  send({ type: "act", action: a, ask: m.ask });
}

function tickTimer() {
  const t = $("timer");
  const clock = $("clock");
  if (S.deadline && S.msg && S.msg.ask !== null) {
    const left = Math.max(0, Math.round((S.deadline - Date.now()) / 1000));
    if (clock) clock.textContent = `${left}″`;
    if (!S.spectator && S.view && (S.view.legal_actions || []).length) {
      t.textContent = `剩余 ${left} 秒后托管 ${left}s before auto-play`;
      t.classList.toggle("urgent", left <= 5);
      return;
    }
  }
  t.textContent = "";
}
setInterval(tickTimer, 500);

// ------------------------------------------------------------ settlement

function fanTable(fans, unit) {
  const table = el("table", { class: "fans" }, el("tr", {}, el("th", { text: "番种 Pattern" }), el("th", { text: `值 Value (${unit.zh} ${unit.en})` }), el("th", { text: "次 ×" })));
  for (const f of fans) table.append(el("tr", {}, el("td", {}, `${f.name} `, el("small", { text: f.en || f.id || "" })), el("td", { text: `${f.value} ${unit.zh}` }), el("td", { text: f.count > 1 ? `×${f.count}` : "" })));
  return table;
}

function handRow(label, tiles, melds, seat, n, winTile) {
  const row = el("div", { class: "hand-row" }, el("span", { class: "who", text: label }));
  (melds || []).forEach((m) => row.append(meldEl(m, seat, n, true)));
  const concealed = el("span", { class: "concealed" }, ...(tiles || []).map((t) => tile(t, { small: true })));
  row.append(concealed);
  if (winTile) row.append(el("span", { class: "plus", text: "+" }), tile(winTile, { small: true, hot: true }));
  return row;
}

// A hand's settlement: who won with what (中文/English, in the ruleset's
// unit), every hand shown, the horses, each payment with its reason, and
// the running scores. `ctx`: {seats (names), view (melds), unit, n, box}.
function renderSettlement(m, ctx) {
  const r = m.result, box = ctx.box, unit = ctx.unit, n = ctx.n;
  const name = ctx.name;
  box.hidden = false;
  const wins = Array.isArray(r.wins) && r.wins.length ? r.wins : null;
  const title = wins ? `和牌 ${wins.length} 胡 wins: ${[...new Set(wins.flatMap((w) => w.winners))].map(name).join(", ")}` : r.end === "win"
    ? `和牌 Win: ${r.winners.map(name).join(", ")}${r.self_drawn ? " · 自摸 self-drawn" : r.discarder !== null && r.discarder !== undefined ? ` · ${name(r.discarder)} 放炮 discarded` : ""}${r.robbing_kong ? " · 抢杠 robbing the kong" : ""}`
    : "荒庄 Exhausted wall (draw)";
  box.replaceChildren(el("h3", { text: `第${m.hand + 1}局 Hand ${m.hand + 1} — ${title}` }));
  const revealed = m.revealed || (ctx.view && ctx.view.revealed) || {};
  const seats = ctx.view ? ctx.view.seats : [];
  (wins || [{ winners: r.winners, fans: r.fans, totals: r.totals, self_drawn: r.self_drawn, discarder: r.discarder }]).forEach((w, k) => {
    if (wins) {
      box.append(el("h4", { class: "win-head" }, `第${k + 1}胡 Win ${k + 1}: ${w.winners.map(name).join(", ")} `,
        w.win_tile ? tile(w.win_tile, { tiny: true, hot: true }) : "",
        w.self_drawn ? " 自摸 self-drawn" : w.discarder !== null && w.discarder !== undefined ? ` ← ${name(w.discarder)} 放炮` : ""));
    }
    for (const seat of w.winners) {
      const fans = (w.fans || {})[seat] || [];
      box.append(el("div", { class: "winner" },
        el("h4", { text: `${name(seat)} — 合计 total ${(w.totals || {})[seat] ?? ""} ${unit.zh} ${unit.en}` }),
        fanTable(fans, unit)));
    }
  });
  const hands = el("div", { class: "hands" }, el("h4", { text: r.end === "win" ? "各家手牌 Every hand" : "各家手牌（查叫）Every hand at the exhausted wall" }));
  const winTile = {};  // each winner's winning tile taken from another seat
  for (const w of wins || [{ winners: r.winners, win_tile: r.win_tile, self_drawn: r.self_drawn }]) {
    if (!w.self_drawn && w.win_tile) for (const x of w.winners) winTile[x] = w.win_tile;
  }
  for (let s = 0; s < n; s++) {
    const winner = r.winners.includes(s);
    hands.append(handRow(`${winner ? "胡 " : ""}${name(s)}`, revealed[String(s)] || [], seats[s] ? seats[s].melds : [], s, n,
      winner ? winTile[s] || null : null));
  }
  box.append(hands);
  if (r.horses && r.horses.length) {
    const hb = el("div", { class: "horses" }, el("h4", { text: "马 Horses" }));
    for (const h of r.horses) {
      hb.append(el("span", { class: "horse " + (h.mark || "") }, tile(h.tile, { small: true }),
        el("small", { text: `${h.owner !== undefined && h.owner !== null ? name(h.owner) : ""} → ${h.seat !== undefined && h.seat >= 0 ? name(h.seat) : "—"} ${h.kind || ""} ${h.mark === "won" ? "中 hit" : h.mark === "lost" ? "不中 miss" : h.mark || ""}` })));
    }
    box.append(hb);
  }
  const pay = el("table", { class: "payments" }, el("tr", {}, el("th", { text: "付 From" }), el("th", { text: "收 To" }), el("th", { text: "分 Points" }), el("th", { text: "因 Reason" })));
  for (const p of r.payments) pay.append(el("tr", {}, el("td", { text: name(p.from) }), el("td", { text: p.to === null ? "台费 house" : name(p.to) }), el("td", { text: `${p.amount} 分` }), el("td", { text: reasonLabel(p.reason) })));
  if (r.payments.length) box.append(el("h4", { text: "支付 Payments" }), pay);
  const deltas = el("table", { class: "deltas" }, el("tr", {}, el("th", { text: "" }), ...r.deltas.map((_, s) => el("th", { text: name(s) }))),
    el("tr", {}, el("td", { text: "本局 This hand" }), ...r.deltas.map((d) => el("td", { class: d > 0 ? "plus" : d < 0 ? "minus" : "", text: `${d > 0 ? "+" : ""}${d}` }))));
  if (m.scores) deltas.append(el("tr", {}, el("td", { text: "总分 Scores" }), ...m.scores.map((d) => el("td", { text: String(d) }))));
  box.append(deltas);
  return box;
}

function showResult(m) {
  const i = S.info;
  const box = renderSettlement(m, { box: $("result"), unit: unitOf(), n: m.result.deltas.length, view: S.view, name: seatName });
  const buttons = el("p", { class: "row-buttons" },
    el("a", { class: "button", href: `/replay/${S.tableId}/${m.hand + 1}`, onclick: (e) => { e.preventDefault(); go(`/replay/${S.tableId}/${m.hand + 1}`); } }, both("回放本局", "Replay this hand")),
    el("a", { class: "button", href: `/api/tables/${S.tableId}/hands/${m.hand + 1}/scenario.yaml`, download: `${S.tableId}-hand${m.hand + 1}.yaml` }, both("下载牌谱", "Download (mjc scenario)")),
    el("button", { type: "button", onclick: () => { $("result").hidden = true; } }, both("关闭", "Close")));
  box.append(buttons);
  renderFair(m);
  if (i) renderInfo();
}

function showMatchEnd(m) {
  const box = $("result");
  box.hidden = false;
  const n = m.scores.length;
  const order = [...Array(n).keys()].sort((a, b) => m.scores[b] - m.scores[a]);
  const summary = el("div", { class: "summary" }, el("h3", { text: "比赛结束 Match over — 总结 summary" }));
  const table = el("table", { class: "deltas" }, el("tr", {}, el("th", { text: "局 Hand" }), ...order.map((s) => el("th", { text: seatName(s) }))));
  S.results.forEach((h, k) => { if (h) table.append(el("tr", {}, el("td", {}, el("a", { href: `/replay/${S.tableId}/${k + 1}`, text: `${k + 1} ${h.result.end === "win" ? "胡" : "荒"}` })), ...order.map((s) => el("td", { class: h.result.deltas[s] > 0 ? "plus" : h.result.deltas[s] < 0 ? "minus" : "", text: String(h.result.deltas[s]) })))); });
  table.append(el("tr", { class: "total" }, el("td", { text: "总分 Total" }), ...order.map((s) => el("td", { text: String(m.scores[s]) }))));
  summary.append(el("ol", { class: "ranking" }, ...order.map((s, k) => el("li", { text: `第${k + 1}名 ${seatName(s)}: ${m.scores[s]} 分` }))), table);
  box.prepend(summary);
}

function renderFair(m) {
  const box = $("fair");
  const i = S.info;
  if (!i) return;
  box.replaceChildren();
  const hand = m.hand;
  box.append(el("div", { text: `第${hand + 1}局 seed SHA-256: ${S.hashes[hand] || (m.proof && m.proof.seed_sha256) || "?"}` }));
  if (m.proof && m.proof.seed) {
    const proof = { ...m.proof, variant: i.variant, variant_sha256: i.variant_sha256, players: i.players, options: i.options };
    if (!S.spectator) proof.seat = S.seat;
    if (S.dealt && !S.spectator) proof.dealt = S.dealt;
    if (S.hashes[hand] && S.hashes[hand] !== m.proof.seed_sha256) box.append(el("div", { class: "error", text: "哈希不符 The revealed seed does not match the published hash!" }));
    box.append(el("div", { text: `seed: ${m.proof.seed}` }));
    const blob = new Blob([JSON.stringify(proof, null, 1)], { type: "application/json" });
    box.append(el("a", { href: URL.createObjectURL(blob), download: `deal-${i.id}-${hand + 1}.json`, text: "下载发牌记录 Download deal record (mjc verify-deal FILE)" }));
  }
}

// ------------------------------------------------------------ replay viewer

const R = { data: null, pos: 0, timer: null };

async function openReplay(id, hand) {
  show("replay");
  $("where").textContent = "回放 Replay";
  clearInterval(R.timer); R.timer = null;
  try {
    R.data = await api(`/api/tables/${id}/hands/${hand}/replay`);
  } catch (e) {
    $("replay-info").replaceChildren(el("p", { class: "error", text: `无法回放 Cannot replay: ${e.message}` }));
    $("replay-board").replaceChildren();
    return;
  }
  const d = R.data;
  S.info = { ...(S.info || {}), variant: d.variant, seats: d.seats, unit: d.unit };
  R.pos = 0;
  $("replay-info").replaceChildren(el("b", {}, `${d.title.zh} `, el("small", { text: d.title.en })),
    el("span", { text: `桌 table ${d.table} · 第${d.hand + 1}局 hand ${d.hand + 1}` }),
    el("a", { href: `/t/${d.table}`, onclick: (e) => { e.preventDefault(); go(`/t/${d.table}`); } }, both("牌桌", "Table")));
  $("rp-download").href = `/api/tables/${id}/hands/${hand}/scenario.yaml`;
  $("rp-download").setAttribute("download", `${id}-hand${hand}.yaml`);
  $("rp-first").onclick = () => step(0);
  $("rp-prev").onclick = () => step(R.pos - 1);
  $("rp-next").onclick = () => step(R.pos + 1);
  $("rp-last").onclick = () => step(d.frames.length - 1);
  $("rp-play").onclick = () => {
    if (R.timer) { clearInterval(R.timer); R.timer = null; return; }
    R.timer = setInterval(() => { if (R.pos >= R.data.frames.length - 1) { clearInterval(R.timer); R.timer = null; } else step(R.pos + 1); }, 700);
  };
  step(0);
}

function step(k) {
  const d = R.data;
  R.pos = Math.max(0, Math.min(d.frames.length - 1, k));
  const f = d.frames[R.pos], v = f.view, n = d.players;
  S.wilds = v.wilds || [];
  const name = (s) => (d.seats[s] ? (d.seats[s].kind === "bot" ? botName(s) : d.seats[s].name || `#${s + 1}`) : `#${s + 1}`);
  $("rp-pos").textContent = `${R.pos} / ${d.frames.length - 1}`;
  const board = $("replay-board");
  board.replaceChildren(...v.seats.map((s) => {
    const acting = f.action && f.action.seat === s.seat;
    const claimed = new Set(s.claimed);
    return el("div", { class: "rp-seat" + (acting ? " acting" : "") + (v.current === s.seat ? " current" : "") },
      el("div", { class: "seat-head" }, el("span", { class: "wind", text: WINDS[windOf(s.seat, v)] }), el("span", { class: "name", text: name(s.seat) }),
        s.seat === v.dealer ? el("span", { class: "tag dealer", text: "庄" }) : null, s.declared_ready ? el("span", { class: "tag ready", text: "听" }) : null),
      el("div", { class: "row" }, ...(f.hands[String(s.seat)] || []).map((t) => tile(t, { small: true }))),
      el("div", { class: "row melds" }, ...s.melds.map((m) => meldEl(m, s.seat, n, true)), ...(s.flowers.length ? [el("span", { class: "meld flowers" }, ...s.flowers.map((t) => tile(t, { tiny: true })))] : [])),
      el("div", { class: "row pond-row" }, ...s.discards.map((t, j) => tile(t, { tiny: true, dim: claimed.has(j) }))));
  }));
  const what = f.action ? `${name(f.action.seat)}: ${f.action.action}${f.action.by === "auto" ? " [托管]" : f.action.by === "bot" ? " (机器人 bot)" : ""}` : "发牌 The deal";
  const old = S.info.seats;
  S.info.seats = d.seats;
  $("rp-step").replaceChildren(el("b", { text: what }), el("span", { class: "muted", text: ` · 余 wall ${v.wall_remaining}` }),
    el("ul", {}, ...f.events.map((e) => el("li", { text: describe(e, true) || e.type }))));
  S.info.seats = old;
  const res = $("rp-result");
  if (R.pos === d.frames.length - 1 && d.result) {
    renderSettlement({ hand: d.hand, result: d.result, revealed: f.hands }, { box: res, unit: d.unit, n, view: v, name });
  } else res.hidden = true;
}

// ------------------------------------------------------------ start

$("create").addEventListener("submit", createTable);
$("my-name").addEventListener("change", () => myName());
$("home").addEventListener("click", (e) => { e.preventDefault(); go("/"); });
$("lobby-link").addEventListener("click", (e) => { e.preventDefault(); go("/"); });
$("leave").onclick = () => {
  if (!S.spectator && S.tableId) {
    const waiting = S.info && S.info.status === "waiting";
    S.closed = true;
    send({ type: "leave" });
    if (waiting) store.saveSeat(S.tableId, null);  // the seat is free again; during a match the token reclaims it
  }
  setTimeout(() => go("/"), 150);
};
route();
