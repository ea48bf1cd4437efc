// Which way the whole phone points, for the sky view: the browser's orientation angles
// (alpha, beta, gamma of `deviceorientation`) turned into a rotation, kept as a unit
// quaternion and smoothed as one, so that nothing spins when the phone crosses north or looks
// through the zenith (where the angles themselves jump by 180°). Pure maths, no page: node
// tests it.
//
// Frames: the earth's is east, north, up (x, y, z). The device's is the W3C one: x to the
// right of the screen in its natural (portrait) orientation, y to its top, z out of the screen
// towards the viewer; the rear camera looks along −z. A rotation takes device vectors to earth
// vectors: R = Rz(alpha) · Rx(beta) · Ry(gamma). Quaternions are [x, y, z, w] arrays.

import { angleDifference, normalizeDegrees } from "./angles.js";
import { trueHeading } from "./compass.js";

const RADIANS = Math.PI / 180;
/** How quickly the drawn orientation follows the sensor: the filter's time constant. */
export const SMOOTHING_MS = 90;
/** iOS says its compass is poor above this uncertainty (degrees), and when negative. */
export const POOR_ACCURACY_DEG = 15;

/** The quaternion of a turn by `degrees` about the unit axis (ax, ay, az). */
export function axisAngle(ax, ay, az, degrees) {
  const half = (degrees * RADIANS) / 2;
  const s = Math.sin(half);
  return [ax * s, ay * s, az * s, Math.cos(half)];
}

/** The product a · b (b first, then a), into `out` when given. */
export function multiply(a, b, out = [0, 0, 0, 1]) {
  const [ax, ay, az, aw] = a;
  const [bx, by, bz, bw] = b;
  out[0] = aw * bx + ax * bw + ay * bz - az * by;
  out[1] = aw * by - ax * bz + ay * bw + az * bx;
  out[2] = aw * bz + ax * by - ay * bx + az * bw;
  out[3] = aw * bw - ax * bx - ay * by - az * bz;
  return out;
}

/** The device's rotation from the W3C angles (degrees), as a quaternion. */
export function fromAngles(alphaDeg, betaDeg, gammaDeg) {
  const z = axisAngle(0, 0, 1, alphaDeg);
  const x = axisAngle(1, 0, 0, betaDeg);
  const y = axisAngle(0, 1, 0, gammaDeg);
  return multiply(multiply(z, x), y);
}

/**
 * The rotation as a 3×3 matrix, row-major, into `out` (9 numbers): its columns are the
 * device's x, y and z axes in the earth's frame.
 */
export function toMatrix(q, out = new Array(9)) {
  const [x, y, z, w] = q;
  out[0] = 1 - 2 * (y * y + z * z);
  out[1] = 2 * (x * y - z * w);
  out[2] = 2 * (x * z + y * w);
  out[3] = 2 * (x * y + z * w);
  out[4] = 1 - 2 * (x * x + z * z);
  out[5] = 2 * (y * z - x * w);
  out[6] = 2 * (x * z - y * w);
  out[7] = 2 * (y * z + x * w);
  out[8] = 1 - 2 * (x * x + y * y);
  return out;
}

/** The angle in degrees between two orientations (0 to 180), whatever their signs. */
export function angleBetween(a, b) {
  const dot = Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]);
  return (2 * Math.acos(Math.min(1, dot))) / RADIANS;
}

/**
 * Moves `current` towards `target` by the fraction `step` (0 to 1) on the shorter of the two
 * ways (q and −q are the same orientation), normalised: a linear blend of the quaternions,
 * close to a spherical one for the small steps of a display frame. In place; returns current.
 */
export function nlerp(current, target, step) {
  const dot = current[0] * target[0] + current[1] * target[1] + current[2] * target[2] + current[3] * target[3];
  const sign = dot < 0 ? -1 : 1;
  let length = 0;
  for (let i = 0; i < 4; i += 1) {
    current[i] += (sign * target[i] - current[i]) * step;
    length += current[i] * current[i];
  }
  length = Math.sqrt(length);
  for (let i = 0; i < 4; i += 1) current[i] /= length;
  return current;
}

/**
 * The heading in degrees of where the phone points, from its rotation: where the rear camera
 * looks (−z) when the phone is held up, where its top points (y) when it lies flat; the two
 * agree whenever both are defined, and this takes the one more nearly level.
 */
export function pointingHeading(q) {
  const m = toMatrix(q);
  const backE = -m[2];
  const backN = -m[5];
  const topE = m[1];
  const topN = m[4];
  const back = Math.hypot(backE, backN) >= Math.hypot(topE, topN);
  const e = back ? backE : topE;
  const n = back ? backN : topN;
  return normalizeDegrees(Math.atan2(e, n) / RADIANS);
}

/** Whether iOS's `webkitCompassAccuracy` (degrees) says the compass needs calibrating. */
export function compassAccuracyPoor(accuracyDeg) {
  return typeof accuracyDeg === "number" && (accuracyDeg < 0 || accuracyDeg > POOR_ACCURACY_DEG);
}

