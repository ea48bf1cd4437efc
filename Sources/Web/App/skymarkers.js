// The sky view's aircraft: a button for each aircraft in the picture, centred on where the
// camera sees it, sized by the scope's rule (low = large, small and dim on the ground), with
// its callsign, type, distance and altitude beside it where there is room (declutter.js), and
// an arrow at the screen's edge towards the nearest few outside the picture.
//
// Buttons are kept in a pool by ICAO address and reused from frame to frame; a frame writes
// only the positions that moved, and the texts change only with a new feed frame.

import { angleDifference } from "./angles.js";
import { Declutter } from "./declutter.js";
import { kidShows } from "./kid.js";
import { flyingFirst } from "./list.js";
import { direction, edgeArrow, onScreen, project, turnWay } from "./pinhole.js";
import { PLANE_OUTLINE, iconScale, planeLength, spriteSide } from "./projection.js";
import { SILHOUETTES, silhouetteOf } from "./silhouettes.js";
import { describeAltitude, formatBearing, formatDistance, formatElevation, typeCode } from "./words.js";

/** Aircraft this far below the horizon still show: the eye stands above the ground. */
export const HORIZON_DEG = -1;
/** Kid mode says "look up!" for an aircraft higher than this. */
export const OVERHEAD_DEG = 70;
/**
 * Kid mode's planes are larger still than the scope's (whose kid size is for a crowd on a
 * small disc): the picture has room, and a plane to find should look like one.
 */
const KID_GROWTH = 1.6;
const KID_MIN_PX = 40;
/** Arrows at the edge, for the nearest aircraft outside the picture. */
export const ARROWS = 5;
const NUDGE_PX = 4;
const NUDGE_GAP_PX = 1;
/** A label: two lines of the 12 px font, this far from its marker. */
const LINE_PX = 14;
const LABEL_PAD_PX = 3;
/** A button reaches this far beyond its icon, so small ones can be tapped. */
const TAP_SLACK_PX = 12;
const EDGE_MARGIN_PX = 30;
/** An arrow and its distance fit in a square this wide around its place; labels keep off it. */
const ARROW_BOX_PX = 72;
/** Arrows closer than this are slid apart along the edge. */
const ARROW_SPACING_PX = 40;
const SVG = "http://www.w3.org/2000/svg";
const PLANE_PATH = `M${PLANE_OUTLINE.slice(0, 2).join(",")}L${PLANE_OUTLINE.slice(2).join(",")}Z`;

