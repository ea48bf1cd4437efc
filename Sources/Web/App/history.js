// The history's pure parts, for the "today" panel (history-panel.js draws them) and the rewind
// (rewind.js): the diary's cards, chart scaling, the coverage, the rewind clock and an
// aircraft's stored pass. No DOM here, so node's test runner checks it (Tests/WebApp).

/** The rewind speeds offered, times real time. */
export const REWIND_SPEEDS = [1, 10, 30, 60];

/** The picture of each aircraft class (`class` of the diary), drawn by history-panel.js. */
export function iconFor(aircraftClass) {
  switch (aircraftClass) {
    case "heavy": return "heavy";
    case "medium_jet": case "military": return "jet";
    case "helicopter": return "helicopter";
    case "light": case "small": case "glider": return "light";
    case "balloon": return "balloon";
    default: return "jet";
  }
}

/** The diary's extremes as cards for children: a title, a name and a line each, nulls left out. */
export function diaryCards(diary) {
  if (!diary || typeof diary !== "object") return [];
  const feet = (value) => (typeof value === "number" ? `${Math.round(value).toLocaleString("en")} ft` : null);
  const clock = (seconds) => {
    if (typeof seconds !== "number") return null;
    const date = new Date(seconds * 1000);
    return `${String(date.getHours()).padStart(2, "0")}:${String(date.getMinutes()).padStart(2, "0")}`;
  };
  const rows = [
    ["lowest", "The lowest", (a) => feet(a.min_altitude_ft)],
    ["highest", "The highest", (a) => feet(a.max_altitude_ft)],
    ["fastest", "The fastest", (a) => (typeof a.max_speed_kt === "number" ? `${Math.round(a.max_speed_kt * 1.852)} km/h` : null)],
    ["biggest", "The biggest", (a) => a.description ?? a.type ?? null],
    ["closest", "The closest", (a) => (typeof a.closest_km === "number" ? `${a.closest_km.toFixed(1)} km away` : null)],
    ["first", "The first", (a) => clock(a.first_seen)],
    ["last", "The last", (a) => clock(a.last_seen)],
  ];
  const cards = [];
  for (const [key, title, detail] of rows) {
    const plane = diary[key];
    if (!plane || typeof plane !== "object") continue;
    const name = plane.callsign || plane.registration || plane.hex || "?";
    cards.push({ key, title, name: String(name), line: detail(plane) ?? "", icon: iconFor(plane.class) });
  }
  return cards;
}

/**
 * The points of one chart series scaled into a `width` × `height` box (y grows downwards),
 * leaving out missing values: `{ points: [{x, y}], min, max }`, or no points when none.
 */
export function scaleSeries(points, key, width, height, start, end) {
  const values = (Array.isArray(points) ? points : []).filter(
    (point) => point && typeof point[key] === "number" && Number.isFinite(point[key]) && typeof point.time === "number",
  );
  if (values.length === 0 || !(end > start)) return { points: [], min: 0, max: 0 };
  let min = Math.min(...values.map((point) => point[key]));
  let max = Math.max(...values.map((point) => point[key]));
  if (max === min) { max += 1; min -= min === 0 ? 0 : 1; }
  const scaled = values.map((point) => ({
    x: ((point.time - start) / (end - start)) * width,
    y: height - ((point[key] - min) / (max - min)) * height,
  }));
  return { points: scaled, min, max };
}

/**
 * The rewind's clock: a moment of the past that runs at `speed` times real time from where it
 * was put, within [`earliest`, `latest`], paused or not. Time is passed in (milliseconds).
 */
export class RewindClock {
  constructor(earliest, latest, nowMs) {
    this.earliest = earliest;
    this.latest = latest;
    this.time = earliest;
    this.speed = 1;
    this.playing = false;
    this.wallMs = nowMs;
  }

