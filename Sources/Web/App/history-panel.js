// The "Today" panel: the plane diary for children (how many, and the extremes, each with a
// picture of its kind), the receiver's charts for 24 hours or 7 days, and a rewind that
// replays the stored positions on a scope of its own at 1x to 60x, as far back as the history
// reaches; tapping an aircraft there draws its track coloured by altitude. It adds its own
// button to the tools and its own section, so the radar's files stay as they are. Charts are
// drawn on canvases by this module: a few lines each, no library to serve or to update.

import {
  REWIND_SPEEDS, RewindClock, altitudeColour, diaryCards, scaleSeries, skyAt, traceToPoints,
} from "./history.js";

const CHARTS = [
  ["messages_per_s", "Messages a second"],
  ["aircraft", "Aircraft"],
  ["max_range_km", "Furthest, km"],
  ["signal_dbfs", "Signal and noise, dBFS", "noise_dbfs"],
];
/** Seconds of positions fetched at once for the rewind. */
const WINDOW_S = 600;
/** The rewind scope's radius, km. */
const SCOPE_KM = 150;

async function getJSON(path) {
  const response = await fetch(path, { cache: "no-store" });
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response.json();
}

function element(tag, attributes = {}, text = "") {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text) node.textContent = text;
  return node;
}

/** Draws the picture of `icon` (history.js's `iconFor`) in a square canvas context. */
export function drawIcon(context, icon, size, colour) {
  const c = context;
  c.save();
  c.clearRect(0, 0, size, size);
  c.translate(size / 2, size / 2);
  c.scale(size / 100, size / 100);
  c.fillStyle = colour;
  c.strokeStyle = colour;
  c.lineWidth = 6;
  c.beginPath();
  if (icon === "balloon") {
    c.arc(0, -12, 30, 0, Math.PI * 2);
    c.fill();
    c.fillRect(-8, 30, 16, 12);
  } else if (icon === "helicopter") {
    c.ellipse(0, 8, 16, 24, 0, 0, Math.PI * 2);
    c.fill();
    c.fillRect(-3, 28, 6, 18);
    c.beginPath();
    c.moveTo(-42, -18); c.lineTo(42, -18);
    c.moveTo(0, -30); c.lineTo(0, -6);
    c.stroke();
  } else {
    const span = icon === "heavy" ? 46 : icon === "light" ? 40 : 38;
    const body = icon === "heavy" ? 9 : 6;
    c.fillRect(-body, -42, body * 2, 84);
    c.moveTo(-span, 6); c.lineTo(0, icon === "light" ? -14 : -10); c.lineTo(span, 6); c.lineTo(span, 14);
    c.lineTo(0, 4); c.lineTo(-span, 14);
    c.closePath();
    c.fill();
    c.fillRect(-16, 34, 32, 6);
    if (icon === "heavy") for (const x of [-30, -16, 16, 30]) c.fillRect(x - 3, 4, 6, 12);
  }
  c.restore();
}

class HistoryPanel {
  constructor(tools, root) {
    this.button = element("button", { type: "button", id: "open-history", "aria-expanded": "false",
      "aria-controls": "history", title: "Today's planes, charts and rewind" }, "Today");
    tools.append(this.button);
    this.panel = element("section", { id: "history", "aria-label": "Today" });
    this.panel.hidden = true;
    this.panel.append(
      element("h2", {}, "Today"),
      (this.count = element("p", { id: "history-count", "aria-live": "polite" }, "…")),
      (this.cards = element("ul", { id: "history-cards" })),
      element("h3", {}, "Charts"),
      (this.period = element("button", { type: "button", id: "history-period" }, "Last 7 days")),
      (this.charts = element("div", { id: "history-charts" })),
      element("h3", {}, "Rewind"),
      (this.scope = element("canvas", { id: "history-scope", width: "320", height: "320",
        role: "img", "aria-label": "Past sky" })),
      (this.when = element("p", { id: "history-when" }, "")),
      (this.slider = element("input", { type: "range", id: "history-time", min: "0", max: "1000", step: "1",
        "aria-label": "When" })),
      (this.play = element("button", { type: "button", id: "history-play" }, "Play")),
      (this.speed = element("select", { id: "history-speed", "aria-label": "Speed" })),
      (this.close = element("button", { type: "button", id: "history-close" }, "Done")),
    );
    for (const speed of REWIND_SPEEDS) this.speed.append(element("option", { value: String(speed) }, `${speed}×`));
    root.append(this.panel);
    this.days = 1;
    this.positions = [];
    this.loaded = null;
    this.trace = [];
    this.receiver = null;
    this.bind();
  }

