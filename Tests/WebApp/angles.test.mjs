// angles.js: compass angles, their shortest-way differences, and the sweep's lag.

import assert from "node:assert/strict";
import { test } from "node:test";

import { angleDifference, headingHundredths, normalizeDegrees, radiansBehind } from "../../Sources/Web/App/angles.js";

function assertNear(actual, expected, tolerance = 1e-9) {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is not within ${tolerance} of ${expected}`);
}

test("normalizeDegrees keeps [0, 360) and wraps the rest", () => {
  assert.equal(normalizeDegrees(0), 0);
  assert.equal(normalizeDegrees(90), 90);
  assert.equal(normalizeDegrees(359.5), 359.5);
  assert.equal(normalizeDegrees(360), 0);
  assert.equal(normalizeDegrees(450), 90);
  assert.equal(normalizeDegrees(720), 0);
  assert.equal(normalizeDegrees(-90), 270);
  assert.equal(normalizeDegrees(-0.5), 359.5);
  assert.equal(normalizeDegrees(-360), 0);
  assert.equal(normalizeDegrees(-725), 355);
});

test("normalizeDegrees never gives 360, nor −0, even for a tiny negative angle", () => {
  // −1e−15 + 360 is 360 in doubles: the result must still be below 360.
  assert.ok(Object.is(normalizeDegrees(-1e-15), 0));
  assert.ok(Object.is(normalizeDegrees(-0), 0));
  assert.ok(Object.is(normalizeDegrees(-360), 0));
  for (let degrees = -1080; degrees <= 1080; degrees += 7.25) {
    const value = normalizeDegrees(degrees);
    assert.ok(value >= 0 && value < 360, `${degrees} → ${value}`);
    // The same direction: a whole number of turns away.
    assertNear(Math.round((degrees - value) / 360) * 360, degrees - value);
  }
});

test("angleDifference turns the shortest way, across north too", () => {
  assert.equal(angleDifference(0, 90), 90);
  assert.equal(angleDifference(90, 0), -90);
  assert.equal(angleDifference(359, 1), 2);
  assert.equal(angleDifference(1, 359), -2);
  assert.equal(angleDifference(350, 10), 20);
  assert.equal(angleDifference(10, 350), -20);
  assert.equal(angleDifference(0, 270), -90);
  assert.equal(angleDifference(270, 0), 90);
  assert.equal(angleDifference(45, 45), 0);
});

test("angleDifference takes angles outside [0, 360) and negative ones", () => {
  assert.equal(angleDifference(0, -90), -90);
  assert.equal(angleDifference(-10, 10), 20);
  assert.equal(angleDifference(0, 750), 30);
  assert.equal(angleDifference(-720, 45), 45);
  assert.equal(angleDifference(400, 30), -10);
});

test("angleDifference: half a turn is +180 whichever way it is asked", () => {
  assert.equal(angleDifference(0, 180), 180);
  assert.equal(angleDifference(180, 0), 180);
  assert.equal(angleDifference(10, 190), 180);
  assert.equal(angleDifference(190, 10), 180);
  assert.equal(angleDifference(-90, 90), 180);
});

test("angleDifference lies in (−180, 180] and leads from one angle to the other", () => {
  for (let from = -400; from <= 400; from += 37) {
    for (let to = -400; to <= 400; to += 23) {
      const difference = angleDifference(from, to);
      assert.ok(difference > -180 && difference <= 180, `${from} → ${to}: ${difference}`);
      assertNear(normalizeDegrees(from + difference), normalizeDegrees(to), 1e-9);
      if (Math.abs(difference) !== 180) assert.equal(angleDifference(to, from) + difference, 0);
    }
  }
});

test("headingHundredths rounds to a hundredth of a degree in [0, 360)", () => {
  assert.equal(headingHundredths(0), 0);
  assert.equal(headingHundredths(12.3456), 12.35);
  assert.equal(headingHundredths(12.3449), 12.34);
  assert.equal(headingHundredths(-90), 270);
  assert.equal(headingHundredths(725.5), 5.5);
  assert.equal(headingHundredths(359.994), 359.99);
  // Rounding up to 360.00 is north again.
  assert.equal(headingHundredths(359.996), 0);
  assert.equal(headingHundredths(-0.004), 0);
  assert.equal(headingHundredths(360), 0);
});

test("radiansBehind: how far the sweep has turned past an angle, in [0, 2π)", () => {
  assertNear(radiansBehind(Math.PI / 2, 0), Math.PI / 2);
  assertNear(radiansBehind(0, Math.PI / 2), 1.5 * Math.PI);
  assert.equal(radiansBehind(1, 1), 0);
  // West of the top, atan2 gives negative angles.
  assertNear(radiansBehind(0.1, -0.1), 0.2);
  assertNear(radiansBehind(-0.1, 0.1), 2 * Math.PI - 0.2);
  assertNear(radiansBehind(2 * Math.PI + 0.3, 0.1), 0.2);
  for (let sweep = 0; sweep < 2 * Math.PI; sweep += 0.3) {
    for (let angle = -Math.PI; angle <= Math.PI; angle += 0.4) {
      const behind = radiansBehind(sweep, angle);
      assert.ok(behind >= 0 && behind < 2 * Math.PI, `${sweep}, ${angle}: ${behind}`);
    }
  }
});
