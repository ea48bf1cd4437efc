// The sky view: the rear camera's picture (or a drawn sky when there is none) with every
// aircraft above the horizon where the camera sees it, through a pinhole camera at the phone's
// full orientation (orientation.js, pinhole.js). Aircraft are buttons that open the same card
// as on the scope (skymarkers.js); those outside the picture get arrows at the edge. The sun
// and the moon are drawn where they are, and a tap on where one of them (or a plane) really
// is corrects the compass until the tab is closed. Without a compass the view turns by dragging.

import { angleDifference, normalizeDegrees } from "./angles.js";
import { moonPosition, sunPosition } from "./almanac.js";
import { screenAngle } from "./compass.js";
import { Orientation, compassAccuracyPoor, lookingAt, toMatrix } from "./orientation.js";
import { cameraBasis, centreAzimuth, direction, focalLength, onScreen, project, separation, unproject } from "./pinhole.js";
import { SkyGrid } from "./skygrid.js";
import { SkyMarkers } from "./skymarkers.js";
import { SkySensors } from "./skysensors.js";

/** The sun and the moon are worked out again this often. */
const BODIES_INTERVAL_MS = 10000;
/** A calibrating tap takes the known object nearest it, within this angle. */
const CALIBRATE_REACH_DEG = 45;
/** Where the correction is kept while the tab is open (sessionStorage). */
const OFFSET_KEY = "aviator-adsb.sky-offset";
/** Frames after opening before an aircraft coming into the picture rings the chime. */
const SETTLE_FRAMES = 45;
/** Arrows keep this far above the controls at the bottom. */
const ARROW_CLEARANCE_PX = 8;
/** Labels keep off strips this wide outside the screen's edges. */
const EDGE_STRIP_PX = 64;
/** A press that moves less than this (CSS pixels) is a tap. */
const TAP_PX = 8;

export class SkyView {
  /**
   * @param {object} e the elements: `root`, `video`, `grid`, `markers`, `arrows`, `sun`,
   *   `moon`, `lookUp`, `status`, `heading`, `hint`, `accuracy`, `calibrate`, `compass`.
   * @param {object} hooks `choose(icao)` (a marker was tapped), `observer()` (`{lat, lon}` or
   *   null), `chime()`, `enableCompass()` (a promise of whether it was allowed).
   */
  constructor(e, hooks) {
    this.e = e;
    this.hooks = hooks;
    this.orientation = new Orientation();
    this.sensors = new SkySensors(this.orientation);
    this.grid = new SkyGrid(e.grid);
    this.markers = new SkyMarkers(e.markers, e.arrows);
    this.isOpen = false;
    this.camera = false;
    this.basis = new Array(9);
    this.matrix = new Array(9);
    this.width = 0;
    this.height = 0;
    this.sizeValid = false;
    this.obstacles = [];
    this.frames = 0;
    this.lastAt = 0;
    this.look = { azimuthDeg: 0, elevationDeg: 20 };
    this.offsetDeg = Number(stored(() => sessionStorage.getItem(OFFSET_KEY))) || 0;
    this.declinationDeg = null;
    this.bodies = { at: -Infinity, where: null, sun: null, moon: null };
    this.calibrating = false;
    this.shown = { heading: "", status: "", accuracy: null, seq: null };
    this.d = [0, 0, 0];
    this.point = { x: 0, y: 0, right: 0, up: 0, ahead: 0 };
    new ResizeObserver(() => { this.sizeValid = false; }).observe(e.root);
    this.bindPointer();
    e.calibrate.addEventListener("click", (event) => {
      event.stopPropagation();
      this.setCalibrating(!this.calibrating);
    });
    e.markers.addEventListener("click", (event) => {
      const marker = event.target.closest(".sky-marker");
      if (marker) hooks.choose(marker.dataset.icao);
    });
    e.compass.addEventListener("click", async () => {
      if (await hooks.enableCompass()) this.sensors.listen();
    });
  }

