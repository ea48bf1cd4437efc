// The scope: a phosphor screen with range rings, a compass rose that turns with the heading,
// a rotating sweep with a fading trail, and the aircraft with their trails and callsigns.
//
// Three layers, so that each frame paints little: the face (rings, their labels, the glow) on
// a canvas of its own, redrawn only when the size, range or theme changes; the sweep, an
// element turned by a compositor animation that costs the page nothing per frame; and a
// transparent canvas on top with what moves, drawn at the display's frame rate. Each aircraft
// is a pre-rendered sprite placed with one transform, and trails are stroked in one path per
// altitude colour, so a frame with 300 aircraft is a few hundred cheap calls.
//
// Aircraft on the ground are drawn small and dim (the size by altitude is for those flying),
// aircraft drawn on top of each other are nudged a few pixels apart, and each callsign goes
// beside its aircraft where it covers no other aircraft, callsign or ring label, or is left
// out (declutter.js).

import { radiansBehind } from "./angles.js";
import { Declutter } from "./declutter.js";
import { kidShows } from "./kid.js";
import { flyingFirst } from "./list.js";
import { THEMES, bucketColor } from "./palette.js";
import { PLANE_OUTLINE, iconScale, planeLength, rightKm, spriteSide, turnStep, upKm } from "./projection.js";
import { SILHOUETTES, SILHOUETTE_NAMES, silhouetteOf } from "./silhouettes.js";