/**
 * The alpha to use for a compass alpha (anticlockwise from magnetic north), corrected to true
 * north by the declination exactly as the scope's compass is (compass.js's trueHeading), then
 * by the user's own correction (`offsetDeg`, added to headings: positive turns clockwise).
 */
export function trueAlpha(alphaDeg, declinationDeg, offsetDeg = 0) {
  return normalizeDegrees(360 - normalizeDegrees(trueHeading(360 - alphaDeg, declinationDeg) + offsetDeg));
}

/**
 * A rotation that looks at azimuth `headingDeg`, `elevationDeg` up, upright on a screen turned
 * `screenDeg` from the phone's natural orientation: for a page without orientation sensors
 * (a laptop), looked round by dragging.
 */
export function lookingAt(headingDeg, elevationDeg, screenDeg) {
  const upright = fromAngles(-headingDeg, 90 + elevationDeg, 0);
  return multiply(upright, axisAngle(0, 0, 1, screenDeg));
}

/**
 * The orientation the sky view draws: readings in, a smoothed rotation out. A compass that
 * gives absolute angles (Android's `deviceorientationabsolute`) is used as it is; iOS's
 * relative angles are turned to the compass by the difference between its
 * `webkitCompassHeading` and the heading of the relative rotation, itself smoothed (it is a
 * constant while the page is open, and the compass is noisy). Every heading is then made true with
 * the declination and corrected by the user's calibration (`offsetDeg`).
 */
export class Orientation {
  constructor() {
    this.target = [0, 0, 0, 1];
    this.current = [0, 0, 0, 1];
    this.hasReading = false;
    this.declinationDeg = null;
    this.offsetDeg = 0;
    /** iOS: compass heading − relative heading, smoothed; null until the compass spoke. */
    this.relativeOffsetDeg = null;
    this.accuracyDeg = null;
    /** The last compass reading as it came (alpha from magnetic north), or null. */
    this.raw = null;
  }

  /** An absolute reading: alpha from magnetic north. */
  absolute(alphaDeg, betaDeg, gammaDeg) {
    if (![alphaDeg, betaDeg, gammaDeg].every(Number.isFinite)) return;
    this.raw ??= [0, 0, 0];
    this.raw[0] = alphaDeg;
    this.raw[1] = betaDeg;
    this.raw[2] = gammaDeg;
    this.set(fromAngles(trueAlpha(alphaDeg, this.declinationDeg, this.offsetDeg), betaDeg, gammaDeg));
  }

  /**
   * The feed's declination (null: none) and the user's correction: a phone that lies still
   * may send no new reading, so the last one is corrected again at once.
   */
  correct(declinationDeg, offsetDeg) {
    this.declinationDeg = Number.isFinite(declinationDeg) ? declinationDeg : null;
    this.offsetDeg = Number.isFinite(offsetDeg) ? offsetDeg : 0;
    if (this.raw) this.absolute(this.raw[0], this.raw[1], this.raw[2]);
  }

  /** Forgets the compass (the page is looked round by hand now). */
  forgetCompass() {
    this.raw = null;
  }

  /**
   * A relative reading with iOS's compass heading (magnetic, degrees, of the pointing
   * direction as `pointingHeading` takes it) and its accuracy (degrees).
   */
  relativeWithCompass(alphaDeg, betaDeg, gammaDeg, compassDeg, accuracyDeg) {
    if (![alphaDeg, betaDeg, gammaDeg, compassDeg].every(Number.isFinite)) return;
    this.accuracyDeg = Number.isFinite(accuracyDeg) ? accuracyDeg : null;
    const relative = fromAngles(alphaDeg, betaDeg, gammaDeg);
    const difference = normalizeDegrees(compassDeg - pointingHeading(relative));
    if (this.relativeOffsetDeg === null) {
      this.relativeOffsetDeg = difference;
    } else {
      const turn = angleDifference(this.relativeOffsetDeg, difference);
      this.relativeOffsetDeg = normalizeDegrees(this.relativeOffsetDeg + turn * 0.05);
    }
    // Headings grow clockwise, alpha anticlockwise: the compass alpha is alpha − offset.
    this.absolute(alphaDeg - this.relativeOffsetDeg, betaDeg, gammaDeg);
  }

  /** A rotation to follow (already true and corrected). The first is taken at once. */
  set(q) {
    for (let i = 0; i < 4; i += 1) this.target[i] = q[i];
    if (!this.hasReading) for (let i = 0; i < 4; i += 1) this.current[i] = q[i];
    this.hasReading = true;
  }

  /** Advances the filter by `elapsedMs`; returns the rotation to draw (kept, do not change it). */
  tick(elapsedMs) {
    const step = 1 - Math.exp(-Math.max(0, elapsedMs) / SMOOTHING_MS);
    if (angleBetween(this.current, this.target) < 0.01) {
      for (let i = 0; i < 4; i += 1) this.current[i] = this.target[i];
    } else {
      nlerp(this.current, this.target, step);
    }
    return this.current;
  }
}
