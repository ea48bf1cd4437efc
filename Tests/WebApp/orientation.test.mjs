// orientation.js: the phone's angles as a rotation, made true, and smoothed without spinning
// across north or through the zenith.

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  Orientation, angleBetween, compassAccuracyPoor, fromAngles, lookingAt, pointingHeading, toMatrix, trueAlpha,
} from "../../Sources/Web/App/orientation.js";

function assertNear(actual, expected, tolerance = 1e-9) {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is not within ${tolerance} of ${expected}`);
}

/** Where the rear camera (−z) looks: [east, north, up]. */
function back(q) {
  const m = toMatrix(q);
  return [-m[2], -m[5], -m[8]];
}

test("a phone lying flat, top to the north, is the identity", () => {
  const m = toMatrix(fromAngles(0, 0, 0));
  assert.deepEqual(m.map((v) => Math.round(v * 1e12) / 1e12 + 0), [1, 0, 0, 0, 1, 0, 0, 0, 1]);
});

test("held up in portrait, beta 90°, the camera looks at the horizon; alpha turns it anticlockwise", () => {
  const north = back(fromAngles(0, 90, 0));
  assertNear(north[0], 0);
  assertNear(north[1], 1);
  assertNear(north[2], 0);
  // alpha 90°: turned a quarter anticlockwise, so the camera looks west.
  const west = back(fromAngles(90, 90, 0));
  assertNear(west[0], -1);
  assertNear(west[1], 0);
  // Tilted back 20° more: the camera looks 20° up.
  const up = back(fromAngles(0, 110, 0));
  assertNear(Math.asin(up[2]) * 180 / Math.PI, 20);
});

test("the heading is made true as the scope's compass does it: magnetic + declination", () => {
  // The compass says the camera looks at 100° magnetic (alpha 260°); with 2.5° east it is 102.5° true.
  assertNear(trueAlpha(260, 2.5), 257.5);
  assertNear(pointingHeading(fromAngles(trueAlpha(260, 2.5), 90, 0)), 102.5, 1e-9);
  // No declination known: the compass is used as it is; the user's correction adds.
  assertNear(trueAlpha(260, null), 260);
  assertNear(trueAlpha(260, 2.5, -10), 267.5);
  // Across north: 358° magnetic + 5° is 3° true.
  assertNear(pointingHeading(fromAngles(trueAlpha(2, 5), 90, 0)), 3, 1e-9);
});

test("the pointing heading is the camera's when held up and the top's when flat", () => {
  assertNear(pointingHeading(fromAngles(360 - 120, 95, 0)), 120, 1e-9);
  assertNear(pointingHeading(fromAngles(360 - 120, 5, 0)), 120, 1e-9);
});

test("looking by hand gives an upright view at the heading and elevation asked, in both orientations", () => {
  for (const screen of [0, 90, 270]) {
    const q = lookingAt(300, 45, screen);
    const b = back(q);
    assertNear(Math.atan2(b[0], b[1]) * 180 / Math.PI + 360, 300, 1e-9);
    assertNear(Math.asin(b[2]) * 180 / Math.PI, 45, 1e-9);
  }
});

test("iOS accuracy: poor above 15° and when negative (no calibration)", () => {
  assert.equal(compassAccuracyPoor(10), false);
  assert.equal(compassAccuracyPoor(15), false);
  assert.equal(compassAccuracyPoor(25), true);
  assert.equal(compassAccuracyPoor(-1), true);
  assert.equal(compassAccuracyPoor(undefined), false);
});

test("the first reading is taken at once, later ones followed smoothly", () => {
  const o = new Orientation();
  o.absolute(0, 90, 0);
  assert.ok(angleBetween(o.tick(16), fromAngles(0, 90, 0)) < 1e-6);
  o.absolute(350, 90, 0);
  const halfway = angleBetween(o.tick(16), fromAngles(0, 90, 0));
  assert.ok(halfway > 0.5 && halfway < 10, `moved ${halfway}°`);
  for (let i = 0; i < 100; i += 1) o.tick(16);
  assert.ok(angleBetween(o.current, fromAngles(350, 90, 0)) < 0.02);
});

test("smoothing across north (359° to 1°) turns by 2°, not round the whole circle", () => {
  const o = new Orientation();
  o.absolute(360 - 359, 90, 0);
  o.absolute(360 - 1, 90, 0);
  for (let i = 0; i < 60; i += 1) {
    const heading = pointingHeading(o.tick(16));
    assert.ok(heading >= 358.999 || heading <= 1.001, `the view swung to ${heading}°`);
  }
  assertNear(pointingHeading(o.current), 1, 0.01);
});

test("smoothing through the zenith does not spin, though the angles jump by 180° or more", () => {
  // Tilted back over the top: the camera 85° up to the north, then 85° up to the south with the
  // phone upside down; beta jumps from 175° to −175°. Rolled past the side: gamma from 85° to
  // −85° with alpha 180° round and beta mirrored. Each pair is 10° apart.
  const pairs = [[[0, 175, 0], [0, -175, 0]], [[300, 45, 85], [120, 135, -85]]];
  for (const [from, to] of pairs) {
    const before = fromAngles(...from);
    const after = fromAngles(...to);
    assertNear(angleBetween(before, after), 10, 1e-9);
    const o = new Orientation();
    o.absolute(...from);
    o.absolute(...to);
    for (let i = 0; i < 60; i += 1) {
      const q = o.tick(16);
      const strayed = Math.max(angleBetween(q, before), angleBetween(q, after));
      assert.ok(strayed <= 10 + 1e-6, `${from} → ${to}: ${strayed}° from an end`);
    }
    assert.ok(angleBetween(o.current, after) < 0.02);
  }
  // The first pair's path stays over the top: the camera never looks below 85°.
  const o = new Orientation();
  o.absolute(0, 175, 0);
  o.absolute(0, -175, 0);
  for (let i = 0; i < 60; i += 1) {
    const b = back(o.tick(16));
    assert.ok(Math.asin(b[2]) * 180 / Math.PI >= 84.99, `looked down to ${Math.asin(b[2]) * 180 / Math.PI}°`);
  }
});

test("a declination that comes after the reading corrects it at once; iOS's relative angles follow the compass", () => {
  const o = new Orientation();
  o.absolute(360 - 100, 90, 0);
  o.correct(4, 0);
  assertNear(pointingHeading(o.target), 104, 1e-9);
  o.correct(4, -6);
  assertNear(pointingHeading(o.target), 98, 1e-9);

  const ios = new Orientation();
  ios.correct(2, 0);
  // Relative alpha 30° while the compass says the camera looks at 200° magnetic.
  ios.relativeWithCompass(30, 90, 0, 200, 5);
  assertNear(pointingHeading(ios.target), 202, 1e-9);
  assert.equal(ios.accuracyDeg, 5);
  // Turned 10° clockwise: relative alpha −10°, the compass 210°.
  ios.relativeWithCompass(20, 90, 0, 210, 5);
  assertNear(pointingHeading(ios.target), 212, 1e-9);
});