/** One turn of the sweep, in milliseconds: slow enough to follow with the eyes. */
const SWEEP_PERIOD_MS = 4000;
/** Icons turn in steps of this many degrees (a sprite for each step, made when first needed). */
const SPRITE_STEP_DEG = 5;
const SPRITE_STEPS = 360 / SPRITE_STEP_DEG;
/** At most this many sprites are kept; past it the cache starts again. */
const SPRITE_CACHE_LIMIT = 2000;
/** A tap this close to an aircraft's centre (CSS pixels, beyond its icon) selects it. */
const TAP_SLACK_PX = 14;
/** Aircraft on the ground are drawn this much fainter than those flying. */
const GROUND_ALPHA = 0.45;
/** Overlapping aircraft are moved apart by at most this much (CSS pixels), to this gap. */
const NUDGE_PX = 4;
const NUDGE_GAP_PX = 1;
/** A callsign's box: one line of the 12 px font, this far from its aircraft (CSS pixels). */
const LABEL_HEIGHT_PX = 14;
const LABEL_PAD_PX = 3;
/** Kid mode's silhouettes by name: where each is in a sprite's key (the plane is 0), and its path, made once. */
const SHAPE_KEYS = Object.fromEntries(SILHOUETTE_NAMES.map((name, index) => [name, index + 1]));
const SHAPE_PATHS = new Map();
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
  /**
   * @param {HTMLCanvasElement} canvas the moving picture (transparent, on top)
   * @param {HTMLCanvasElement} face the still picture beneath it
   * @param {HTMLElement} sweep the sweep, turned by an animation
   */
  constructor(canvas, face, sweep) {
    this.canvas = canvas;
    this.context = canvas.getContext("2d");
    this.face = face;
    this.sweepElement = sweep;
    this.theme = THEMES.night;
    this.rangeKm = 50;
    this.ratio = 1;
    this.width = 0;
    this.height = 0;
    this.faceValid = false;
    this.sizeValid = false;
    /** The boxes of the rings' labels (CSS pixels: left, top, width, height), set by drawFace. */
    this.ringLabels = [];
    this.sprites = new Map();
    this.kid = false;
    this.kidGround = false;
    this.declutter = new Declutter();
    /** The tracks drawn this frame, in the declutter's order (kept from frame to frame). */
    this.drawn = [];
    this.labelled = [];
    /** The width of a character of the labels' monospace font, in CSS pixels (measured once). */
    this.charWidth = 0;
    // Reading the canvas's size forces a layout, so it is read only after a resize.
    new ResizeObserver(() => { this.sizeValid = false; }).observe(canvas.parentElement);
    window.addEventListener("resize", () => { this.sizeValid = false; });
    this.spin = sweep.animate([{ transform: "rotate(0deg)" }, { transform: "rotate(360deg)" }],
      { duration: SWEEP_PERIOD_MS, iterations: Infinity });
  }

  setTheme(name) {
    const theme = THEMES[name] ?? THEMES.night;
    if (theme === this.theme) return;
    this.theme = theme;
    this.faceValid = false;
    this.sprites.clear();
  }

  /** Kid mode: no text on the scope, and aircraft on the ground only if `ground`. */
  setKid(kid, ground = false) {
    this.kidGround = ground;
    if (kid === this.kid) return;
    this.kid = kid;
    this.faceValid = false;
  }

  setRange(km) {
    if (km === this.rangeKm) return;
    this.rangeKm = km;
    this.faceValid = false;
  }

  /**
   * Follows the size of the radar's area and the screen's pixel ratio. The canvases are the
   * largest square that fits, centred: what lies beside the radar never needs painting, and
   * on a phone that is more than half the screen.
   */
  fit() {
    this.sizeValid = true;
    const area = this.canvas.parentElement;
    const side = Math.max(1, Math.min(area.clientWidth, area.clientHeight));
    const left = (area.clientWidth - side) / 2;
    const top = (area.clientHeight - side) / 2;
    // Two device pixels per CSS pixel are sharp enough for a phosphor screen, and a third
    // would cost more than half as much again to paint.
    const ratio = Math.min(window.devicePixelRatio || 1, 2);
    const pixels = Math.round(side * ratio);
    if (pixels === this.width && ratio === this.ratio && left === this.left && top === this.top) return;
    this.ratio = ratio;
    this.left = left;
    this.top = top;
    this.width = this.height = this.canvas.width = this.canvas.height = this.face.width = this.face.height = pixels;
    for (const element of [this.canvas, this.face]) {
      element.style.left = `${left}px`;
      element.style.top = `${top}px`;
      element.style.width = element.style.height = `${side}px`;
    }
    this.cx = this.cy = pixels / 2;
    // A margin for the compass letters outside the rim.
    this.radius = Math.max(10, pixels / 2 - 22 * ratio);
    this.faceValid = false;
    const sweep = this.sweepElement.style;
    sweep.left = `${left + (this.cx - this.radius) / ratio}px`;
    sweep.top = `${top + (this.cy - this.radius) / ratio}px`;
    sweep.width = sweep.height = `${(2 * this.radius) / ratio}px`;
    const rect = this.canvas.getBoundingClientRect();
    this.pageLeft = rect.left;
    this.pageTop = rect.top;
    this.canvas.dataset.centerX = (this.cx / ratio).toFixed(1);
    this.canvas.dataset.centerY = (this.cy / ratio).toFixed(1);
    this.canvas.dataset.radius = (this.radius / ratio).toFixed(1);
  }

  /** Draws the still parts on the face. */
  drawFace() {
    const c = this.face.getContext("2d", { alpha: false });
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
    // The rings' labels, as boxes in CSS pixels that callsigns keep off.
    this.ringLabels = [];
    for (const km of rings) {
      const r = (km / this.rangeKm) * radius;
      c.lineWidth = (km === this.rangeKm ? 2 : 1) * ratio;
      c.beginPath();
      c.arc(cx, cy, r, 0, 2 * Math.PI);
      c.stroke();
      if (this.kid) continue;
      const text = kmLabel(km);
      const x = cx + r * Math.cos(labelAngle) + 3 * ratio;
      const y = cy + r * Math.sin(labelAngle) - 2 * ratio;
      c.fillText(text, x, y);
      this.ringLabels.push([x / ratio, y / ratio - 12, c.measureText(text).width / ratio, 12]);
    }
    c.shadowBlur = 0;
    this.faceValid = true;
  }

  /**
   * A plane (or, without a track, a round blip; in kid mode the silhouette named `shape`,
   * silhouettes.js) with its glow, in the colour of a selected aircraft when `chosen`, `side`
   * device pixels square, turned by `step` × SPRITE_STEP_DEG. Sprites are made at the size and
   * angle they are drawn at, so drawing one is a plain copy: rotating and scaling images on
   * every frame costs far more on phones without a fast GPU path.
   */
  sprite(chosen, round, side, step, shape = null) {
    // A number, not a string: this runs for every aircraft on every frame.
    const look = shape === null ? 0 : SHAPE_KEYS[shape];
    const key = (((look * 4 + (chosen ? 2 : 0) + (round ? 1 : 0)) * SPRITE_STEPS + (round ? 0 : step)) * 4096) + side;
    const color = chosen ? this.theme.selected : this.theme.blip;
    let sprite = this.sprites.get(key);
    if (sprite) return sprite;
    if (this.sprites.size >= SPRITE_CACHE_LIMIT) this.sprites.clear();
    const canvas = typeof OffscreenCanvas === "function" ? new OffscreenCanvas(side, side) : document.createElement("canvas");
    canvas.width = canvas.height = side;
    const c = canvas.getContext("2d");
    c.translate(side / 2, side / 2);
    c.rotate((step * SPRITE_STEP_DEG * Math.PI) / 180);
    const s = side / 64; // the path is drawn in a 64-unit box, the plane in its middle 44
    c.scale(s, s);
    c.fillStyle = color;
    c.shadowColor = color;
    c.shadowBlur = this.theme.glow > 0 ? 7 * s : 0;
    c.beginPath();
    if (look !== 0) {
      let path = SHAPE_PATHS.get(shape);
      if (!path) SHAPE_PATHS.set(shape, path = new Path2D(SILHOUETTES[shape].path));
      c.fill(path);
    } else if (round) {
      c.arc(0, 0, 9, 0, 2 * Math.PI);
    } else {
      for (let i = 0; i < PLANE_OUTLINE.length; i += 2) c.lineTo(PLANE_OUTLINE[i], PLANE_OUTLINE[i + 1]);
      c.closePath();
    }
    if (look === 0) c.fill();
    sprite = typeof canvas.transferToImageBitmap === "function" ? canvas.transferToImageBitmap() : canvas;
    this.sprites.set(key, sprite);
    return sprite;
  }

  /**
   * Draws one frame. `options`: `labels`, `kid`, `selected` (an ICAO address or null).
   * Sets `screenX`, `screenY` (CSS pixels from the canvas's corner, where it is drawn after
   * nudging) and `screenSize` on every track it draws, `visible` on each, and `labelled` with,
   * when true, the callsign's box (`labelX`, `labelY`, `labelW`, `labelH`).
   */
  draw(now, sky, headingDeg, options) {
    if (!this.sizeValid) this.fit();
    if (!this.faceValid) this.drawFace();
    const c = this.context;
    const { cx, cy, ratio, theme } = this;
    c.setTransform(1, 0, 0, 1, 0, 0);
    c.globalAlpha = 1;
    c.clearRect(0, 0, this.width, this.height);

    const heading = (headingDeg * Math.PI) / 180;
    const cos = Math.cos(heading);
    const sin = Math.sin(heading);
    const pxPerKm = this.radius / this.rangeKm;
    const time = this.spin.currentTime ?? now;
    const sweep = ((time % SWEEP_PERIOD_MS) / SWEEP_PERIOD_MS) * 2 * Math.PI;

    this.drawTrails(c, sky, cos, sin, pxPerKm);
    this.drawRose(c, heading);
    this.drawAircraft(c, now, sky, cos, sin, pxPerKm, sweep, options);

    // The observer at the centre.
    c.setTransform(1, 0, 0, 1, 0, 0);
    c.globalAlpha = 1;
    c.fillStyle = theme.text;
    c.fillRect(cx - 2 * ratio, cy - 2 * ratio, 4 * ratio, 4 * ratio);
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

  /**
   * The sky's trail paths and the selected aircraft's stored track, placed with one
   * transform for the heading and the zoom.
   */
  drawTrails(c, sky, cos, sin, pxPerKm) {
    const { cx, cy } = this;
    c.setTransform(pxPerKm * cos, -pxPerKm * sin, -pxPerKm * sin, -pxPerKm * cos, cx, cy);
    c.lineWidth = (2 * this.ratio) / pxPerKm;
    c.lineCap = "round";
    c.globalAlpha = 0.75;
    sky.trailPaths.forEach((path, bucket) => {
      if (!path) return;
      c.strokeStyle = bucketColor(this.theme, bucket);
      c.stroke(path);
    });
    // The selected aircraft's stored pass, wider and solid beneath everything else.
    c.globalAlpha = 1;
    c.lineWidth = (3 * this.ratio) / pxPerKm;
    sky.trackPaths.forEach((path, bucket) => {
      if (!path) return;
      c.strokeStyle = bucketColor(this.theme, bucket);
      c.stroke(path);
    });
    c.globalAlpha = 1;
    c.setTransform(1, 0, 0, 1, 0, 0);
  }

  drawAircraft(c, now, sky, cos, sin, pxPerKm, sweep, options) {
    const { cx, cy, radius, ratio, theme } = this;
    const headingDeg = (Math.atan2(sin, cos) * 180) / Math.PI;
    const hideGround = options.kid && !this.kidGround;
    const drawn = this.drawn;
    const labelled = this.labelled;
    const declutter = this.declutter;
    drawn.length = 0;
    labelled.length = 0;
    declutter.reset();
    // First where each goes and how it looks; then, nudged apart, they are drawn.
    for (const track of sky.tracks.values()) {
      track.visible = false;
      track.labelled = false;
      if (!track.placed) continue;
      const data = track.data;
      if (hideGround && !kidShows(data, false)) continue;
      track.locate(now);
      const e = track.drawE;
      const n = track.drawN;
      const xKm = rightKm(e, n, cos, sin);
      const yKm = upKm(e, n, cos, sin);
      const x = cx + xKm * pxPerKm;
      const y = cy - yKm * pxPerKm;
      const fromCentre = Math.hypot(x - cx, y - cy);
      if (fromCentre > radius + 4 * ratio) continue;
      const ground = data.on_ground === true;
      // Kid mode: each class its own silhouette, sized by it (a wide-body bigger than a small jet).
      const shape = options.kid ? silhouetteOf(data) : null;
      const look = shape === null ? null : SILHOUETTES[shape];
      const side = spriteSide(look ? (iconScale(data) ?? 1) * look.size : iconScale(data), ratio, options.kid);
      // Brighter just after the sweep passed over it, like a real scope's afterglow.
      const angle = Math.atan2(xKm, yKm);
      const behind = radiansBehind(sweep, angle);
      track.alpha = (data.stale ? 0.35 : 1) * (ground ? GROUND_ALPHA : 1) * (0.6 + 0.4 * Math.exp(-behind / 1.2));
      // A silhouette without a track stands nose up rather than becoming a blip.
      const round = !look && data.track_deg == null;
      const turn = data.track_deg == null || look?.upright ? 0 : data.track_deg - headingDeg;
      track.sprite = this.sprite(options.selected === track.icao, round, side, turnStep(turn, SPRITE_STEP_DEG), shape);
      track.silhouette = shape;
      track.side = side;
      track.screenSize = planeLength(side) / ratio;
      track.marker = declutter.addMarker(x / ratio, y / ratio, track.screenSize);
      drawn.push(track);
      if (options.labels && !options.kid && data.callsign) labelled.push(track);
    }
    declutter.spread(NUDGE_PX, NUDGE_GAP_PX);
    for (const track of drawn) {
      track.screenX = declutter.x[track.marker];
      track.screenY = declutter.y[track.marker];
      track.visible = true;
      c.globalAlpha = track.alpha;
      const half = track.side / 2;
      c.drawImage(track.sprite, Math.round(track.screenX * ratio - half), Math.round(track.screenY * ratio - half));
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
   * Callsigns beside their aircraft: those flying first, nearest first, then those on the
   * ground. Each goes right of its aircraft, or left, above or below, wherever it covers no
   * aircraft and no callsign written before it; where none is free it is left out, so a
   * crowded airport stays readable.
   */
  drawLabels(c, labelled) {
    const { ratio, theme } = this;
    labelled.sort(flyingFirst);
    c.font = `${12 * ratio}px ui-monospace, "DejaVu Sans Mono", monospace`;
    c.textBaseline = "middle";
    c.fillStyle = theme.text;
    if (this.charWidthRatio !== ratio) {
      // A monospace font: one measure gives every callsign's width.
      this.charWidth = c.measureText("MMMMMMMMMM").width / 10 / ratio;
      this.charWidthRatio = ratio;
    }
    const declutter = this.declutter;
    declutter.startLabels();
    for (const box of this.ringLabels) declutter.addObstacle(box[0], box[1], box[2], box[3]);
    for (const track of labelled) {
      const data = track.data;
      const width = data.callsign.length * this.charWidth;
      if (declutter.placeLabel(track.marker, width, LABEL_HEIGHT_PX, LABEL_PAD_PX) === -1) continue;
      track.labelled = true;
      track.labelX = declutter.labelX;
      track.labelY = declutter.labelY;
      track.labelW = width;
      track.labelH = LABEL_HEIGHT_PX;
      c.globalAlpha = (data.stale ? 0.4 : 0.9) * (data.on_ground === true ? GROUND_ALPHA + 0.1 : 1);
      c.fillText(data.callsign, track.labelX * ratio, (track.labelY + LABEL_HEIGHT_PX / 2) * ratio);
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
