// The scope: a phosphor screen with range rings, a compass rose that turns with the heading,
// a rotating sweep with a fading trail, and the aircraft with their trails and callsigns.
//
// Drawn with Canvas 2D at the display's frame rate. What does not move (the face, the rings
// and their labels, the glow) is drawn once into a cache whenever the size, range or theme
// changes; each aircraft is a pre-rendered sprite placed with one transform, and trails are
// stroked in one path per altitude colour. That keeps a frame with 300 aircraft to a few
// hundred cheap calls.

import { THEMES, altitudeBucket, bucketColor } from "./palette.js";

/** One turn of the sweep, in milliseconds: slow enough to follow with the eyes. */
const SWEEP_PERIOD_MS = 4000;
/** The sweep's fading trail, in radians (a quarter turn). */
const SWEEP_TRAIL = Math.PI / 2;
/** An aircraft's icon at `scale` 1, in CSS pixels; the feed's scale runs from 0.7 to 2. */
const ICON_CSS_PX = 22;
/** Kid mode's icons are this much larger. */
const KID_FACTOR = 1.7;
/** Sprites are rendered at this size (device pixels) and scaled when drawn. */
const SPRITE_PX = 64;
/** A tap this close to an aircraft's centre (CSS pixels, beyond its icon) selects it. */
const TAP_SLACK_PX = 14;
/** Labels are kept apart on a grid of cells this size (CSS pixels). */
const LABEL_CELL_W = 56;
const LABEL_CELL_H = 15;
/** Ring spacings to choose from, in km. */
const RING_STEPS = [0.25, 0.5, 1, 2, 2.5, 5, 10, 20, 25, 50, 100, 200, 250, 500];

/** The ring spacing giving two to four rings inside `rangeKm`. */
export function ringStep(rangeKm) {
  return RING_STEPS.find((step) => rangeKm / step <= 4.01) ?? RING_STEPS[RING_STEPS.length - 1];
}

/** A label for a distance in km: no needless decimals. */
export function kmLabel(km) {
  return `${Number.isInteger(km) ? km : km.toFixed(km < 1 ? 2 : 1)} km`;
}

export class Radar {
  /** @param {HTMLCanvasElement} canvas */
  constructor(canvas) {
    this.canvas = canvas;
    this.context = canvas.getContext("2d", { alpha: false });
    this.theme = THEMES.night;
    this.rangeKm = 50;
    this.ratio = 1;
    this.width = 0;
    this.height = 0;
    this.cache = document.createElement("canvas");
    this.cacheValid = false;
    this.sprites = new Map();
    // Trail segments by altitude colour (the last one: altitude unknown), reused every frame.
    this.segments = Array.from({ length: altitudeBucket(null) + 1 }, () => []);
    this.kid = false;
    this.hasConic = typeof this.context.createConicGradient === "function";
  }

  setTheme(name) {
    const theme = THEMES[name] ?? THEMES.night;
    if (theme === this.theme) return;
    this.theme = theme;
    this.cacheValid = false;
    this.sprites.clear();
  }

  /** Kid mode: no text on the scope. */
  setKid(kid) {
    if (kid === this.kid) return;
    this.kid = kid;
    this.cacheValid = false;
  }

  setRange(km) {
    if (km === this.rangeKm) return;
    this.rangeKm = km;
    this.cacheValid = false;
  }

  /** Follows the canvas's size on the page and the screen's pixel ratio. */
  fit() {
    const ratio = Math.min(window.devicePixelRatio || 1, 3);
    const width = Math.max(1, Math.round(this.canvas.clientWidth * ratio));
    const height = Math.max(1, Math.round(this.canvas.clientHeight * ratio));
    if (width === this.width && height === this.height && ratio === this.ratio) return;
    this.ratio = ratio;
    this.width = this.canvas.width = this.cache.width = width;
    this.height = this.canvas.height = this.cache.height = height;
    this.cx = width / 2;
    this.cy = height / 2;
    // A margin for the compass letters outside the rim.
    this.radius = Math.max(10, Math.min(width, height) / 2 - 22 * ratio);
    this.cacheValid = false;
    this.sprites.clear();
    this.canvas.dataset.centerX = (this.cx / ratio).toFixed(1);
    this.canvas.dataset.centerY = (this.cy / ratio).toFixed(1);
    this.canvas.dataset.radius = (this.radius / ratio).toFixed(1);
  }