  bind() {
    this.button.addEventListener("click", () => (this.panel.hidden ? this.open() : this.hide()));
    this.close.addEventListener("click", () => this.hide());
    this.period.addEventListener("click", () => {
      this.days = this.days === 1 ? 7 : 1;
      this.period.textContent = this.days === 1 ? "Last 7 days" : "Last 24 hours";
      this.loadCharts();
    });
    this.slider.addEventListener("input", () => {
      const clock = this.clock;
      if (!clock) return;
      clock.seek(clock.earliest + (Number(this.slider.value) / 1000) * (clock.latest - clock.earliest), performance.now());
      this.draw();
    });
    this.play.addEventListener("click", () => {
      if (!this.clock) return;
      if (this.clock.playing) this.clock.pause(performance.now()); else this.clock.play(performance.now());
      this.play.textContent = this.clock.playing ? "Pause" : "Play";
      if (this.clock.playing) this.tick();
    });
    this.speed.addEventListener("change", () => this.clock?.setSpeed(Number(this.speed.value), performance.now()));
    this.scope.addEventListener("click", (event) => this.pick(event));
  }

  async open() {
    this.panel.hidden = false;
    this.button.setAttribute("aria-expanded", "true");
    await Promise.allSettled([this.loadDiary(), this.loadCharts(), this.startRewind()]);
  }

  hide() {
    this.panel.hidden = true;
    this.button.setAttribute("aria-expanded", "false");
    this.clock?.pause(performance.now());
    this.play.textContent = "Play";
  }

  async loadDiary() {
    try {
      const diary = await getJSON("data/history/diary");
      const n = Number(diary.aircraft) || 0;
      this.count.textContent = n === 1 ? "1 plane flew over today" : `${n} planes flew over today`;
      this.cards.replaceChildren();
      for (const card of diaryCards(diary)) {
        const item = element("li", { class: "history-card" });
        const picture = element("canvas", { width: "48", height: "48", "aria-hidden": "true" });
        drawIcon(picture.getContext("2d"), card.icon, 48, "#7CFC9A");
        item.append(picture, element("strong", {}, card.title), element("span", {}, `${card.name} ${card.line}`));
        this.cards.append(item);
      }
    } catch {
      this.count.textContent = "No history kept (see docs/history.md)";
    }
  }

  async loadCharts() {
    try {
      const chart = await getJSON(`data/history/chart?period=${this.days === 1 ? "24h" : "7d"}`);
      const end = Date.now() / 1000;
      const start = end - this.days * 86400;
      this.charts.replaceChildren();
      for (const [key, title, second] of CHARTS) {
        const canvas = element("canvas", { width: "320", height: "90", role: "img", "aria-label": title });
        this.charts.append(element("h4", {}, title), canvas);
        const c = canvas.getContext("2d");
        c.fillStyle = "#041"; c.fillRect(0, 0, 320, 90);
        for (const [series, colour] of [[key, "#7CFC9A"], [second, "#F4A742"]]) {
          if (!series) continue;
          const scaled = scaleSeries(chart.points, series, 320, 80, start, end);
          c.strokeStyle = colour; c.lineWidth = 2; c.beginPath();
          scaled.points.forEach((p, i) => (i === 0 ? c.moveTo(p.x, p.y + 5) : c.lineTo(p.x, p.y + 5)));
          c.stroke();
          if (scaled.points.length > 0) {
            c.fillStyle = colour; c.font = "11px monospace";
            c.fillText(`${scaled.min.toFixed(0)}–${scaled.max.toFixed(0)}`, 4, series === key ? 12 : 24);
          }
        }
      }
    } catch {
      this.charts.replaceChildren(element("p", {}, "No charts yet"));
    }
  }

