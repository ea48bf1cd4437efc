// projection.js: from the feed's bearing and distance to a place on the turned scope, and the
// size of an aircraft's icon.

import assert from "node:assert/strict";
import { test } from "node:test";

import { angleDifference } from "../../Sources/Web/App/angles.js";
import {
  GROUND_SCALE, eastKm, iconScale, localKm, northKm, planeLength, rightKm, spriteSide, turnStep, upKm,
} from "../../Sources/Web/App/projection.js";

function assertNear(actual, expected, tolerance = 1e-9) {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is not within ${tolerance} of ${expected}`);
}

/** Where a point at `azimuthDeg`, `groundKm` lands on a scope turned to `headingDeg`: km right and up. */
function onScope(azimuthDeg, groundKm, headingDeg) {
  const heading = (headingDeg * Math.PI) / 180;
  const [cos, sin] = [Math.cos(heading), Math.sin(heading)];
  const e = eastKm(azimuthDeg, groundKm);
  const n = northKm(azimuthDeg, groundKm);
  return { right: rightKm(e, n, cos, sin), up: upKm(e, n, cos, sin) };
}

test("eastKm and northKm: the four cardinal bearings", () => {
  assertNear(eastKm(0, 10), 0);
  assertNear(northKm(0, 10), 10);
  assertNear(eastKm(90, 10), 10);
  assertNear(northKm(90, 10), 0);
  assertNear(eastKm(180, 10), 0);
  assertNear(northKm(180, 10), -10);
  assertNear(eastKm(270, 10), -10);
  assertNear(northKm(270, 10), 0);
});

test("eastKm and northKm: 30° east of north is half the distance east, √3/2 of it north", () => {
  assertNear(eastKm(30, 8), 4);
  assertNear(northKm(30, 8), 4 * Math.sqrt(3));
  assertNear(eastKm(45, Math.SQRT2), 1);
  assertNear(northKm(45, Math.SQRT2), 1);
  // Negative bearings and whole turns name the same direction.
  assertNear(eastKm(-90, 5), eastKm(270, 5));
  assertNear(northKm(390, 5), northKm(30, 5));
  assert.equal(eastKm(123, 0), 0);
});

test("eastKm and northKm keep the distance at any bearing", () => {
  for (let azimuth = 0; azimuth < 360; azimuth += 7.5) {
    assertNear(Math.hypot(eastKm(azimuth, 42), northKm(azimuth, 42)), 42);
  }
});

test("heading north: the scope is a map, north up and east right", () => {
  const east = onScope(90, 10, 0);
  assertNear(east.right, 10);
  assertNear(east.up, 0);
  const north = onScope(0, 10, 0);
  assertNear(north.right, 0);
  assertNear(north.up, 10);
});

test("heading east: an aircraft due east is at the top, one due north on the left", () => {
  const east = onScope(90, 10, 90);
  assertNear(east.right, 0);
  assertNear(east.up, 10);
  const north = onScope(0, 25, 90);
  assertNear(north.right, -25);
  assertNear(north.up, 0);
});

test("heading south and west: what is behind is at the bottom", () => {
  const north = onScope(0, 10, 180);
  assertNear(north.right, 0);
  assertNear(north.up, -10);
  const northFacingWest = onScope(0, 10, 270);
  assertNear(northFacingWest.right, 10);
  assertNear(northFacingWest.up, 0);
});

test("on the scope an aircraft is at its bearing less the heading, at its distance", () => {
  for (let heading = -90; heading < 360; heading += 35) {
    for (let azimuth = 0; azimuth < 360; azimuth += 25) {
      const { right, up } = onScope(azimuth, 30, heading);
      assertNear(Math.hypot(right, up), 30);
      // Clockwise from the top of the screen.
      const drawnAt = (Math.atan2(right, up) * 180) / Math.PI;
      assertNear(angleDifference(drawnAt, azimuth - heading), 0, 1e-9);
    }
  }
});

test("spriteSide: 17 CSS pixels for a plane of scale 1, in a box 64/44 of its length", () => {
  // 17 × 64 / 44 = 24.7: 25 pixels.
  assert.equal(spriteSide(1, 1, false), 25);
  // The feed's scale unknown: 1.
  assert.equal(spriteSide(null, 1, false), 25);
  assert.equal(spriteSide(undefined, 1, false), 25);
  // Two device pixels a CSS pixel: 34 × 64 / 44 = 49.45.
  assert.equal(spriteSide(1, 2, false), 49);
});

test("spriteSide at the ends of the feed's scale: 0.7 (high) and 2 (on the ground)", () => {
  // 11.9 × 64 / 44 = 17.3.
  assert.equal(spriteSide(0.7, 1, false), 17);
  // 34 × 64 / 44 = 49.45.
  assert.equal(spriteSide(2, 1, false), 49);
  // Kid mode, 1.7 times larger: 17 × 1.7 × 0.7 = 20.23, × 64 / 44 = 29.4.
  assert.equal(spriteSide(0.7, 1, true), 29);
  // The largest the feed asks for: 17 × 2 × 1.7 × 2 = 115.6, × 64 / 44 = 168.1.
  assert.equal(spriteSide(2, 2, true), 168);
  // Low aircraft, the ones to look for, are drawn larger.
  let previous = 0;
  for (let scale = 0.7; scale <= 2; scale += 0.05) {
    const side = spriteSide(scale, 2, false);
    assert.ok(side >= previous, `scale ${scale}: ${side} < ${previous}`);
    previous = side;
  }
});

test("spriteSide stays between 8 and 4095 device pixels whatever the scale says", () => {
  assert.equal(spriteSide(0, 1, false), 8, "0 is a scale, not an unknown one");
  assert.equal(spriteSide(0.01, 1, false), 8);
  assert.equal(spriteSide(-3, 1, false), 8);
  assert.equal(spriteSide(1000, 2, true), 4095);
});

test("planeLength: the plane fills 44 of its sprite's 64 units", () => {
  assert.equal(planeLength(64), 44);
  assert.equal(planeLength(25), 17.1875);
  assert.equal(planeLength(0), 0);
});

test("turnStep: the nearest of 72 sprites 5° apart, halves turning clockwise", () => {
  assert.equal(turnStep(0, 5), 0);
  assert.equal(turnStep(2.4, 5), 0);
  assert.equal(turnStep(2.5, 5), 1);
  assert.equal(turnStep(90, 5), 18);
  assert.equal(turnStep(-90, 5), 54);
  assert.equal(turnStep(357.4, 5), 71);
  assert.equal(turnStep(357.5, 5), 0);
  assert.equal(turnStep(360, 5), 0);
  assert.equal(turnStep(715, 5), 71);
  // −2.5° is halfway between 355° and 0°, and −357.5° is 2.5°: each goes clockwise, as 2.5° does.
  assert.ok(Object.is(turnStep(-2.5, 5), 0));
  assert.equal(turnStep(-357.5, 5), 1);
});

test("turnStep: every turn gets a sprite index, a whole turn apart the same one", () => {
  for (let turn = -540; turn <= 540; turn += 1.3) {
    const step = turnStep(turn, 5);
    assert.ok(Number.isInteger(step) && step >= 0 && step < 72, `${turn}: ${step}`);
    assert.equal(turnStep(turn + 360, 5), step, `${turn}`);
    // The sprite's direction is within half a step of the turn.
    assert.ok(Math.abs(angleDifference(turn, step * 5)) <= 2.5 + 1e-9, `${turn}: ${step}`);
  }
  assert.equal(turnStep(45, 15), 3);
  assert.equal(turnStep(-45, 90), 0);
});

test("iconScale: the feed's scale in the air, a smaller one than any airborne on the ground", () => {
  assert.equal(iconScale({ on_ground: false, scale: 2 }), 2);
  assert.equal(iconScale({ on_ground: null, scale: 0.9 }), 0.9);
  assert.equal(iconScale({ scale: null }), null);
  // The feed gives a parked aircraft the largest scale, 2; it is drawn at GROUND_SCALE.
  assert.equal(iconScale({ on_ground: true, scale: 2 }), GROUND_SCALE);
  assert.ok(GROUND_SCALE < 0.7);
  for (const ratio of [1, 2, 3]) {
    for (const kid of [false, true]) {
      assert.ok(spriteSide(iconScale({ on_ground: true, scale: 2 }), ratio, kid) < spriteSide(0.7, ratio, kid));
    }
  }
});

test("localKm: a stored position as km east and north of the observer, as the feed places it", () => {
  const observer = { lat: 52.3, lon: 4.75 };
  // One degree of latitude is 111.2 km on the mean sphere.
  const north = localKm(53.3, 4.75, observer);
  assertNear(north.e, 0, 1e-9);
  assertNear(north.n, 111.195, 0.001);
  // Due east along the parallel the great circle bends north a little: the bearing is
  // under 90° and the ground distance about 68.0 km.
  const east = localKm(52.3, 5.75, observer);
  assertNear(Math.hypot(east.e, east.n), 67.998, 0.001);
  assert.ok(east.n > 0 && east.n < 0.5, `${east.n}`);
  // Across the antimeridian the short way.
  const across = localKm(0, -179.5, { lat: 0, lon: 179.5 });
  assertNear(across.e, 111.195, 0.001);
  assertNear(localKm(52.3, 4.75, observer).e, 0, 1e-12);
});