  /** Moves to `time` (seconds since 1970), kept within the range. */
  seek(time, nowMs) {
    this.advance(nowMs);
    this.time = Math.min(this.latest, Math.max(this.earliest, Number.isFinite(time) ? time : this.earliest));
  }

  /** Sets the speed to the nearest offered one. */
  setSpeed(speed, nowMs) {
    this.advance(nowMs);
    this.speed = REWIND_SPEEDS.reduce((best, s) => (Math.abs(s - speed) < Math.abs(best - speed) ? s : best), 1);
  }

  play(nowMs) { this.advance(nowMs); this.playing = true; }
  pause(nowMs) { this.advance(nowMs); this.playing = false; }

  /** The moment shown at `nowMs`; playing stops at the latest moment. */
  advance(nowMs) {
    if (this.playing) {
      this.time += ((nowMs - this.wallMs) / 1000) * this.speed;
      if (this.time >= this.latest) { this.time = this.latest; this.playing = false; }
    }
    this.wallMs = nowMs;
    return this.time;
  }
}

/**
 * The polar coverage (the coverage endpoint's answer) as the furthest range, km, in each
 * bearing sector: `ranges[band][sector]` for each altitude band, `all[sector]` for any, with
 * `sectorDeg`, `bandsFt` (each band's floor) and `maxKm`. Cells out of place are left out.
 */
export function coverageRanges(coverage) {
  const count = Number.isInteger(coverage?.sectors) && coverage.sectors > 0 && coverage.sectors <= 360
    ? coverage.sectors : 72;
  const bandsFt = Array.isArray(coverage?.bands_ft) ? coverage.bands_ft.filter(Number.isFinite).slice(0, 16) : [];
  const ranges = bandsFt.map(() => new Array(count).fill(0));
  const all = new Array(count).fill(0);
  let maxKm = 0;
  for (const cell of Array.isArray(coverage?.cells) ? coverage.cells : []) {
    if (!Array.isArray(cell)) continue;
    const [sector, band, km] = cell;
    const placed = Number.isInteger(sector) && sector >= 0 && sector < count && Number.isInteger(band) && band >= 0
      && band < bandsFt.length && Number.isFinite(km) && km >= 0;
    if (!placed) continue;
    ranges[band][sector] = Math.max(ranges[band][sector], km);
    all[sector] = Math.max(all[sector], km);
    maxKm = Math.max(maxKm, km);
  }
  return { sectorDeg: 360 / count, bandsFt, ranges, all, maxKm };
}

/** A gap this long between two stored positions starts a new pass (tar1090's new leg). */
export const PASS_GAP_S = 600;

/**
 * The pass of `points` (traceToPoints's, oldest first) that `time` falls in: the run of
 * points without a gap of PASS_GAP_S, the one under way at `time` or else the last before it
 * (or the first, when all are later).
 */
export function passAround(points, time) {
  if (!Array.isArray(points) || points.length === 0) return [];
  let start = 0;
  let chosen = null;
  for (let i = 1; i <= points.length; i += 1) {
    if (i < points.length && points[i].time - points[i - 1].time <= PASS_GAP_S) continue;
    const pass = points.slice(start, i);
    if (pass[0].time <= time || chosen === null) chosen = pass;
    if (pass[0].time > time) break;
    start = i;
  }
  return chosen;
}

/** The points of one aircraft's trace (tar1090's layout) as {lat, lon, alt, ground, time}. */
export function traceToPoints(trace) {
  if (!trace || !Array.isArray(trace.trace) || typeof trace.timestamp !== "number") return [];
  return trace.trace
    .filter((row) => Array.isArray(row) && typeof row[1] === "number" && typeof row[2] === "number")
    .map((row) => ({
      time: trace.timestamp + (typeof row[0] === "number" ? row[0] : 0),
      lat: row[1],
      lon: row[2],
      alt: typeof row[3] === "number" ? row[3] : null,
      ground: row[3] === "ground",
    }));
}