  /** Draws the still parts into the cache. */
  drawCache() {
    const c = this.cache.getContext("2d");
    const { cx, cy, radius, ratio, theme } = this;
    c.setTransform(1, 0, 0, 1, 0, 0);
    c.fillStyle = theme.background;
    c.fillRect(0, 0, this.width, this.height);
    const face = c.createRadialGradient(cx, cy, 0, cx, cy, radius);
    face.addColorStop(0, theme.face[0]);
    face.addColorStop(1, theme.face[1]);
    c.fillStyle = face;
    c.beginPath();
    c.arc(cx, cy, radius, 0, 2 * Math.PI);
    c.fill();

    c.shadowColor = theme.text;
    c.shadowBlur = theme.glow * ratio;
    c.strokeStyle = theme.grid;
    c.lineWidth = ratio;
    c.beginPath();
    c.moveTo(cx - radius, cy);
    c.lineTo(cx + radius, cy);
    c.moveTo(cx, cy - radius);
    c.lineTo(cx, cy + radius);
    c.stroke();

    const step = ringStep(this.rangeKm);
    c.strokeStyle = theme.ring;
    c.fillStyle = theme.dimText;
    c.font = `${11 * ratio}px ui-monospace, "DejaVu Sans Mono", monospace`;
    c.textBaseline = "bottom";
    const labelAngle = -Math.PI / 4; // labels up and to the right of the centre
    const rings = [];
    for (let km = step; km < this.rangeKm * 0.999; km += step) rings.push(km);
    rings.push(this.rangeKm);
    for (const km of rings) {
      const r = (km / this.rangeKm) * radius;
      c.lineWidth = (km === this.rangeKm ? 2 : 1) * ratio;
      c.beginPath();
      c.arc(cx, cy, r, 0, 2 * Math.PI);
      c.stroke();
      if (!this.kid) c.fillText(kmLabel(km), cx + r * Math.cos(labelAngle) + 3 * ratio, cy + r * Math.sin(labelAngle) - 2 * ratio);
    }
    c.shadowBlur = 0;
    this.cacheValid = true;
  }

  /** A plane (or, without a track, a round blip) in one colour, with its glow, pointing up. */
  sprite(color, round) {
    const key = `${color}|${round}`;
    let sprite = this.sprites.get(key);
    if (sprite) return sprite;
    sprite = document.createElement("canvas");
    sprite.width = sprite.height = SPRITE_PX;
    const c = sprite.getContext("2d");
    c.translate(SPRITE_PX / 2, SPRITE_PX / 2);
    const s = SPRITE_PX / 64; // path drawn in a 64-unit box, the plane in its middle 44
    c.scale(s, s);
    c.fillStyle = color;
    c.shadowColor = color;
    c.shadowBlur = this.theme.glow > 0 ? 7 : 0;
    c.beginPath();
    if (round) {
      c.arc(0, 0, 9, 0, 2 * Math.PI);
    } else {
      // Nose at the top; wings, then the tailplane.
      c.moveTo(0, -22);
      c.lineTo(3.5, -14);
      c.lineTo(3.5, -5);
      c.lineTo(20, 5);
      c.lineTo(20, 9);
      c.lineTo(3.5, 4);
      c.lineTo(3, 14);
      c.lineTo(9, 19);
      c.lineTo(9, 22);
      c.lineTo(0, 19.5);
      c.lineTo(-9, 22);
      c.lineTo(-9, 19);
      c.lineTo(-3, 14);
      c.lineTo(-3.5, 4);
      c.lineTo(-20, 9);
      c.lineTo(-20, 5);
      c.lineTo(-3.5, -5);
      c.lineTo(-3.5, -14);
      c.closePath();
    }
    c.fill();
    this.sprites.set(key, sprite);
    return sprite;
  }

  /**
   * Draws one frame. `options`: `labels`, `kid`, `selected` (an ICAO address or null).
   * Sets `screenX`, `screenY` (CSS pixels from the canvas's corner) and `screenSize` on every
   * track it draws, and `visible` on each.
   */
  draw(now, sky, headingDeg, options) {
    this.fit();
    if (!this.cacheValid) this.drawCache();
    const c = this.context;
    const { cx, cy, radius, ratio, theme } = this;
    c.setTransform(1, 0, 0, 1, 0, 0);
    c.globalAlpha = 1;
    c.drawImage(this.cache, 0, 0);

    const heading = (headingDeg * Math.PI) / 180;
    const cos = Math.cos(heading);
    const sin = Math.sin(heading);
    const pxPerKm = radius / this.rangeKm;

    c.save();
    c.beginPath();
    c.arc(cx, cy, radius, 0, 2 * Math.PI);
    c.clip();

    const sweep = ((now % SWEEP_PERIOD_MS) / SWEEP_PERIOD_MS) * 2 * Math.PI;
    this.drawSweep(c, sweep);
    this.drawTrails(c, now, sky, cos, sin, pxPerKm);
    c.restore();

    this.drawRose(c, heading);
    this.drawAircraft(c, now, sky, cos, sin, pxPerKm, sweep, options);

    // The observer at the centre.
    c.setTransform(1, 0, 0, 1, 0, 0);
    c.globalAlpha = 1;
    c.fillStyle = theme.text;
    c.fillRect(cx - 2 * ratio, cy - 2 * ratio, 4 * ratio, 4 * ratio);
  }