/** One aircraft's button, its icon and its label. */
class Marker {
  constructor(icao, layer) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "sky-marker";
    button.dataset.icao = icao;
    const icon = document.createElementNS(SVG, "svg");
    icon.setAttribute("viewBox", "-32 -32 64 64");
    icon.setAttribute("aria-hidden", "true");
    icon.classList.add("sky-icon");
    const ring = document.createElementNS(SVG, "circle");
    ring.setAttribute("r", "29");
    const plane = document.createElementNS(SVG, "path");
    plane.setAttribute("d", PLANE_PATH);
    icon.append(ring, plane);
    this.plane = plane;
    this.shape = null;
    this.upright = false;
    const label = document.createElement("span");
    label.className = "sky-label";
    label.setAttribute("aria-hidden", "true");
    label.hidden = true;
    this.first = document.createElement("span");
    this.second = document.createElement("span");
    label.append(this.first, document.createElement("br"), this.second);
    button.append(icon, label);
    layer.append(button);
    Object.assign(this, { icao, button, icon, label, data: null, seen: -1, x: NaN, y: NaN, side: 0, turn: NaN });
    this.labelX = NaN;
    this.labelY = NaN;
    this.labelShown = false;
    this.chars = 0;
    this.selected = false;
  }

  /** New feed data: the texts and the look, rewritten only when a frame brought new data. */
  describe(data) {
    this.data = data;
    const name = data.callsign || this.icao.toUpperCase();
    const type = typeCode(data.identity);
    const first = type ? `${name} ${type}` : name;
    const second = [formatDistance(data.slant_km ?? data.ground_km), describeAltitude(data)].filter(Boolean).join(" · ");
    if (this.first.textContent !== first) this.first.textContent = first;
    if (this.second.textContent !== second) this.second.textContent = second;
    this.chars = Math.max(first.length, second.length);
    const where = `bearing ${formatBearing(data.azimuth_deg)}, ${formatElevation(data.elevation_deg)}`;
    const aria = [first, formatDistance(data.ground_km), describeAltitude(data), where].filter(Boolean).join(", ");
    if (this.button.getAttribute("aria-label") !== aria) this.button.setAttribute("aria-label", aria);
    this.button.classList.toggle("ground", data.on_ground === true);
    this.button.classList.toggle("stale", data.stale === true);
  }

  /**
   * Draws kid mode's silhouette named `shape` (silhouettes.js), or with null the plane; the
   * path is rewritten, and the button's `data-silhouette` with it, only when the shape changes.
   */
  shapeAs(shape) {
    if (shape === this.shape) return;
    this.shape = shape;
    this.upright = shape !== null && SILHOUETTES[shape].upright;
    this.plane.setAttribute("d", shape === null ? PLANE_PATH : SILHOUETTES[shape].path);
    if (shape === null) delete this.button.dataset.silhouette;
    else this.button.dataset.silhouette = shape;
  }

  /** Moves and sizes the button so its centre is at (x, y), `side` pixels across its icon. */
  place(x, y, side) {
    if (side !== this.side) {
      this.side = side;
      const box = `${(side + 2 * TAP_SLACK_PX).toFixed(1)}px`;
      this.button.style.width = this.button.style.height = box;
      this.icon.style.width = this.icon.style.height = `${side.toFixed(1)}px`;
      this.x = NaN;
    }
    if (Math.abs(x - this.x) < 0.2 && Math.abs(y - this.y) < 0.2) return;
    this.x = x;
    this.y = y;
    const half = side / 2 + TAP_SLACK_PX;
    this.button.style.transform = `translate(${(x - half).toFixed(1)}px, ${(y - half).toFixed(1)}px)`;
  }

  /** Turns the icon to the aircraft's track, relative to where the camera looks, in 5° steps. */
  turnTo(degrees) {
    const step = Math.round(degrees / 5) * 5;
    if (step === this.turn) return;
    this.turn = step;
    this.icon.style.transform = `rotate(${step}deg)`;
  }

  /** Puts the label with its top left corner at (left, top) on the screen, or hides it (null). */
  placeLabel(left, top) {
    const shown = left !== null;
    if (shown !== this.labelShown) {
      this.labelShown = shown;
      this.label.hidden = !shown;
    }
    if (!shown) return;
    const half = this.side / 2 + TAP_SLACK_PX;
    const x = left - this.x + half;
    const y = top - this.y + half;
    if (Math.abs(x - this.labelX) < 0.2 && Math.abs(y - this.labelY) < 0.2) return;
    this.labelX = x;
    this.labelY = y;
    this.label.style.transform = `translate(${x.toFixed(1)}px, ${y.toFixed(1)}px)`;
  }
}

/** An arrow at the screen's edge and the distance beside it. */
class Arrow {
  constructor(layer) {
    this.element = document.createElement("div");
    this.element.className = "sky-arrow";
    this.element.setAttribute("role", "img");
    this.head = document.createElement("span");
    this.head.className = "sky-arrow-head";
    this.text = document.createElement("span");
    this.text.className = "sky-arrow-text";
    this.element.append(this.head, this.text);
    this.element.hidden = true;
    layer.append(this.element);
    this.icao = null;
    this.key = "";
  }

  show(track, x, y, angleDeg, turnDeg) {
    const data = track.data;
    const distance = formatDistance(data.slant_km ?? data.ground_km) ?? "";
    const key = `${Math.round(x)},${Math.round(y)},${Math.round(angleDeg)},${distance}`;
    this.element.hidden = false;
    if (track.icao !== this.icao) {
      this.icao = track.icao;
      this.element.dataset.icao = track.icao;
    }
    if (key === this.key) return;
    this.key = key;
    this.element.dataset.angleDeg = angleDeg.toFixed(1);
    this.element.style.transform = `translate(${x.toFixed(1)}px, ${y.toFixed(1)}px)`;
    this.head.style.transform = `rotate(${angleDeg.toFixed(1)}deg)`;
    const inward = (angleDeg * Math.PI) / 180;
    this.text.style.transform = `translate(${(-28 * Math.sin(inward)).toFixed(1)}px, ${(28 * Math.cos(inward)).toFixed(1)}px)`;
    if (this.text.textContent !== distance) this.text.textContent = distance;
    const side = turnDeg < 0 ? "left" : "right";
    this.element.setAttribute("aria-label", `${data.callsign || track.icao.toUpperCase()}, ${distance}, turn ${side}`);
  }

  hide() {
    if (!this.element.hidden) this.element.hidden = true;
    this.icao = null;
  }
}

