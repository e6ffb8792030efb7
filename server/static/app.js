// mjc serve browser client: plain JS, no build step.
// Lobby (create a table from a variant's option panel) and one seat's play
// over the WebSocket protocol (/api/protocol.schema.json).
"use strict";

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const k of kids) if (k !== null && k !== undefined) e.append(k);
  return e;
};
const both = (zh, en) => { const s = el("span", {}, zh + " "); s.append(el("small", { text: en })); return s; };

// ------------------------------------------------------------ tiles

const NUM = "一二三四五六七八九";
const SUIT = { m: ["万", "characters"], p: ["筒", "dots"], s: ["条", "bamboo"] };
const HONOUR = ["东", "南", "西", "北", "白", "发", "中"];
const HONOUR_EN = ["East", "South", "West", "North", "White", "Green", "Red"];
const FLOWER = ["春", "夏", "秋", "冬", "梅", "兰", "竹", "菊"];
const WIND = ["东", "南", "西", "北"];

function tileZh(t) {
  if (!t) return "?";
  const r = +t[0], s = t[1];
  if (s === "z") return HONOUR[r - 1];
  if (s === "f") return FLOWER[r - 1];
  return NUM[r - 1] + SUIT[s][0];
}
function tileEl(t, opts = {}) {
  const cls = ["tile"];
  if (!t) cls.push("back");
  else cls.push(t[1]);
  if (opts.small) cls.push("small");
  if (opts.claimed) cls.push("claimed");
  if (t && state.wilds.includes(t)) cls.push("wild");
  if (opts.hot) cls.push("hot");
  const tag = opts.button ? "button" : "span";
  const e = el(tag, { class: cls.join(" "), title: t ? `${tileZh(t)} ${t}` : "face down" });
  if (t) {
    const r = t[0], s = t[1];
    e.append(el("span", { text: s === "z" || s === "f" ? tileZh(t) : r }));
    e.append(el("span", { class: "sub", text: s === "z" ? HONOUR_EN[+r - 1] : s === "f" ? t : SUIT[s][0] }));
  }
  return e;
}

// ------------------------------------------------------------ state

const state = {
  variants: [], session: null, ws: null, info: null, view: null, msg: null,
  wilds: [], dealt: null, hashes: {}, lastAsk: null, retry: 0, deadline: null, results: [],
};

const VERBS = {
  discard: ["打", "Discard"], pong: ["碰", "Pung"], kong: ["杠", "Kong"], chow: ["吃", "Chow"],
  hu: ["胡", "Win"], pass: ["过", "Pass"], ready: ["报叫", "Declare ready"], take: ["拿", "Take"], buy: ["买", "Buy"],
};

function saveSession() { sessionStorage.setItem("mjc-session", JSON.stringify(state.session)); }

// ------------------------------------------------------------ lobby

async function api(path, body) {
  const r = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) throw new Error(data.error || `HTTP ${r.status}`);
  return data;
}

async function loadLobby() {
  const data = await api("/api/variants");
  state.variants = data.variants;
  const sel = $("variant");
  sel.replaceChildren(...data.variants.map((v) => el("option", { value: v.name, text: `${v.title.zh} ${v.title.en}` })));
  sel.onchange = showVariant;
  $("players").onchange = showSeats;
  showVariant();
}

function currentVariant() { return state.variants.find((v) => v.name === $("variant").value); }

function showVariant() {
  const v = currentVariant();
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
      el("option", { value: "human", text: s === 0 ? "我 me" : "玩家 human", selected: s === 0 }),
      el("option", { value: "bot", text: "机器人 bot", selected: s !== 0 }));
    box.append(el("label", {}, `${s + 1}号 seat ${s}: `, sel));
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

async function createTable(ev) {
  ev.preventDefault();
  $("lobby-error").textContent = "";
  const n = +$("players").value;
  const seats = [...document.querySelectorAll("[data-seat]")].map((s) => s.value).slice(0, n);
  const body = {
    variant: $("variant").value, players: n, options: readOptions(), seats, bot: $("bot").value,
    turn_seconds: $("turn").value ? +$("turn").value : null, bot_delay: +$("delay").value,
  };
  if ($("hands").value) body.hands = +$("hands").value;
  try {
    const table = await api("/api/tables", body);
    const seat = await api(`/api/tables/${table.id}/join`, { seat: 0, name: "me" });
    state.session = { table: table.id, token: seat.token, seat: seat.seat, last: 0 };
    saveSession();
    location.hash = `table=${table.id}`;
    enterGame();
  } catch (e) {
    $("lobby-error").textContent = `开桌失败 Could not create the table: ${e.message}`;
  }
}

