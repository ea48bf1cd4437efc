// pinhole.js: directions in the sky onto the screen through a pinhole camera at the phone's
// orientation, and arrows at the edge for those outside the picture.

import assert from "node:assert/strict";
import { test } from "node:test";

import { fromAngles, lookingAt, multiply, axisAngle, toMatrix } from "../../Sources/Web/App/orientation.js";
import {
  cameraBasis, centreAzimuth, direction, edgeArrow, focalLength, onScreen, project, turnWay, unproject,
} from "../../Sources/Web/App/pinhole.js";

function assertNear(actual, expected, tolerance = 1e-6) {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is not within ${tolerance} of ${expected}`);
}

const RAD = Math.PI / 180;

/** The camera held up in portrait, looking at azimuth `az`, `el` up (alpha anticlockwise). */
function portrait(az, el) {
  return cameraBasis(toMatrix(fromAngles(360 - az, 90 + el, 0)), 0);
}

function at(basis, f, width, height, az, el) {
  const point = {};
  const front = project(basis, direction(az, el), f, width, height, point);
  return { ...point, front };
}

test("the field of view spans the long side of the screen, or of the camera's video as it covers the screen", () => {
  // 60° across 915 px: f = 457.5 / tan 30°.
  assertNear(focalLength(412, 915, 60), 457.5 / Math.tan(30 * RAD));
  assertNear(focalLength(915, 412, 60), 457.5 / Math.tan(30 * RAD));
  // A 640 × 480 video on a 412 × 915 screen is scaled by 915 / 480 to cover it; its long side,
  // 640 px, spans the 60°.
  assertNear(focalLength(412, 915, 60, 640, 480), (915 / 480) * 320 / Math.tan(30 * RAD));
});

test("pointing at azimuth 120°, 20° up in portrait puts an aircraft there at the centre", () => {
  const basis = portrait(120, 20);
  const f = focalLength(412, 915, 60);
  const p = at(basis, f, 412, 915, 120, 20);
  assert.equal(p.front, true);
  assertNear(p.x, 206);
  assertNear(p.y, 457.5);
  assertNear(centreAzimuth(basis), 120);
});

test("10° to the right on the horizon line of sight lands f·tan 10° right of the centre", () => {
  const basis = portrait(120, 0);
  const f = focalLength(412, 915, 60);
  const p = at(basis, f, 412, 915, 130, 0);
  assertNear(p.x, 206 + f * Math.tan(10 * RAD));
  assertNear(p.y, 457.5);
  // And 10° up, straight above the centre by f·tan 10°.
  const q = at(basis, f, 412, 915, 120, 10);
  assertNear(q.x, 206);
  assertNear(q.y, 457.5 - f * Math.tan(10 * RAD));
});

test("landscape, the screen turned 90°: the top of the device to the left, the view still upright", () => {
  // Held up looking at 300°, 45° up, then turned a quarter anticlockwise about the camera's axis.
  const q = multiply(fromAngles(360 - 300, 90 + 45, 0), axisAngle(0, 0, 1, 90));
  const basis = cameraBasis(toMatrix(q), 90);
  const f = focalLength(915, 412, 60);
  const centre = at(basis, f, 915, 412, 300, 45);
  assertNear(centre.x, 457.5);
  assertNear(centre.y, 206);
  // Higher is up the screen, further clockwise is to the right.
  assert.ok(at(basis, f, 915, 412, 300, 50).y < 206 - 10);
  assert.ok(at(basis, f, 915, 412, 310, 45).x > 457.5 + 10);
  // The same as looking by hand at that screen angle.
  const hand = cameraBasis(toMatrix(lookingAt(300, 45, 90)), 90);
  hand.forEach((value, i) => assertNear(value, basis[i], 1e-9));
});

test("straight up: the zenith at the centre, the screen's top towards the phone's heading", () => {
  // Phone above the head, screen down, its top towards the north: beta 180°.
  const basis = cameraBasis(toMatrix(fromAngles(180, 180, 0)), 0);
  const f = focalLength(412, 915, 60);
  const zenith = at(basis, f, 412, 915, 0, 90);
  assertNear(zenith.x, 206);
  assertNear(zenith.y, 457.5);
  // 80° up to the north is above the centre; to the east, the screen's right is west seen
  // from below, so east is on the left.
  assert.ok(at(basis, f, 412, 915, 0, 80).y < 457.5 - 10);
  assert.ok(at(basis, f, 412, 915, 90, 80).x < 206 - 10);
});

test("a point on the screen goes back to its direction", () => {
  const basis = portrait(120, 20);
  const f = focalLength(412, 915, 60);
  const p = at(basis, f, 412, 915, 141, 33);
  const back = unproject(basis, f, 412, 915, p.x, p.y);
  assertNear(back.azimuthDeg, 141, 1e-9);
  assertNear(back.elevationDeg, 33, 1e-9);
});

test("behind the camera is not on the screen, and its arrow says which way to turn round", () => {
  const basis = portrait(120, 20);
  const f = focalLength(412, 915, 60);
  // Behind, a little to the right of straight behind (290°: 170° clockwise) and higher: turn
  // right, the arrow on the right edge, pointing right and a little up.
  const behind = at(basis, f, 412, 915, 290, 30);
  assert.equal(behind.front, false);
  assert.equal(onScreen(behind, 412, 915), false);
  const way = turnWay(behind, 170, 10, {});
  const right = edgeArrow(way.right, way.up, 412, 915, 24, {});
  assertNear(right.x, 412 - 24);
  assert.ok(right.y < 457.5, `${right.y}`);
  assert.ok(right.angleDeg > 80 && right.angleDeg < 90, `${right.angleDeg}`);
  // Behind to the left (310°: 170° anticlockwise) and lower: the left edge, pointing left and down.
  const other = turnWay(at(basis, f, 412, 915, 310, 5), -170, -15, {});
  const left = edgeArrow(other.right, other.up, 412, 915, 24, {});
  assertNear(left.x, 24);
  assert.ok(left.angleDeg > 260 && left.angleDeg < 270, `${left.angleDeg}`);
  // In front but beyond the left edge: the arrow on the left edge, on the line to the point.
  const beyond = at(basis, f, 412, 915, 70, 20);
  assert.equal(beyond.front, true);
  assert.equal(onScreen(beyond, 412, 915), false);
  const ahead = turnWay(beyond, -50, 0, {});
  const arrow = edgeArrow(ahead.right, ahead.up, 412, 915, 24, {});
  assertNear(arrow.x, 24);
  assertNear((arrow.y - 457.5) / (arrow.x - 206), (beyond.y - 457.5) / (beyond.x - 206), 1e-9);
  assertNear(arrow.angleDeg, (Math.atan2(beyond.x - 206, 457.5 - beyond.y) * 180) / Math.PI + 360, 1e-9);
  // High above the view and in front: the top edge, pointing up.
  const high = at(basis, f, 412, 915, 120, 80);
  const up = edgeArrow(high.right, high.up, 412, 915, 24, {});
  assertNear(up.angleDeg, 0, 1e-9);
  assertNear(up.y, 24);
});
