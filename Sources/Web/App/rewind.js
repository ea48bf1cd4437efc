// The rewind: the radar's scope and sky view replay the stored sky (docs/history.md) instead
// of the live feed, from any moment the history reaches, at 1x to 60x. Each step asks the
// daemon for the sky at the rewind clock's moment (`/data/history/sky`, a frame in the feed's
// own format, placed in the observer's sky by the daemon), and hands it to the radar exactly
// as a live frame. The bar at the top says when, and goes back to live.

import { REWIND_SPEEDS, RewindClock } from "./history.js";

/** The store's newest batch is at most this old (its writes are batched every 5 s). */
const STORE_LAG_S = 6;
/** How far back the rewind starts when no moment is asked for. */
const DEFAULT_BACK_S = 3600;

/** Fetches JSON from the daemon, never from a cache; throws on an HTTP error. */
export async function getJSON(path) {
  const response = await fetch(path, { cache: "no-store" });
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response.json();
}

/**
 * Wall milliseconds between two steps at `speed` times real time: one a second at 1x, four
 * a second faster than that, so that between two frames an aircraft moves no further than
 * the radar glides it (at 60x a step is 15 s of the past).
 */
export function stepIntervalMs(speed) {
  return speed > 1 ? 250 : 1000;
}

/** A decimal the daemon's query check accepts: at most 7 places, no exponent. */
function decimal(value, places) {
  return Number(value).toFixed(places).replace(/\.?0+$/, "") || "0";
}

/**
 * The address of the stored sky at `time` (seconds since 1970) seen from `observer`
 * (`{lat, lon, alt_m}`, or null for the receiver) through `view`, the feed's view fields
 * (`range_km`, `min_alt_ft`, `max_alt_ft`, `max_distance_km`, `hide_on_ground`; those unset
 * left out).
 */
export function skyAddress(time, observer, view = {}) {
  const parts = [`at=${Math.max(0, Math.floor(time))}`];
  if (observer && Number.isFinite(observer.lat) && Number.isFinite(observer.lon)) {
    parts.push(`lat=${decimal(observer.lat, 6)}`, `lon=${decimal(observer.lon, 6)}`);
    if (Number.isFinite(observer.alt_m)) parts.push(`alt_m=${decimal(observer.alt_m, 1)}`);
  }
  for (const name of ["range_km", "min_alt_ft", "max_alt_ft", "max_distance_km"]) {
    const value = view?.[name];
    if (Number.isFinite(value) && (name !== "range_km" || value > 0)) parts.push(`${name}=${decimal(value, 3)}`);
  }
  if (view?.hide_on_ground) parts.push("hide_on_ground=1");
  return `data/history/sky?${parts.join("&")}`;
}

/**
 * How far back the store reaches: `{earliest, latest}` in seconds since 1970. The week's
 * chart's first point says roughly where it starts, the first position after it exactly.
 */
export async function storedReach(nowS = Date.now() / 1000) {
  const chart = await getJSON("data/history/chart?period=7d");
  const bucket = chart.points?.[0]?.time;
  let earliest = typeof bucket === "number" ? bucket : nowS - DEFAULT_BACK_S;
  const first = await getJSON(`data/history/tracks?from=${Math.floor(earliest)}&to=${Math.floor(earliest) + 21600}&limit=1`);
  if (typeof first.positions?.[0]?.time === "number") earliest = first.positions[0].time;
  return { earliest, latest: nowS - STORE_LAG_S };
}

/** The time of day of `time` (seconds since 1970), with the date when it is not today. */
export function rewindLabel(time, nowS = Date.now() / 1000) {
  const date = new Date(time * 1000);
  const clock = date.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  const today = new Date(nowS * 1000).toDateString() === date.toDateString();
  return today ? clock : `${date.toLocaleDateString("en-GB", { weekday: "short", day: "numeric", month: "short" })} ${clock}`;
}