export class SkyMarkers {
  constructor(layer, arrowLayer) {
    this.layer = layer;
    /** @type {Map<string, Marker>} */
    this.pool = new Map();
    this.arrows = Array.from({ length: ARROWS }, () => new Arrow(arrowLayer));
    this.declutter = new Declutter();
    this.shown = [];
    this.frame = 0;
    this.charWidth = 0;
    this.d = [0, 0, 0];
    this.point = { x: 0, y: 0, right: 0, up: 0, ahead: 0 };
    this.way = { right: 0, up: 0 };
    this.edge = { x: 0, y: 0, angleDeg: 0 };
    this.arrowX = new Float64Array(ARROWS);
    this.arrowY = new Float64Array(ARROWS);
    this.nearest = [];
    this.nearestKm = [];
    this.seq = null;
  }

  /**
   * Places every aircraft of `sky` for the camera (`basis`, `f`, `width` × `height`, from
   * pinhole.js). `options`: `kid`, `kidGround`, `selected`, `ratio` (device pixels per CSS
   * pixel), `azimuthDeg`, `elevationDeg` (where the camera looks), `settled` (false just
   * after opening: nothing counts as entering), `obstacles` (boxes no label may cover:
   * `[left, top, width, height]`), `arrowHeight` (arrows stay above this: the controls are
   * below). Returns how many aircraft kid mode shows came
   * into the picture, and sets `overhead` when one of them is high above.
   */
  place(sky, basis, f, width, height, options) {
    this.frame += 1;
    this.overhead = false;
    if (sky.seq !== this.seq) this.prune(sky);
    const { shown, declutter } = this;
    shown.length = 0;
    this.nearest.length = 0;
    this.nearestKm.length = 0;
    declutter.reset();
    let entered = 0;
    for (const track of sky.tracks.values()) {
      const data = track.data;
      if (data.azimuth_deg == null || data.elevation_deg == null || data.elevation_deg < HORIZON_DEG) continue;
      if (options.kid && !kidShows(data, options.kidGround)) continue;
      if (options.kid && data.elevation_deg > OVERHEAD_DEG) this.overhead = true;
      // Every aircraft above the horizon has its button, hidden while outside the picture, so
      // turning the phone makes and drops none: the page's nodes follow the feed alone.
      let marker = this.pool.get(track.icao);
      if (!marker) {
        marker = new Marker(track.icao, this.layer);
        marker.button.hidden = true;
        this.pool.set(track.icao, marker);
      }
      const p = this.point;
      project(basis, direction(data.azimuth_deg, data.elevation_deg, this.d), f, width, height, p);
      if (!onScreen(p, width, height)) {
        this.consider(track, track.icao === options.selected ? -1 : data.slant_km ?? data.ground_km ?? Infinity);
        continue;
      }
      if (marker.seen !== this.frame - 1 && options.settled) entered += 1;
      marker.seen = this.frame;
      if (marker.data !== data) marker.describe(data);
      marker.size = planeLength(spriteSide(iconScale(data), options.ratio, options.kid)) / options.ratio;
      const shape = options.kid ? silhouetteOf(data) : null;
      marker.shapeAs(shape);
      // Kid mode: each class its own silhouette, sized by it (a wide-body bigger than a small jet).
      if (shape !== null) marker.size = Math.max(KID_MIN_PX, marker.size * KID_GROWTH) * SILHOUETTES[shape].size;
      marker.index = declutter.addMarker(p.x, p.y, marker.size);
      marker.track = track;
      shown.push(marker);
    }
    declutter.spread(NUDGE_PX, NUDGE_GAP_PX);
    this.drawArrows(basis, f, width, height, options);
    this.draw(options);
    return entered;
  }

  /** Keeps the ARROWS nearest aircraft outside the picture, nearest first. */
  consider(track, km) {
    const { nearest, nearestKm } = this;
    if (nearest.length === ARROWS && km >= nearestKm[ARROWS - 1]) return;
    let i = Math.min(nearest.length, ARROWS - 1);
    if (nearest.length < ARROWS) {
      nearest.push(track);
      nearestKm.push(km);
      i = nearest.length - 1;
    }
    while (i > 0 && nearestKm[i - 1] > km) {
      nearest[i] = nearest[i - 1];
      nearestKm[i] = nearestKm[i - 1];
      i -= 1;
    }
    nearest[i] = track;
    nearestKm[i] = km;
  }