  /** Opens the view looking at `headingDeg` (until the compass says where it points). */
  async open(headingDeg) {
    if (this.isOpen) return;
    this.isOpen = true;
    this.frames = 0;
    this.look.azimuthDeg = normalizeDegrees(headingDeg);
    this.e.root.hidden = false;
    this.sizeValid = false;
    this.sensors.listen();
    this.orientation.correct(this.declinationDeg, this.offsetDeg);
    const problem = await this.sensors.startCamera(this.e.video);
    if (!this.isOpen) {
      this.sensors.stopCamera(this.e.video);
      return;
    }
    this.camera = problem === null;
    this.cameraProblem = problem;
    this.e.root.dataset.camera = this.camera ? "on" : problem;
    this.e.video.hidden = !this.camera;
  }

  close() {
    if (!this.isOpen) return;
    this.isOpen = false;
    this.e.root.hidden = true;
    this.sensors.stopCamera(this.e.video);
    this.sensors.stopListening();
    this.camera = false;
    this.setCalibrating(false);
    this.markers.hideAll();
  }

  /** The feed's declination at the observer: compass headings are made true with it. */
  setDeclination(degrees) {
    this.declinationDeg = Number.isFinite(degrees) ? degrees : null;
    this.orientation.correct(this.declinationDeg, this.offsetDeg);
  }

  /**
   * Draws a frame. `options`: `kid`, `kidGround`, `selected`, `theme`, `fovDeg`. Returns the
   * heading the camera looks at (true), for the card's arrow.
   */
  draw(now, sky, options) {
    if (!this.sizeValid) this.fit();
    this.sky = sky;
    const elapsed = now - this.lastAt;
    this.lastAt = now;
    this.frames += 1;
    if (!this.sensors.active) {
      this.orientation.set(lookingAt(this.look.azimuthDeg, this.look.elevationDeg, screenAngle()));
    }
    const q = this.orientation.tick(elapsed);
    const basis = cameraBasis(toMatrix(q, this.matrix), screenAngle(), this.basis);
    const video = this.e.video;
    this.f = focalLength(this.width, this.height, options.fovDeg, this.camera ? video.videoWidth : 0,
      this.camera ? video.videoHeight : 0);
    const { width, height, f } = this;
    this.grid.draw(basis, f, options.theme, this.camera, options.kid);
    const azimuth = centreAzimuth(basis);
    const elevation = (Math.asin(Math.max(-1, Math.min(1, basis[8]))) * 180) / Math.PI;
    const entered = this.markers.place(sky, basis, f, width, height, {
      kid: options.kid, kidGround: options.kidGround, selected: options.selected, ratio: Math.min(window.devicePixelRatio || 1, 2),
      azimuthDeg: azimuth, elevationDeg: elevation, settled: this.frames > SETTLE_FRAMES, obstacles: this.obstacles,
      arrowHeight: this.arrowHeight,
    });
    if (options.kid && entered > 0) this.hooks.chime();
    const overhead = options.kid && this.markers.overhead;
    if (this.e.lookUp.hidden === overhead) this.e.lookUp.hidden = !overhead;
    this.placeBodies(now, basis, f);
    this.showText(sky, azimuth, elevation);
    return azimuth;
  }

  /** Follows the view's size, and where its controls are: labels keep off them. */
  fit() {
    this.sizeValid = true;
    const root = this.e.root;
    this.width = Math.max(1, root.clientWidth);
    this.height = Math.max(1, root.clientHeight);
    this.grid.resize(this.width, this.height, Math.min(window.devicePixelRatio || 1, 2));
    const corner = root.getBoundingClientRect();
    this.obstacles = [...root.querySelectorAll("#sky-tools button, #sky-top p")]
      .filter((element) => element.getClientRects().length > 0)
      .map((element) => {
        const r = element.getBoundingClientRect();
        return [r.left - corner.left, r.top - corner.top, r.width, r.height];
      });
    // Arrows at the bottom edge stay above the controls.
    const tops = this.obstacles.filter((box) => box[1] > this.height / 2).map((box) => box[1]);
    this.arrowHeight = Math.max(this.height / 2, Math.min(this.height, ...tops) - ARROW_CLEARANCE_PX);
    // Just beyond the screen's edges, where a label could not be read: a label touches its
    // marker, which is on the screen, so a strip as wide as the largest marker is enough.
    const { width, height } = this;
    this.obstacles.push([-EDGE_STRIP_PX, 0, EDGE_STRIP_PX, height], [width, 0, EDGE_STRIP_PX, height],
      [0, -EDGE_STRIP_PX, width, EDGE_STRIP_PX], [0, height, width, EDGE_STRIP_PX]);
  }