  drawSweep(c, sweep) {
    const { cx, cy, radius, ratio } = this;
    const [r, g, b] = this.theme.sweep;
    const end = sweep - Math.PI / 2; // canvas angles start at 3 o'clock
    const start = end - SWEEP_TRAIL;
    if (this.hasConic) {
      const gradient = c.createConicGradient(start, cx, cy);
      gradient.addColorStop(0, `rgba(${r}, ${g}, ${b}, 0)`);
      gradient.addColorStop(SWEEP_TRAIL / (2 * Math.PI), `rgba(${r}, ${g}, ${b}, 0.32)`);
      gradient.addColorStop(SWEEP_TRAIL / (2 * Math.PI) + 0.001, `rgba(${r}, ${g}, ${b}, 0)`);
      c.fillStyle = gradient;
      c.beginPath();
      c.moveTo(cx, cy);
      c.arc(cx, cy, radius, start, end);
      c.closePath();
      c.fill();
    } else {
      // Older browsers: the trail in steps.
      const steps = 8;
      for (let i = 0; i < steps; i += 1) {
        c.fillStyle = `rgba(${r}, ${g}, ${b}, ${(0.32 * (i + 1)) / steps})`;
        c.beginPath();
        c.moveTo(cx, cy);
        c.arc(cx, cy, radius, start + (SWEEP_TRAIL * i) / steps, start + (SWEEP_TRAIL * (i + 1)) / steps);
        c.closePath();
        c.fill();
      }
    }
    c.strokeStyle = `rgba(${r}, ${g}, ${b}, 0.9)`;
    c.lineWidth = 2 * ratio;
    c.beginPath();
    c.moveTo(cx, cy);
    c.lineTo(cx + radius * Math.cos(end), cy + radius * Math.sin(end));
    c.stroke();
  }

  /** Ticks every 10°, longer every 30°, and the cardinal letters, turned with the heading. */
  drawRose(c, heading) {
    const { cx, cy, radius, ratio, theme } = this;
    c.setTransform(1, 0, 0, 1, 0, 0);
    c.strokeStyle = theme.ring;
    c.lineWidth = ratio;
    c.beginPath();
    for (let degrees = 0; degrees < 360; degrees += 10) {
      const angle = (degrees * Math.PI) / 180 - heading;
      const inner = radius - (degrees % 30 === 0 ? 9 : 5) * ratio;
      const x = Math.sin(angle);
      const y = -Math.cos(angle);
      c.moveTo(cx + inner * x, cy + inner * y);
      c.lineTo(cx + radius * x, cy + radius * y);
    }
    c.stroke();
    if (this.kid) return;
    c.fillStyle = theme.text;
    c.font = `bold ${14 * ratio}px ui-monospace, "DejaVu Sans Mono", monospace`;
    c.textAlign = "center";
    c.textBaseline = "middle";
    const letters = ["N", "E", "S", "W"];
    for (let i = 0; i < 4; i += 1) {
      const angle = (i * Math.PI) / 2 - heading;
      const r = radius + 11 * ratio;
      c.fillText(letters[i], cx + r * Math.sin(angle), cy - r * Math.cos(angle));
    }
    c.textAlign = "start";
  }

  /** Trails as one path per altitude colour, drawn in the observer's km with one transform. */
  drawTrails(c, now, sky, cos, sin, pxPerKm) {
    const segments = this.segments;
    for (const list of segments) list.length = 0;
    for (const track of sky.tracks.values()) {
      const trail = track.trail;
      if (trail.length < 3 || !track.placed) continue;
      const here = track.position(now);
      for (let i = 0; i < trail.length; i += 3) {
        const bucket = altitudeBucket(trail[i + 2]);
        const list = segments[bucket];
        const toE = i + 3 < trail.length ? trail[i + 3] : here.e;
        const toN = i + 3 < trail.length ? trail[i + 4] : here.n;
        list.push(trail[i], trail[i + 1], toE, toN);
      }
    }
    const { cx, cy } = this;
    c.setTransform(pxPerKm * cos, -pxPerKm * sin, -pxPerKm * sin, -pxPerKm * cos, cx, cy);
    c.lineWidth = (2 * this.ratio) / pxPerKm;
    c.lineCap = "round";
    c.globalAlpha = 0.75;
    segments.forEach((list, bucket) => {
      if (list.length === 0) return;
      c.strokeStyle = bucketColor(this.theme, bucket);
      c.beginPath();
      for (let i = 0; i < list.length; i += 4) {
        c.moveTo(list[i], list[i + 1]);
        c.lineTo(list[i + 2], list[i + 3]);
      }
      c.stroke();
    });
    c.globalAlpha = 1;
    c.setTransform(1, 0, 0, 1, 0, 0);
  }

