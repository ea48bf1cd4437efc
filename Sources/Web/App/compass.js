// Which way the phone points: the absolute orientation on Android, the compass heading on iOS
// (after a tap that asks permission), or the user's finger when there is no compass. The
// heading shown follows the sensor through a low-pass filter on the shortest way round, so
// crossing north (359° → 1°) turns the radar by 2°, not by a whole turn. Compasses read from
// magnetic north and the feed's angles are from true north, so every compass reading has the
// magnetic declination the daemon sends (at the observer) added to it; a finger's turning has
// nothing to correct.

import { angleDifference, normalizeDegrees } from "./angles.js";

/** How quickly the shown heading catches up with the sensor: the filter's time constant. */
const SMOOTHING_MS = 120;
/** A compass that has said nothing for this long is taken as gone (drag takes over). */
const SILENT_MS = 3000;

/** How far the screen is turned from the device's natural orientation, in degrees. */
export function screenAngle() {
  const angle = screen.orientation?.angle ?? window.orientation ?? 0;
  return Number.isFinite(angle) ? angle : 0;
}

/**
 * The true heading of a magnetic compass heading: magnetic + declination (east positive), in
 * [0, 360). A declination that is not a number (the daemon has no position) counts as 0.
 */
export function trueHeading(magneticDeg, declinationDeg) {
  return normalizeDegrees(magneticDeg + (Number.isFinite(declinationDeg) ? declinationDeg : 0));
}

/** What the settings say about the correction: the declination in use, or that there is none. */
export function declinationLabel(declinationDeg) {
  if (!Number.isFinite(declinationDeg)) return "Compass: magnetic north (the daemon has no position to correct it)";
  const rounded = Math.round(Math.abs(declinationDeg) * 10) / 10;
  const side = rounded === 0 ? "" : declinationDeg > 0 ? " E" : " W";
  return `Compass: true north, declination ${rounded}°${side} (WMM2025)`;
}

export class Compass {
  /** @param {number} heading where to start (the last heading used). */
  constructor(heading) {
    this.heading = normalizeDegrees(heading);
    this.target = this.heading;
    this.lastReadingAt = -Infinity;
    this.listening = false;
    /** Degrees east of true north that magnetic north lies, from the feed; null until it says. */
    this.declinationDeg = null;
    /** The last compass reading, magnetic, while the compass (not a finger) sets the heading. */
    this.magneticDeg = null;
    this.onAbsolute = (event) => this.absoluteReading(event);
    this.onRelative = (event) => this.iosReading(event);
  }

  /** Whether the browser may need a tap to allow the compass (iOS 13 and later). */
  static needsPermission() {
    return typeof DeviceOrientationEvent !== "undefined" && typeof DeviceOrientationEvent.requestPermission === "function";
  }

  /** Whether readings came in lately. */
  get active() {
    return performance.now() - this.lastReadingAt < SILENT_MS;
  }

  /** Starts listening where no permission is needed (Android, desktop browsers with sensors). */
  listen() {
    if (this.listening || typeof window.DeviceOrientationEvent === "undefined") return;
    this.listening = true;
    window.addEventListener("deviceorientationabsolute", this.onAbsolute);
    window.addEventListener("deviceorientation", this.onRelative);
  }

  /** Asks for permission where the browser wants a tap for it; resolves to whether it was given. */
  async enable() {
    if (Compass.needsPermission()) {
      try {
        if ((await DeviceOrientationEvent.requestPermission()) !== "granted") return false;
      } catch {
        return false;
      }
    }
    this.listen();
    return true;
  }

  /** Android: alpha turns counter-clockwise from north. */
  absoluteReading(event) {
    if (event.alpha == null) return;
    this.compassReading(360 - event.alpha + screenAngle());
  }

  /** iOS: a compass heading on the ordinary orientation event; other browsers' relative
   * readings say nothing about north and are ignored. */
  iosReading(event) {
    if (typeof event.webkitCompassHeading === "number" && event.webkitCompassHeading >= 0) {
      this.compassReading(event.webkitCompassHeading + screenAngle());
    } else if (event.absolute === true && event.alpha != null) {
      this.compassReading(360 - event.alpha + screenAngle());
    }
  }

  /** A magnetic compass heading: the heading to follow is the true one. */
  compassReading(magneticDeg) {
    if (!Number.isFinite(magneticDeg)) return;
    this.magneticDeg = magneticDeg;
    this.reading(trueHeading(magneticDeg, this.declinationDeg));
  }

  /** The feed's declination at the observer (null when it has none). A compass that gave its
   * heading before it came, and has not changed since (a still phone may say nothing more),
   * is corrected at once. */
  setDeclination(degrees) {
    this.declinationDeg = Number.isFinite(degrees) ? degrees : null;
    if (this.magneticDeg !== null) this.target = trueHeading(this.magneticDeg, this.declinationDeg);
  }

  reading(degrees) {
    if (!Number.isFinite(degrees)) return;
    if (!this.active) this.heading = normalizeDegrees(degrees);
    this.target = normalizeDegrees(degrees);
    this.lastReadingAt = performance.now();
  }

  /** A finger turned the radar by `degrees` (clockwise positive); ignored while a compass leads. */
  turnBy(degrees) {
    if (this.active) return;
    this.magneticDeg = null;
    this.target = normalizeDegrees(this.target + degrees);
    this.heading = this.target;
  }

  /** Advances the filter by `elapsedMs`; returns the heading to draw. */
  tick(elapsedMs) {
    const step = 1 - Math.exp(-Math.max(0, elapsedMs) / SMOOTHING_MS);
    const difference = angleDifference(this.heading, this.target);
    this.heading = Math.abs(difference) < 0.01 ? this.target : normalizeDegrees(this.heading + difference * step);
    return this.heading;
  }
}