  /** The controls changed (kid mode shows fewer): measure again on the next frame. */
  relayout() {
    this.sizeValid = false;
  }

  /** The sun and the moon, when the almanac knows them and they are in the picture. */
  placeBodies(now, basis, f) {
    const where = this.hooks.observer();
    if (now - this.bodies.at > BODIES_INTERVAL_MS || where !== this.bodies.where) this.updateBodies(now, where);
    for (const [name, element] of [["sun", this.e.sun], ["moon", this.e.moon]]) {
      const body = this.bodies[name];
      const p = this.point;
      const visible = body !== null && body.elevationDeg > -1
        && project(basis, direction(body.azimuthDeg, body.elevationDeg, this.d), f, this.width, this.height, p)
        && onScreen(p, this.width, this.height, 20);
      if (element.hidden === visible) element.hidden = !visible;
      if (visible) element.style.transform = `translate(${p.x.toFixed(1)}px, ${p.y.toFixed(1)}px)`;
    }
  }

  /** Asks the almanac where the sun and the moon are, seen from `where` (`{lat, lon}`). */
  updateBodies(now, where) {
    this.bodies.at = now;
    this.bodies.where = where;
    this.bodies.sun = where ? almanac(sunPosition, where) : null;
    this.bodies.moon = where ? almanac(moonPosition, where) : null;
    const sun = this.bodies.sun;
    const moon = this.bodies.moon;
    if (sun) this.e.sun.setAttribute("aria-label", `The sun, ${Math.round(sun.azimuthDeg)}°, ${Math.round(sun.elevationDeg)}° up`);
    if (moon) {
      const lit = Number.isFinite(moon.phase) ? Math.max(0, Math.min(1, moon.phase)) : 1;
      this.e.moon.setAttribute("aria-label", `The moon, ${Math.round(lit * 100)}% lit${moon.waxing ? ", waxing" : ""}`);
      // The dark part of the disc: a shadow from the side away from the sun.
      const shadow = (1 - lit) * 28 * (moon.waxing ? 1 : -1);
      this.e.moon.style.boxShadow = `inset ${shadow.toFixed(1)}px 0 0 0 rgba(0, 0, 0, 0.82)`;
    }
  }

  /** The heading line, the count, the compass's accuracy and the frame shown (for tests). */
  showText(sky, azimuth, elevation) {
    const where = elevation > 88 ? "straight up" : `${Math.round(azimuth) % 360}° true · ${Math.round(elevation)}° up`;
    const heading = `${where}${this.sensors.active ? "" : " (drag to look round)"}`;
    if (heading !== this.shown.heading) {
      this.shown.heading = heading;
      this.e.heading.textContent = heading;
      this.e.compass.hidden = this.sensors.active || !this.needsCompassTap();
    }
    const count = this.markers.shown.length;
    const camera = this.camera ? "" : this.cameraProblem === "refused" ? " · camera refused" : " · no camera";
    const status = `${count} in the picture${camera}`;
    if (status !== this.shown.status) {
      this.shown.status = status;
      this.e.status.textContent = status;
    }
    const accuracy = this.orientation.accuracyDeg;
    const poor = this.sensors.active && compassAccuracyPoor(accuracy) ? Math.round(accuracy) : null;
    if (poor !== this.shown.accuracy) {
      this.shown.accuracy = poor;
      this.e.accuracy.hidden = poor === null;
      this.e.accuracyText.textContent = poor === null ? "" : poor < 0
        ? "The compass needs calibrating: move the phone in a figure eight"
        : `The compass may be ${poor}° off: move the phone in a figure eight`;
    }
    if (sky.seq !== this.shown.seq) {
      this.shown.seq = sky.seq;
      this.e.root.dataset.seq = String(sky.seq);
    }
  }

  needsCompassTap() {
    return typeof DeviceOrientationEvent !== "undefined" && typeof DeviceOrientationEvent.requestPermission === "function";
  }

  setCalibrating(on) {
    this.calibrating = on;
    this.e.calibrate.setAttribute("aria-pressed", String(on));
    this.e.root.classList.toggle("calibrating", on);
    this.hint(on ? "Tap where you see the sun, the moon or a plane in the picture" : null);
  }

  hint(text) {
    this.e.hint.hidden = text === null;
    if (text !== null) this.e.hint.textContent = text;
  }

