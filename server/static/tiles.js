// SVG tile faces for the mjc serve client: suits (万 characters, 筒 dots,
// 条 bamboo), honours (winds and dragons), flowers, backs, and a mark for
// wild tiles. No images: every face is drawn from shapes and text.
(function () {
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const NUMERALS = "一二三四五六七八九";
const HONOURS = ["东", "南", "西", "北", "白", "发", "中"];
const HONOURS_EN = ["East", "South", "West", "North", "White", "Green", "Red"];
const FLOWERS = ["春", "夏", "秋", "冬", "梅", "兰", "竹", "菊"];
const SUITS = { m: ["万", "characters"], p: ["筒", "dots"], s: ["条", "bamboo"] };

const RED = "#c0281f", GREEN = "#187a3a", BLUE = "#1d4f9c", INK = "#1d1d1b";

// dot and stick positions on a 60x80 face, per rank
const DOTS = {
  1: [[30, 40]], 2: [[30, 22], [30, 58]], 3: [[16, 18], [30, 40], [44, 62]],
  4: [[18, 22], [42, 22], [18, 58], [42, 58]], 5: [[17, 19], [43, 19], [30, 40], [17, 61], [43, 61]],
  6: [[19, 17], [41, 17], [19, 40], [41, 40], [19, 63], [41, 63]],
  7: [[14, 13], [30, 21], [46, 29], [19, 48], [41, 48], [19, 66], [41, 66]],
  8: [[19, 13], [41, 13], [19, 31], [41, 31], [19, 49], [41, 49], [19, 67], [41, 67]],
  9: [[15, 17], [30, 17], [45, 17], [15, 40], [30, 40], [45, 40], [15, 63], [30, 63], [45, 63]],
};
const DOT_COLOURS = { 1: [RED], 2: [GREEN, BLUE], 3: [BLUE, RED, GREEN], 5: [BLUE, BLUE, RED, BLUE, BLUE],
  7: [GREEN, GREEN, GREEN, RED, RED, RED, RED], 9: [BLUE, BLUE, BLUE, RED, RED, RED, GREEN, GREEN, GREEN] };
const STICKS = {
  2: [[30, 22], [30, 58]], 3: [[30, 22], [19, 58], [41, 58]], 4: [[19, 22], [41, 22], [19, 58], [41, 58]],
  5: [[17, 22], [43, 22], [30, 40], [17, 58], [43, 58]], 6: [[15, 22], [30, 22], [45, 22], [15, 58], [30, 58], [45, 58]],
  7: [[30, 15], [15, 40], [30, 40], [45, 40], [15, 65], [30, 65], [45, 65]],
  8: [[12, 22], [24, 22], [36, 22], [48, 22], [12, 58], [24, 58], [36, 58], [48, 58]],
  9: [[15, 15], [30, 15], [45, 15], [15, 40], [30, 40], [45, 40], [15, 65], [30, 65], [45, 65]],
};

function svgEl(tag, attrs, text) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function tileName(t) {
  if (!t) return "背 face down";
  const r = +t[0], s = t[1];
  if (s === "z") return `${HONOURS[r - 1]} ${HONOURS_EN[r - 1]}`;
  if (s === "f") return `${FLOWERS[r - 1]} flower ${r}`;
  return `${NUMERALS[r - 1]}${SUITS[s][0]} ${r} ${SUITS[s][1]}`;
}

function tileZh(t) {
  if (!t) return "?";
  const r = +t[0], s = t[1];
  if (s === "z") return HONOURS[r - 1];
  if (s === "f") return FLOWERS[r - 1];
  return NUMERALS[r - 1] + SUITS[s][0];
}

function drawFace(g, t) {
  const r = +t[0], s = t[1];
  if (s === "m") {
    g.append(svgEl("text", { x: 30, y: 36, "text-anchor": "middle", "font-size": 26, fill: INK, "font-weight": 700 }, NUMERALS[r - 1]));
    g.append(svgEl("text", { x: 30, y: 70, "text-anchor": "middle", "font-size": 28, fill: RED, "font-weight": 700 }, "萬"));
  } else if (s === "p") {
    const big = r === 1 ? 17 : r <= 4 ? 9.5 : r <= 6 ? 8.2 : 7;
    DOTS[r].forEach(([x, y], i) => {
      const c = (DOT_COLOURS[r] || [BLUE, GREEN])[i % (DOT_COLOURS[r] || [BLUE, GREEN]).length];
      g.append(svgEl("circle", { cx: x, cy: y, r: big, fill: "none", stroke: c, "stroke-width": r === 1 ? 3 : 2.2 }));
      g.append(svgEl("circle", { cx: x, cy: y, r: big * 0.45, fill: c }));
      if (r === 1) g.append(svgEl("circle", { cx: x, cy: y, r: big * 0.72, fill: "none", stroke: GREEN, "stroke-width": 1.5 }));
    });
  } else if (s === "s") {
    if (r === 1) {  // 幺鸡: a bird of strokes
      g.append(svgEl("ellipse", { cx: 30, cy: 44, rx: 12, ry: 16, fill: GREEN }));
      g.append(svgEl("circle", { cx: 30, cy: 22, r: 7, fill: RED }));
      g.append(svgEl("path", { d: "M22 58 L14 72 M38 58 L46 72 M30 60 L30 74", stroke: GREEN, "stroke-width": 3, fill: "none" }));
      g.append(svgEl("circle", { cx: 28, cy: 21, r: 1.6, fill: "#fff" }));
    } else {
      const h = r >= 7 ? 17 : 22, w = r === 8 ? 6 : 7;
      STICKS[r].forEach(([x, y], i) => {
        const c = (r === 5 || r === 7 || r === 9) && (i === 2 || (r === 7 && i === 0) || (r === 9 && i % 3 === 1)) ? RED : GREEN;
        g.append(svgEl("rect", { x: x - w / 2, y: y - h / 2, width: w, height: h, rx: 3, fill: c }));
        g.append(svgEl("line", { x1: x - w / 2, y1: y, x2: x + w / 2, y2: y, stroke: "#fff", "stroke-width": 1.4 }));
      });
    }
  } else if (s === "z") {
    if (r === 5) {  // 白: a framed blank
      g.append(svgEl("rect", { x: 13, y: 15, width: 34, height: 50, rx: 3, fill: "none", stroke: BLUE, "stroke-width": 3 }));
      g.append(svgEl("rect", { x: 18, y: 20, width: 24, height: 40, rx: 2, fill: "none", stroke: BLUE, "stroke-width": 1.2 }));
    } else {
      const colour = r === 6 ? GREEN : r === 7 ? RED : INK;
      g.append(svgEl("text", { x: 30, y: 54, "text-anchor": "middle", "font-size": 36, fill: colour, "font-weight": 700 }, HONOURS[r - 1]));
    }
  } else if (s === "f") {
    const colour = r <= 4 ? RED : BLUE;
    g.append(svgEl("circle", { cx: 30, cy: 38, r: 16, fill: "none", stroke: colour, "stroke-width": 1.5, "stroke-dasharray": "3 2" }));
    g.append(svgEl("text", { x: 30, y: 48, "text-anchor": "middle", "font-size": 28, fill: colour, "font-weight": 700 }, FLOWERS[r - 1]));
    g.append(svgEl("text", { x: 50, y: 73, "text-anchor": "middle", "font-size": 12, fill: colour }, String(r)));
  }
}

// A tile as an SVG element. opts: {back, wild, small, sideways, hot, dim, title}
function tileSvg(t, opts = {}) {
  const svg = svgEl("svg", { viewBox: "0 0 60 80", class: "tile-svg", role: "img" });
  const title = svgEl("title", {}, opts.title || tileName(t) + (opts.wild ? " · 鬼牌 wild" : ""));
  svg.append(title);
  svg.append(svgEl("rect", { x: 1.5, y: 1.5, width: 57, height: 77, rx: 7, class: t ? "face" : "back" }));
  if (t) {
    const g = svgEl("g", {});
    drawFace(g, t);
    svg.append(g);
    if (opts.wild) {
      svg.append(svgEl("path", { d: "M40 2 L58 2 L58 20 Z", fill: "#d99a00" }));
      svg.append(svgEl("text", { x: 52, y: 12, "text-anchor": "middle", "font-size": 9, fill: "#fff", "font-weight": 700 }, "鬼"));
    }
  } else {
    svg.append(svgEl("rect", { x: 8, y: 8, width: 44, height: 64, rx: 5, fill: "none", stroke: "#9cd3b3", "stroke-width": 1.2, opacity: 0.6 }));
  }
  return svg;
}

window.Tiles = { tileSvg, tileName, tileZh, SUITS, HONOURS };
})();