  async startRewind() {
    try {
      const receiver = await getJSON("data/receiver.json");
      this.receiver = typeof receiver.lat === "number" ? { lat: receiver.lat, lon: receiver.lon } : null;
      const chart = await getJSON("data/history/chart?period=7d");
      const now = Date.now() / 1000;
      // The chart's first bucket says roughly how far back the store reaches; its first
      // position says exactly.
      const bucket = chart.points?.[0]?.time;
      let earliest = typeof bucket === "number" ? bucket : now - 3600;
      const first = await getJSON(`data/history/tracks?from=${Math.floor(earliest)}&to=${Math.floor(earliest) + 21600}&limit=1`);
      if (typeof first.positions?.[0]?.time === "number") earliest = first.positions[0].time;
      this.clock = new RewindClock(earliest, now, performance.now());
      this.clock.seek(Math.max(earliest, now - 3600), performance.now());
      await this.draw();
    } catch {
      this.when.textContent = "Nothing to rewind yet";
    }
  }

  async load(time) {
    const from = Math.floor(time - 60);
    if (this.loaded && from >= this.loaded.from && time <= this.loaded.to) return;
    const to = from + WINDOW_S;
    const answer = await getJSON(`data/history/tracks?from=${from}&to=${to}&limit=50000`);
    this.positions = Array.isArray(answer.positions) ? answer.positions : [];
    this.loaded = { from: from + 60, to };
  }

  /** Degrees to scope pixels around the receiver (or the first aircraft when it is unknown). */
  project(lat, lon, centre) {
    const kmPerDegree = 111.32;
    const x = (lon - centre.lon) * kmPerDegree * Math.cos((centre.lat * Math.PI) / 180);
    const y = (lat - centre.lat) * kmPerDegree;
    return { x: 160 + (x / SCOPE_KM) * 150, y: 160 - (y / SCOPE_KM) * 150 };
  }

  async draw() {
    const clock = this.clock;
    if (!clock) return;
    const time = clock.advance(performance.now());
    try { await this.load(time); } catch { this.positions = []; }
    const sky = skyAt(this.positions, time);
    const c = this.scope.getContext("2d");
    c.fillStyle = "#020"; c.fillRect(0, 0, 320, 320);
    c.strokeStyle = "#0a4"; c.lineWidth = 1;
    for (const r of [50, 100, 150]) { c.beginPath(); c.arc(160, 160, r, 0, Math.PI * 2); c.stroke(); }
    const centre = this.receiver ?? sky[0] ?? { lat: 0, lon: 0 };
    for (let i = 1; i < this.trace.length; i++) {
      const a = this.project(this.trace[i - 1].lat, this.trace[i - 1].lon, centre);
      const b = this.project(this.trace[i].lat, this.trace[i].lon, centre);
      c.strokeStyle = altitudeColour(this.trace[i].alt, this.trace[i].ground); c.lineWidth = 3;
      c.beginPath(); c.moveTo(a.x, a.y); c.lineTo(b.x, b.y); c.stroke();
    }
    this.shown = sky.map((p) => ({ hex: p.hex, ...this.project(p.lat, p.lon, centre) }));
    for (const [index, p] of sky.entries()) {
      c.fillStyle = altitudeColour(p.alt, p.ground);
      c.beginPath(); c.arc(this.shown[index].x, this.shown[index].y, 4, 0, Math.PI * 2); c.fill();
    }
    this.slider.value = String(Math.round(((time - clock.earliest) / Math.max(1, clock.latest - clock.earliest)) * 1000));
    this.when.textContent = `${new Date(time * 1000).toLocaleString()} · ${sky.length} aircraft`;
  }

  async tick() {
    if (!this.clock?.playing || this.panel.hidden) return;
    await this.draw();
    if (!this.clock.playing) this.play.textContent = "Play";
    setTimeout(() => this.tick(), 250);
  }

  async pick(event) {
    const box = this.scope.getBoundingClientRect();
    const x = ((event.clientX - box.left) / box.width) * 320;
    const y = ((event.clientY - box.top) / box.height) * 320;
    const nearest = (this.shown ?? []).map((p) => ({ p, d: Math.hypot(p.x - x, p.y - y) })).sort((a, b) => a.d - b.d)[0];
    if (!nearest || nearest.d > 20 || !/^~?[0-9a-f]{6}$/.test(nearest.p.hex)) return;
    try {
      this.trace = traceToPoints(await getJSON(`data/history/trace?hex=${encodeURIComponent(nearest.p.hex)}`));
    } catch {
      this.trace = [];
    }
    await this.draw();
  }
}

const tools = document.getElementById("tools");
const root = document.getElementById("scope");
if (tools && root) {
  const panel = new HistoryPanel(tools, root);
  // A link to the page with #today opens the panel at once.
  if (location.hash === "#today") panel.open();
}