  /**
   * A calibrating tap at (x, y): the known object (the sun, the moon, an aircraft) whose
   * direction is nearest the tap's is really there, so the heading is off by the difference
   * in azimuth, which the correction takes up until the tab is closed.
   */
  calibrateAt(sky, x, y) {
    const seen = unproject(this.basis, this.f, this.width, this.height, x, y);
    const tapped = direction(seen.azimuthDeg, seen.elevationDeg, [0, 0, 0]);
    let best = null;
    let bestAngle = CALIBRATE_REACH_DEG;
    const consider = (name, azimuthDeg, elevationDeg) => {
      const angle = separation(tapped, direction(azimuthDeg, elevationDeg, this.d));
      if (angle < bestAngle) {
        bestAngle = angle;
        best = { name, azimuthDeg };
      }
    };
    for (const name of ["sun", "moon"]) {
      const body = this.bodies[name];
      if (body) consider(`the ${name}`, body.azimuthDeg, body.elevationDeg);
    }
    for (const track of sky.tracks.values()) {
      const data = track.data;
      if (data.azimuth_deg != null && data.elevation_deg != null) consider(data.callsign || track.icao, data.azimuth_deg, data.elevation_deg);
    }
    this.setCalibrating(false);
    if (!best) {
      this.hint("Nothing known near there: try again");
      return null;
    }
    const turn = angleDifference(seen.azimuthDeg, best.azimuthDeg);
    if (this.sensors.active) {
      this.offsetDeg = angleDifference(0, this.offsetDeg + turn);
      stored(() => sessionStorage.setItem(OFFSET_KEY, String(this.offsetDeg)));
      this.orientation.correct(this.declinationDeg, this.offsetDeg);
    } else {
      this.look.azimuthDeg = normalizeDegrees(this.look.azimuthDeg + turn);
    }
    this.hint(`Turned by ${turn.toFixed(1)}° to match ${best.name}`);
    return turn;
  }

  /** Dragging looks round (without a compass); a tap while calibrating calibrates. */
  bindPointer() {
    const root = this.e.root;
    let press = null;
    root.addEventListener("pointerdown", (event) => {
      if (event.target.closest("button, nav, #sky-hint")) {
        if (!this.calibrating || !event.target.closest(".sky-marker")) return;
      }
      press = { id: event.pointerId, x: event.clientX, y: event.clientY, moved: false };
    });
    root.addEventListener("pointermove", (event) => {
      if (!press || press.id !== event.pointerId) return;
      const dx = event.clientX - press.x;
      const dy = event.clientY - press.y;
      if (!press.moved && Math.hypot(dx, dy) < TAP_PX) return;
      press.moved = true;
      press.x = event.clientX;
      press.y = event.clientY;
      if (this.sensors.active || !this.f) return;
      const perPixel = (Math.atan(1 / this.f) * 180) / Math.PI;
      this.look.azimuthDeg = normalizeDegrees(this.look.azimuthDeg - dx * perPixel);
      this.look.elevationDeg = Math.max(-10, Math.min(90, this.look.elevationDeg + dy * perPixel));
    });
    root.addEventListener("pointerup", (event) => {
      if (!press || press.id !== event.pointerId) return;
      const tap = !press.moved;
      press = null;
      if (tap && this.calibrating && this.sky) {
        this.swallowClick = event.target.closest(".sky-marker") !== null;
        const rect = root.getBoundingClientRect();
        this.calibrateAt(this.sky, event.clientX - rect.left, event.clientY - rect.top);
      }
    });
    // While calibrating, a tap on a marker calibrates instead of opening its card.
    root.addEventListener("click", (event) => {
      if (!this.swallowClick && !this.calibrating) return;
      this.swallowClick = false;
      if (event.target.closest(".sky-marker")) event.stopPropagation();
    }, true);
  }
}

/** What storage gives, or null where it is refused (private browsing). */
function stored(action) {
  try {
    return action();
  } catch {
    return null;
  }
}

/** The almanac's answer, or null while it is not there (or fails). */
function almanac(position, where) {
  try {
    const body = position(new Date(), where.lat, where.lon);
    return Number.isFinite(body?.azimuthDeg) && Number.isFinite(body?.elevationDeg) ? body : null;
  } catch {
    return null;
  }
}