  drawAircraft(c, now, sky, cos, sin, pxPerKm, sweep, options) {
    const { cx, cy, radius, ratio, theme } = this;
    const normal = this.sprite(theme.blip, false);
    const normalRound = this.sprite(theme.blip, true);
    const chosen = this.sprite(theme.selected, false);
    const chosenRound = this.sprite(theme.selected, true);
    const sizeFactor = ICON_CSS_PX * ratio * (options.kid ? KID_FACTOR : 1) / SPRITE_PX;
    const labelled = [];
    for (const track of sky.tracks.values()) {
      track.visible = false;
      if (!track.placed) continue;
      const { e, n } = track.position(now);
      const xKm = e * cos - n * sin;
      const yKm = e * sin + n * cos;
      const x = cx + xKm * pxPerKm;
      const y = cy - yKm * pxPerKm;
      const fromCentre = Math.hypot(x - cx, y - cy);
      if (fromCentre > radius + 4 * ratio) continue;
      const data = track.data;
      const k = sizeFactor * (data.scale ?? 1);
      // Brighter just after the sweep passed over it, like a real scope's afterglow.
      const angle = Math.atan2(xKm, yKm);
      const behind = (((sweep - angle) % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
      c.globalAlpha = (data.stale ? 0.35 : 1) * (0.6 + 0.4 * Math.exp(-behind / 1.2));
      const isSelected = options.selected === track.icao;
      const round = data.track_deg == null;
      const sprite = isSelected ? (round ? chosenRound : chosen) : round ? normalRound : normal;
      const rotation = round ? 0 : ((data.track_deg * Math.PI) / 180) - Math.atan2(sin, cos);
      const rc = Math.cos(rotation) * k;
      const rs = Math.sin(rotation) * k;
      c.setTransform(rc, rs, -rs, rc, x, y);
      c.drawImage(sprite, -SPRITE_PX / 2, -SPRITE_PX / 2);
      const size = k * SPRITE_PX * 0.7;
      track.visible = true;
      track.screenX = x / ratio;
      track.screenY = y / ratio;
      track.screenSize = size / ratio;
      if (options.labels && !options.kid && data.callsign) labelled.push(track);
    }
    c.setTransform(1, 0, 0, 1, 0, 0);
    if (options.selected) {
      const track = sky.tracks.get(options.selected);
      if (track?.visible) {
        c.globalAlpha = 1;
        c.strokeStyle = theme.selected;
        c.lineWidth = 2 * ratio;
        c.beginPath();
        c.arc(track.screenX * ratio, track.screenY * ratio, (track.screenSize / 2 + 8) * ratio, 0, 2 * Math.PI);
        c.stroke();
      }
    }
    if (labelled.length > 0) this.drawLabels(c, labelled);
    c.globalAlpha = 1;
  }

  /**
   * Callsigns beside their aircraft, nearest the centre first; a label that would land on one
   * already written is left out, so a crowded airport stays readable.
   */
  drawLabels(c, labelled) {
    const { ratio, theme } = this;
    labelled.sort((a, b) => (a.data.ground_km ?? 0) - (b.data.ground_km ?? 0));
    c.font = `${12 * ratio}px ui-monospace, "DejaVu Sans Mono", monospace`;
    c.textBaseline = "middle";
    c.fillStyle = theme.text;
    const taken = this.labelCells ?? (this.labelCells = new Set());
    taken.clear();
    for (const track of labelled) {
      const x = track.screenX + track.screenSize / 2 + 3;
      const y = track.screenY;
      // Cells about one short callsign wide and one line high.
      const column = Math.floor(x / LABEL_CELL_W);
      const row = Math.floor(y / LABEL_CELL_H);
      const key = column * 4096 + row;
      if (taken.has(key) || taken.has(key + 4096) || taken.has(key - 4096)) continue;
      taken.add(key);
      c.globalAlpha = track.data.stale ? 0.4 : 0.9;
      c.fillText(track.data.callsign, x * ratio, y * ratio);
    }
    c.globalAlpha = 1;
  }

  /** The aircraft under a tap at CSS pixels (x, y) on the canvas, or null. */
  hit(sky, x, y) {
    let best = null;
    let bestDistance = Infinity;
    for (const track of sky.tracks.values()) {
      if (!track.visible) continue;
      const distance = Math.hypot(track.screenX - x, track.screenY - y);
      if (distance <= track.screenSize / 2 + TAP_SLACK_PX && distance < bestDistance) {
        best = track;
        bestDistance = distance;
      }
    }
    return best;
  }
}