// ------------------------------------------------------------ socket

function enterGame() {
  $("lobby").hidden = true;
  $("game").hidden = false;
  connect();
}

function connect() {
  const s = state.session;
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/tables/${s.table}`);
  state.ws = ws;
  ws.onopen = () => ws.send(JSON.stringify({ type: "hello", token: s.token, last_seen: s.last }));
  ws.onmessage = (m) => onMessage(JSON.parse(m.data));
  ws.onclose = (ev) => {
    setConn(false);
    if (ev.code === 4401 || ev.code === 4404 || ev.code === 4403) {
      addLog(`无法入座 Cannot rejoin: ${ev.reason}`);
      return;
    }
    if (state.ws === ws && state.session) setTimeout(connect, Math.min(5000, 500 * ++state.retry));
  };
}

function setConn(on) {
  const b = $("conn");
  b.className = "badge " + (on ? "on" : "off");
  b.textContent = on ? "已连接 online" : "未连接 offline";
}

function send(msg) { if (state.ws && state.ws.readyState === 1) state.ws.send(JSON.stringify(msg)); }

function onMessage(m) {
  if (m.n) {
    // numbered: exactly once each, in order; a gap asks for a resend
    if (m.n <= state.session.last) return;
    if (m.n !== state.session.last + 1) { send({ type: "sync", last_seen: state.session.last }); return; }
    state.session.last = m.n;
    saveSession();
  }
  switch (m.type) {
    case "welcome": state.info = m.table; state.retry = 0; setConn(true); renderInfo(); break;
    case "status": if (state.info) { state.info.seats = m.seats; state.info.status = m.status; } renderInfo(); renderBoard(); break;
    case "view":
      state.msg = m; state.view = m.view;
      if (m.view) state.wilds = m.view.wilds || [];
      state.deadline = m.deadline_ms == null ? null : Date.now() + m.deadline_ms;
      renderAll();
      if (m.view && m.view.revealed && state.reveal) showRevealed(m.view);
      break;
    case "event": onEvent(m.event, m.by); break;
    case "hand_start":
      state.hashes[m.hand] = m.seed_sha256; state.dealt = null; $("result").hidden = true;
      addLog(`第${m.hand + 1}局开始 Hand ${m.hand + 1}: ${m.dealer}号庄 dealer seat ${m.dealer}`);
      renderFair(m); break;
    case "hand_end": showResult(m); break;
    case "match_end": addLog(`比赛结束 Match over: ${m.scores.join(" / ")}`); showMatchEnd(m); break;
    case "error": addLog(`⚠ ${m.message} (${m.code})`, "error"); break;
  }
}

function onEvent(e, by) {
  const who = (s) => `${s}号${s === state.session.seat ? "(我 me)" : ""}`;
  const t = (x) => (x ? `${tileZh(x)} ${x}` : "");
  const auto = by === "auto" ? " [托管 auto]" : "";
  switch (e.type) {
    case "deal":
      state.dealt = e.hand;
      addLog(`发牌 Deal: ${e.wall} 张在墙 in the wall` + (e.indicator ? `, 翻鬼 indicator ${t(e.indicator)}` : "") + (e.wilds ? `, 鬼牌 wilds ${e.wilds.map(tileZh).join(" ")}` : ""));
      break;
    case "draw": if (e.tile) addLog(`摸 You draw ${t(e.tile)}`); break;
    case "replacement": addLog(`${who(e.seat)} 补牌 takes a replacement ${t(e.tile)}`); break;
    case "discard": addLog(`${who(e.seat)} 打 discards ${t(e.tile)}${e.ready ? " 报叫 declares ready" : ""}${auto}`); break;
    case "ready": addLog(`${who(e.seat)} 报叫 declares ready`); break;
    case "pong": addLog(`${who(e.seat)} 碰 pungs ${t(e.tile)} from ${who(e.source)}`); break;
    case "chow": addLog(`${who(e.seat)} 吃 chows ${t(e.tile)}`); break;
    case "kong": addLog(`${who(e.seat)} 杠 kong (${e.kind})${e.tile ? " " + t(e.tile) : ""}`); break;
    case "payment": addLog(`${who(e.from)} → ${who(e.to)} ${e.amount} (${e.reason})`); break;
    case "hu": addLog(`${who(e.seat)} 胡 wins ${e.self_drawn ? "自摸 self-drawn" : "on " + who(e.source) + "'s tile"} ${t(e.tile)}`, "win"); break;
    case "end": addLog(e.end === "draw" ? "荒庄 Exhausted wall" : `结束 Hand over`); break;
    case "stakes": addLog(`买点 Stakes on offer: ${e.values.join(", ")}`); break;
    case "bought": addLog(`买点 Stakes bought: ${e.stakes.join(" / ")}`); break;
    default: addLog(`${e.type}${e.seat !== undefined ? " " + who(e.seat) : ""}`);
  }
}

function addLog(text, cls) {
  const log = $("log");
  log.prepend(el("li", { class: cls || "", text }));
  while (log.children.length > 120) log.lastChild.remove();
}

// ------------------------------------------------------------ rendering

function renderAll() { renderInfo(); renderBoard(); renderMine(); }

function renderInfo() {
  const i = state.info;
  if (!i) return;
  const v = state.view, m = state.msg;
  const box = $("info");
  box.replaceChildren(
    el("b", { text: `${i.title.zh} ${i.title.en}` }),
    el("span", { text: `桌 table ${i.id}` }),
    el("span", { text: `第 ${(m ? m.hand : i.hand) + 1} / ${i.hands} 局 hand` }),
  );
  if (v) {
    box.append(el("span", { text: `墙 wall ${v.wall_remaining}` }));
    if (v.indicator) box.append(el("span", {}, "翻鬼 indicator ", tileEl(v.indicator, { small: true })));
    if (v.wilds && v.wilds.length) box.append(el("span", {}, "鬼牌 wilds ", ...v.wilds.map((t) => tileEl(t, { small: true }))));
    if (v.face_up && v.face_up.length) box.append(el("span", {}, "翻牌 face-up tail ", ...v.face_up.map((t) => tileEl(t, { small: true }))));
    if (v.horses) box.append(el("span", { text: "买马 horses " + Object.entries(v.horses).map(([s, k]) => `${s}号×${k}`).join(" ") }));
  }
  if (i.status === "finished") box.append(el("b", { text: "已结束 finished" }));
}

function place(seat, n, me) {
  const d = (seat - me + n) % n;
  if (d === 0) return "bottom";
  if (n === 2) return "top";
  if (n === 3) return d === 1 ? "right" : "left";
  return ["bottom", "right", "top", "left"][d];
}

function renderBoard() {
  const v = state.view, i = state.info;
  if (!v || !i) return;
  const me = state.session.seat;
  for (const pos of ["top", "left", "right", "bottom"]) $("seat-" + pos).replaceChildren();
  for (const s of v.seats) {
    const box = $("seat-" + place(s.seat, v.players, me));
    const info = (i.seats || [])[s.seat] || {};
    const wind = WIND[(s.seat - v.dealer + v.players) % v.players];
    const h = el("h3", {}, `${wind} ${s.seat}号 `, el("small", { text: info.kind === "bot" ? "机器人 bot" : (info.name || "") + (s.seat === me ? " (我 me)" : "") }));
    if (s.seat === v.dealer) h.append(el("span", { class: "tag dealer", text: "庄 dealer" }));
    if (s.declared_ready) h.append(el("span", { class: "tag ready", text: "报叫 ready" }));
    if (info.auto) h.append(el("span", { class: "tag auto", text: "托管 auto" }));
    if (info.kind === "human" && !info.connected && s.seat !== me) h.append(el("span", { class: "tag", text: "离线 away" }));
    box.append(h);
    box.classList.toggle("acting", v.current === s.seat);
    const melds = el("div", { class: "row" });
    for (const m of s.melds) melds.append(el("span", { class: "meld", title: m.type + (m.kind ? " " + m.kind : "") }, ...m.tiles.map((t) => tileEl(t, { small: true }))));
    if (s.flowers.length) melds.append(el("span", { class: "meld", title: "flowers 花" }, ...s.flowers.map((t) => tileEl(t, { small: true }))));
    box.append(melds);
    if (s.seat !== me) box.append(el("div", { class: "row" }, ...Array.from({ length: s.hand_size }, () => tileEl(null, { small: true }))));
    const claimed = new Set(s.claimed);
    box.append(el("div", { class: "row" }, ...s.discards.map((t, k) => tileEl(t, { small: true, claimed: claimed.has(k) }))));
  }
  const c = $("claim");
  c.replaceChildren();
  if (v.claim) c.append(`${v.claim.from}号 ${v.claim.kind === "rob" ? "加杠 adds to a kong" : "打出 discards"} `, tileEl(v.claim.tile));
  else if (v.phase === "turn") c.append(`${v.current}号出牌 seat ${v.current} to play`);
  $("wall").textContent = v.phase === "end" ? "本局结束 hand over" : "";
}

function renderMine() {
  const v = state.view, m = state.msg;
  const hand = $("hand"), bar = $("actions");
  hand.replaceChildren();
  bar.replaceChildren();
  if (!v) { hand.append(el("span", { class: "muted", text: "等待玩家入座… waiting for players" })); return; }
  const legal = v.legal_actions || [];
  const discards = new Set(legal.filter((a) => a.startsWith("discard ")).map((a) => a.slice(8)));
  const tiles = [...v.hand];
  let drawn = null;
  if (v.drawn) { const k = tiles.lastIndexOf(v.drawn); if (k >= 0) { tiles.splice(k, 1); drawn = v.drawn; } }
  const tileButton = (t, hot) => {
    const b = tileEl(t, { button: true, hot });
    if (discards.has(t)) { b.classList.add("can"); b.onclick = () => act(`discard ${t}`); }
    else b.disabled = true;
    return b;
  };
  for (const t of tiles) hand.append(tileButton(t, false));
  if (drawn) { hand.append(el("span", { class: "gap" })); hand.append(tileButton(drawn, true)); }
  for (const a of legal) {
    const [verb, arg] = a.split(" ");
    if (verb === "discard") continue;
    const [zh, en] = VERBS[verb] || [verb, verb];
    const b = el("button", { class: verb, "data-action": a, onclick: () => act(a) }, zh + (arg ? " " + (verb === "buy" ? arg : tileZh(arg.slice(0, 2)) + (arg.length > 2 ? tileZh(arg.slice(2)) : "")) : "") + " ", el("small", { text: en + (arg ? " " + arg : "") }));
    bar.append(b);
  }
  if (discards.size) bar.prepend(el("span", { class: "muted", text: "点牌打出 click a tile to discard" }));
  if (m && m.auto) bar.append(el("button", { onclick: () => send({ type: "resume" }) }, "取消托管 ", el("small", { text: "Take my seat back" })));
  tickTimer();
}

function act(a) {
  const m = state.msg;
  if (!m || m.ask === null || m.ask === state.lastAsk) return;
  state.lastAsk = m.ask;
  send({ type: "act", action: a, ask: m.ask });
}

function tickTimer() {
  const t = $("timer");
  if (state.deadline && state.view && state.view.legal_actions.length) {
    const left = Math.max(0, Math.round((state.deadline - Date.now()) / 1000));
    t.textContent = `剩余 ${left} 秒后托管 ${left}s before auto-play`;
  } else t.textContent = "";
}
setInterval(tickTimer, 500);

function showResult(m) {
  const r = m.result, box = $("result");
  const me = state.session.seat;
  box.hidden = false;
  box.replaceChildren(el("h3", { text: r.end === "win" ? `和牌 Win: ${r.winners.map((s) => s + "号").join(", ")}${r.self_drawn ? " 自摸 self-drawn" : r.discarder !== null ? `, ${r.discarder}号放炮 discarded by seat ${r.discarder}` : ""}` : "荒庄 Exhausted wall (draw)" }));
  for (const [seat, fans] of Object.entries(r.fans || {})) {
    const table = el("table", {}, el("tr", {}, el("th", { text: "番种 Pattern" }), el("th", { text: "值 Value" }), el("th", { text: "次 Count" })));
    for (const f of fans) table.append(el("tr", {}, el("td", { text: `${f.name} ${f.en || ""}` }), el("td", { text: f.value }), el("td", { text: f.count })));
    box.append(el("p", {}, `${seat}号 seat ${seat}: 合计 total ${r.totals[seat]}`), table);
  }
  box.append(el("div", { id: "revealed" }));
  state.reveal = r;
  if (r.horses && r.horses.length) box.append(el("div", { class: "row" }, "马 horses: ", ...r.horses.map((h) => { const e = tileEl(h.tile, { small: true, hot: h.mark === "won" }); e.title += ` → ${h.seat}号 ${h.kind} ${h.mark}`; return e; })));
  const pay = el("table", {}, el("tr", {}, el("th", { text: "付 From" }), el("th", { text: "收 To" }), el("th", { text: "数 Amount" }), el("th", { text: "因 Reason" })));
  for (const p of r.payments) pay.append(el("tr", {}, el("td", { text: p.from + "号" }), el("td", { text: p.to + "号" }), el("td", { text: p.amount }), el("td", { text: p.reason })));
  box.append(el("p", { text: "支付 Payments" }), pay);
  box.append(el("p", { text: `本局 This hand: ${r.deltas.map((d, s) => `${s}号 ${d > 0 ? "+" : ""}${d}`).join("  ")}` }));
  box.append(el("p", { text: `总分 Scores: ${m.scores.map((d, s) => `${s}号 ${d}`).join("  ")}${me !== undefined ? ` (我 me: ${m.scores[me]})` : ""}` }));
  state.results.push(m);
  renderFair(m);
}

function showRevealed(v) {
  // the winners' hands come with the view that follows hand_end
  const r = state.reveal, box = $("revealed");
  state.reveal = null;
  if (!box) return;
  for (const [s, tiles] of Object.entries(v.revealed)) {
    box.append(el("div", { class: "row" }, `${s}号 和牌 winning hand: `, ...tiles.map((t) => tileEl(t, { small: true })),
      r.win_tile && !r.self_drawn ? " + " : "", r.win_tile && !r.self_drawn ? tileEl(r.win_tile, { small: true, hot: true }) : ""));
  }
}

function showMatchEnd(m) {
  const box = $("result");
  box.hidden = false;
  box.append(el("h3", { text: `比赛结束 Match over — 总分 final scores: ${m.scores.map((d, s) => `${s}号 ${d}`).join("  ")}` }));
}

function renderFair(m) {
  const box = $("fair");
  const i = state.info;
  box.replaceChildren(el("b", { text: "公平发牌 Fair deal" }));
  const hand = m.hand;
  box.append(el("div", { text: `第${hand + 1}局 seed SHA-256: ${state.hashes[hand] || (m.proof && m.proof.seed_sha256) || "?"}` }));
  if (m.proof && m.proof.seed) {
    const proof = { ...m.proof, variant: i.variant, variant_sha256: i.variant_sha256, players: i.players, options: i.options, seat: state.session.seat };
    if (state.dealt) proof.dealt = state.dealt;
    if (state.hashes[hand] && state.hashes[hand] !== m.proof.seed_sha256) box.append(el("div", { class: "error", text: "哈希不符 The revealed seed does not match the published hash!" }));
    box.append(el("div", { text: `seed: ${m.proof.seed}` }));
    const blob = new Blob([JSON.stringify(proof, null, 1)], { type: "application/json" });
    box.append(el("a", { href: URL.createObjectURL(blob), download: `deal-${i.id}-${hand + 1}.json`, text: "下载发牌记录 Download deal record (mjc verify-deal FILE)" }));
  }
}

// ------------------------------------------------------------ start

$("create").addEventListener("submit", createTable);
$("leave").onclick = () => {
  const ws = state.ws;
  state.session = null; state.ws = null;
  sessionStorage.removeItem("mjc-session");
  if (ws) ws.close();
  location.hash = "";
  location.reload();
};

(function start() {
  const saved = JSON.parse(sessionStorage.getItem("mjc-session") || "null");
  loadLobby().catch((e) => { $("lobby-error").textContent = `无法加载玩法 Could not load variants: ${e.message}`; });
  if (saved && location.hash === `#table=${saved.table}`) {
    state.session = { ...saved, last: 0 }; // a new page has nothing: get the whole stream again
    enterGame();
  }
})();