export class Rewind {
  /**
   * @param {object} e the bar: `root`, `when`, `slider`, `play`, `speed`, `live`.
   * @param {object} handlers `observer()` (`{lat, lon, alt_m}` or null), `view()` (the
   *   feed's view fields),
   *   `onFrame(frame, rate)` (rate: the past's seconds per second, 0 while paused) and
   *   `onActive(active, problem)`.
   */
  constructor(e, handlers) {
    this.e = e;
    this.handlers = handlers;
    this.clock = null;
    this.active = false;
    this.timer = 0;
    this.serial = 0;
    for (const speed of REWIND_SPEEDS) {
      const option = document.createElement("option");
      option.value = String(speed);
      option.textContent = `${speed}×`;
      e.speed.append(option);
    }
    e.live.addEventListener("click", () => this.stop());
    e.play.addEventListener("click", () => this.toggle());
    e.speed.addEventListener("change", () => {
      this.clock?.setSpeed(Number(e.speed.value), performance.now());
      this.step();
    });
    e.slider.addEventListener("input", () => {
      const clock = this.clock;
      if (!clock) return;
      clock.seek(clock.earliest + (Number(e.slider.value) / 1000) * (clock.latest - clock.earliest), performance.now());
      this.step();
    });
  }

  /** Starts rewinding at `time` (or an hour back), playing at the speed chosen (1x at first); tells why when it cannot. */
  async start(time) {
    let reach;
    try {
      reach = await storedReach();
    } catch {
      this.handlers.onActive(false, "the history is not kept or cannot be read");
      return;
    }
    const now = performance.now();
    this.clock = new RewindClock(reach.earliest, Math.max(reach.earliest, reach.latest), now);
    this.clock.seek(Number.isFinite(time) ? time : reach.latest - DEFAULT_BACK_S, now);
    this.clock.setSpeed(Number(this.e.speed.value) || 1, now);
    this.clock.play(now);
    this.active = true;
    this.e.root.hidden = false;
    this.handlers.onActive(true, null);
    this.step();
  }

  /** Back to the live sky. */
  stop() {
    if (!this.active) return;
    this.active = false;
    this.serial += 1;
    clearTimeout(this.timer);
    this.e.root.hidden = true;
    this.handlers.onActive(false, null);
  }

  toggle() {
    const clock = this.clock;
    if (!clock) return;
    if (clock.playing) clock.pause(performance.now()); else clock.play(performance.now());
    this.step();
  }

  /** Shows the sky at the clock's moment, and plans the next step while it plays. */
  async step() {
    clearTimeout(this.timer);
    if (!this.active) return;
    const clock = this.clock;
    clock.latest = Math.max(clock.latest, Date.now() / 1000 - STORE_LAG_S);
    const playing = clock.playing;
    const time = clock.advance(performance.now());
    // Played up to the newest stored moment: the rest is the live sky.
    if (playing && !clock.playing) {
      this.stop();
      return;
    }
    const serial = ++this.serial;
    this.show(time);
    if (clock.playing) this.timer = setTimeout(() => this.step(), stepIntervalMs(clock.speed));
    let frame;
    try {
      frame = await getJSON(skyAddress(time, this.handlers.observer(), this.handlers.view()));
    } catch {
      if (serial === this.serial) this.e.when.textContent = `${rewindLabel(time)} · the history cannot be read now`;
      return;
    }
    if (serial !== this.serial || !this.active || !Array.isArray(frame?.aircraft)) return;
    this.handlers.onFrame(frame, clock.playing ? clock.speed : 0);
  }

  show(time) {
    const { clock, e } = this;
    e.when.textContent = rewindLabel(time);
    e.slider.value = String(Math.round(((time - clock.earliest) / Math.max(1, clock.latest - clock.earliest)) * 1000));
    e.play.textContent = clock.playing ? "Pause" : "Play";
    e.play.setAttribute("aria-pressed", String(clock.playing));
    e.speed.value = String(clock.speed);
  }
}
