// The "Today" panel: the plane diary for children (how many, and the extremes, each with a
// picture of its kind), the receiver's charts and its coverage (the furthest aircraft heard in
// each direction, by altitude) for 24 hours or 7 days, and where to rewind the
// radar from (a moment as far back as the history reaches; rewind.js then replays the stored
// sky through the scope and the sky view). It adds its own button to the tools and its own
// section. Charts are drawn on canvases by this module: a few lines each, no library to serve
// or to update.

import { coverageRanges, diaryCards, scaleSeries } from "./history.js";
import { THEMES, altitudeBucket, bucketColor } from "./palette.js";
import { getJSON, rewindLabel, storedReach } from "./rewind.js";

const CHARTS = [
  ["messages_per_s", "Messages a second"],
  ["aircraft", "Aircraft"],
  ["max_range_km", "Furthest, km"],
  ["signal_dbfs", "Signal and noise, dBFS", "noise_dbfs"],
];
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
      element("h3", {}, "Coverage"),
      (this.coverage = element("canvas", { id: "history-coverage", width: "320", height: "320", role: "img",
        "aria-label": "How far the receiver hears in each direction" })),
      element("h3", {}, "Rewind"),
      (this.when = element("p", { id: "history-when" }, "")),
      (this.slider = element("input", { type: "range", id: "history-time", min: "0", max: "1000", step: "1",
        "aria-label": "When" })),
      (this.rewind = element("button", { type: "button", id: "history-rewind" }, "Rewind the radar")),
      (this.close = element("button", { type: "button", id: "history-close" }, "Done")),
    );
    root.append(this.panel);
    this.days = 1;
    this.reach = null;
    this.bind();
  }

  bind() {
    this.button.addEventListener("click", () => (this.panel.hidden ? this.open() : this.hide()));
    this.close.addEventListener("click", () => this.hide());
    this.period.addEventListener("click", () => {
      this.days = this.days === 1 ? 7 : 1;
      this.period.textContent = this.days === 1 ? "Last 7 days" : "Last 24 hours";
      this.loadCharts();
      this.loadCoverage();
    });
    this.slider.addEventListener("input", () => this.showWhen());
    this.rewind.addEventListener("click", () => {
      if (!this.reach) return;
      this.hide();
      document.dispatchEvent(new CustomEvent("rewind", { detail: { time: this.moment() } }));
    });
  }

  async open() {
    this.panel.hidden = false;
    this.button.setAttribute("aria-expanded", "true");
    await Promise.allSettled([this.loadDiary(), this.loadCharts(), this.loadCoverage(), this.loadReach()]);
  }

  hide() {
    this.panel.hidden = true;
    this.button.setAttribute("aria-expanded", "false");
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

  /**
   * The coverage as a polar plot, north up: rings every round distance, and for each altitude
   * band (highest first, so the lower ones show on top) a wedge out to the furthest range in
   * each 5° sector, in the trails' altitude colours; all bands' outline on top.
   */
  async loadCoverage() {
    const c = this.coverage.getContext("2d");
    c.clearRect(0, 0, 320, 320);
    let coverage;
    try {
      coverage = coverageRanges(await getJSON(`data/history/coverage?period=${this.days === 1 ? "24h" : "7d"}`));
    } catch {
      coverage = coverageRanges(null);
    }
    const theme = THEMES.night;
    c.fillStyle = "#041"; c.fillRect(0, 0, 320, 320);
    c.fillStyle = theme.dimText; c.font = "11px monospace";
    if (coverage.maxKm <= 0) { c.fillText("No coverage yet", 110, 160); return; }
    const step = [10, 25, 50, 100, 200, 400].find((km) => coverage.maxKm / km <= 4) ?? 500;
    const scale = 150 / (Math.ceil(coverage.maxKm / step) * step);
    c.strokeStyle = theme.grid; c.lineWidth = 1;
    for (let km = step; km * scale <= 150; km += step) {
      c.beginPath(); c.arc(160, 160, km * scale, 0, Math.PI * 2); c.stroke();
      c.fillText(`${km} km`, 163, 160 - km * scale + 11);
    }
    // A wedge per sector out to its furthest range: sectors no aircraft was heard in stay empty.
    const wedges = (ranges) => {
      c.beginPath();
      ranges.forEach((km, sector) => {
        if (km <= 0) return;
        const start = ((sector * coverage.sectorDeg - 90) * Math.PI) / 180;
        c.moveTo(160, 160);
        c.arc(160, 160, km * scale, start, start + (coverage.sectorDeg * Math.PI) / 180);
        c.closePath();
      });
    };
    for (let band = coverage.bandsFt.length - 1; band >= 0; band -= 1) {
      wedges(coverage.ranges[band]);
      c.fillStyle = bucketColor(theme, altitudeBucket(coverage.bandsFt[band]));
      c.globalAlpha = 0.55;
      c.fill();
    }
    c.globalAlpha = 1;
    wedges(coverage.all);
    c.strokeStyle = theme.text; c.lineWidth = 1; c.stroke();
  }

  /** How far back the slider goes: as far as the store reaches. */
  async loadReach() {
    try {
      this.reach = await storedReach();
      if (!(this.slider.value > 0)) this.slider.value = String(this.sliderFor(this.reach.latest - 3600));
      this.showWhen();
    } catch {
      this.reach = null;
      this.when.textContent = "Nothing to rewind yet";
    }
  }

  /** The moment the slider points at, seconds since 1970. */
  moment() {
    const { earliest, latest } = this.reach;
    return earliest + (Number(this.slider.value) / 1000) * Math.max(0, latest - earliest);
  }

  sliderFor(time) {
    const { earliest, latest } = this.reach;
    return Math.round(Math.min(1, Math.max(0, (time - earliest) / Math.max(1, latest - earliest))) * 1000);
  }

  showWhen() {
    if (this.reach) this.when.textContent = `From ${rewindLabel(this.moment())}`;
  }
}

const tools = document.getElementById("tools");
const root = document.getElementById("scope");
if (tools && root) {
  const panel = new HistoryPanel(tools, root);
  // A link to the page with #today opens the panel at once.
  if (location.hash === "#today") panel.open();
}