  /** Writes the markers' places, then the labels where there is room, those flying and near first. */
  draw(options) {
    const { shown, declutter } = this;
    for (const marker of shown) {
      marker.place(declutter.x[marker.index], declutter.y[marker.index], marker.size);
      if (marker.button.hidden) marker.button.hidden = false;
      const data = marker.data;
      marker.turnTo(data.track_deg == null || marker.upright ? 0 : angleDifference(options.azimuthDeg, data.track_deg));
      const selected = marker.icao === options.selected;
      if (selected !== marker.selected) {
        marker.selected = selected;
        marker.button.classList.toggle("selected", selected);
      }
    }
    for (const marker of this.pool.values()) {
      if (marker.seen !== this.frame && !marker.button.hidden) marker.button.hidden = true;
    }
    if (options.kid) return;
    if (this.charWidth === 0) this.charWidth = measureCharWidth();
    shown.sort(byTrack);
    declutter.startLabels();
    for (const box of options.obstacles) declutter.addObstacle(box[0], box[1], box[2], box[3]);
    for (let i = 0; i < ARROWS && this.nearest[i]; i += 1) {
      declutter.addObstacle(this.arrowX[i] - ARROW_BOX_PX / 2, this.arrowY[i] - ARROW_BOX_PX / 2, ARROW_BOX_PX, ARROW_BOX_PX);
    }
    for (const marker of shown) {
      const placed = declutter.placeLabel(marker.index, marker.chars * this.charWidth, 2 * LINE_PX, LABEL_PAD_PX);
      if (placed === -1) marker.placeLabel(null, null);
      else marker.placeLabel(declutter.labelX, declutter.labelY);
    }
  }

  drawArrows(basis, f, width, height, options) {
    const edge = this.edge;
    for (let i = 0; i < ARROWS; i += 1) {
      const track = this.nearest[i];
      if (!track) {
        this.arrows[i].hide();
        continue;
      }
      const data = track.data;
      const p = this.point;
      project(basis, direction(data.azimuth_deg, data.elevation_deg, this.d), f, width, height, p);
      const turn = angleDifference(options.azimuthDeg, data.azimuth_deg);
      turnWay(p, turn, data.elevation_deg - options.elevationDeg, this.way);
      edgeArrow(this.way.right, this.way.up, width, options.arrowHeight, EDGE_MARGIN_PX, edge);
      this.apart(i, width, options.arrowHeight);
      this.arrowX[i] = edge.x;
      this.arrowY[i] = edge.y;
      this.arrows[i].show(track, edge.x, edge.y, edge.angleDeg, turn);
    }
  }

  /**
   * Slides arrow `i` along its edge until it is clear of the arrows before it: aircraft in
   * much the same direction (several behind) would otherwise share one place. Its direction
   * stays as it is.
   */
  apart(i, width, height) {
    const edge = this.edge;
    const side = Math.abs(edge.x - EDGE_MARGIN_PX) < 0.5 || Math.abs(edge.x - (width - EDGE_MARGIN_PX)) < 0.5;
    // Along the top and bottom the distances stand side by side: further apart.
    const spacing = side ? ARROW_SPACING_PX : ARROW_SPACING_PX * 1.5;
    for (let tries = 0; tries < ARROWS; tries += 1) {
      let clear = true;
      for (let j = 0; j < i; j += 1) {
        if (Math.hypot(this.arrowX[j] - edge.x, this.arrowY[j] - edge.y) < spacing) clear = false;
      }
      if (clear) return;
      if (side) {
        edge.y += edge.y + spacing <= height - EDGE_MARGIN_PX ? spacing : -spacing * (tries + 1);
      } else {
        edge.x += edge.x + spacing <= width - EDGE_MARGIN_PX ? spacing : -spacing * (tries + 1);
      }
    }
  }

  /** After a feed frame: the buttons of aircraft gone are removed. */
  prune(sky) {
    this.seq = sky.seq;
    for (const [icao, marker] of this.pool) {
      if (!sky.tracks.has(icao)) {
        marker.button.remove();
        this.pool.delete(icao);
      }
    }
  }

  /** Every marker and arrow hidden (the view closed). */
  hideAll() {
    for (const marker of this.pool.values()) marker.button.hidden = true;
    for (const arrow of this.arrows) arrow.hide();
  }
}

function byTrack(a, b) {
  return flyingFirst(a.track, b.track);
}

/** The width of a character of the labels' monospace font (CSS pixels), measured once. */
function measureCharWidth() {
  const context = document.createElement("canvas").getContext("2d");
  context.font = '12px ui-monospace, "DejaVu Sans Mono", monospace';
  return context.measureText("MMMMMMMMMM").width / 10;
}
