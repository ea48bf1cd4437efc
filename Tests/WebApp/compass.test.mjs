// compass.js: the heading shown follows the phone's compass through a low-pass filter that
// turns the shortest way round, and a finger turns it when there is no compass.

import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import { angleDifference } from "../../Sources/Web/App/angles.js";
import { Compass, declinationLabel, trueHeading } from "../../Sources/Web/App/compass.js";

function assertNear(actual, expected, tolerance = 1e-9) {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is not within ${tolerance} of ${expected}`);
}

// The screen's turn from the device's natural orientation, as a browser reports it.
beforeEach(() => {
  globalThis.screen = { orientation: { angle: 0 } };
});

test("the starting heading is taken into [0, 360)", () => {
  assert.equal(new Compass(-90).heading, 270);
  assert.equal(new Compass(720).heading, 0);
  assert.equal(new Compass(45).target, 45);
});

test("without a compass a finger turns the radar at once, across north too", () => {
  const compass = new Compass(350);
  assert.equal(compass.active, false);
  compass.turnBy(20);
  assert.equal(compass.target, 10);
  assert.equal(compass.heading, 10);
  compass.turnBy(-30);
  assert.equal(compass.heading, 340);
  assert.equal(compass.tick(100), 340);
});

test("the first reading is taken as it is; later ones are followed, not jumped to", () => {
  const compass = new Compass(0);
  compass.reading(123);
  assert.equal(compass.active, true);
  assert.equal(compass.heading, 123);
  compass.reading(-10);
  assert.equal(compass.target, 350);
  assert.equal(compass.heading, 123);
});

test("while a compass speaks, a finger does not turn the radar", () => {
  const compass = new Compass(0);
  compass.reading(90);
  compass.turnBy(45);
  assert.equal(compass.target, 90);
  assert.equal(compass.heading, 90);
});

test("readings that are not numbers are ignored", () => {
  const compass = new Compass(30);
  compass.reading(Number.NaN);
  compass.reading(Infinity);
  assert.equal(compass.active, false);
  assert.equal(compass.heading, 30);
});

test("from 350° to 10° the heading goes through north, not round through 180°", () => {
  const compass = new Compass(0);
  compass.reading(350);
  compass.reading(10);
  let travelled = 0;
  for (let frame = 0; frame < 200 && compass.heading !== 10; frame += 1) {
    const before = compass.heading;
    const heading = compass.tick(16);
    const step = angleDifference(before, heading);
    assert.ok(step >= 0, `turned back by ${step}°`);
    travelled += step;
    const along = angleDifference(350, heading);
    assert.ok(along >= 0 && along <= 20, `${heading}° is off the short way`);
  }
  assert.equal(compass.heading, 10, "it arrives");
  assertNear(travelled, 20, 1e-6);
});

test("after one time constant (120 ms) the heading has gone 1 − 1/e of the way", () => {
  const compass = new Compass(0);
  compass.reading(350);
  compass.reading(10);
  // 350° + 20° × (1 − e⁻¹) = 362.64°, that is 2.64°.
  assertNear(compass.tick(120), 350 + 20 * (1 - Math.exp(-1)) - 360, 1e-9);
});

test("no time, or time going backwards, does not move the heading", () => {
  const compass = new Compass(0);
  compass.reading(100);
  compass.reading(200);
  assert.equal(compass.tick(0), 100);
  assert.equal(compass.tick(-500), 100);
});

test("Android's alpha turns counter-clockwise: alpha 90° is facing west", () => {
  const compass = new Compass(0);
  compass.absoluteReading({ alpha: 90 });
  assert.equal(compass.heading, 270);
  compass.absoluteReading({ alpha: null });
  assert.equal(compass.target, 270);
});

test("a phone turned to landscape faces where the screen's top points", () => {
  // Turned a quarter counter-clockwise: the device's top faces west (alpha 90°) and the
  // screen, turned by 90°, faces north.
  globalThis.screen = { orientation: { angle: 90 } };
  const android = new Compass(180);
  android.absoluteReading({ alpha: 90 });
  assert.equal(android.heading, 0);
  const ios = new Compass(180);
  ios.iosReading({ webkitCompassHeading: 270 });
  assert.equal(ios.heading, 0);
});

test("iOS gives a compass heading; a relative orientation says nothing about north", () => {
  const ios = new Compass(0);
  ios.iosReading({ webkitCompassHeading: 45 });
  assert.equal(ios.heading, 45);
  const relative = new Compass(0);
  relative.iosReading({ alpha: 30, absolute: false });
  relative.iosReading({ webkitCompassHeading: -1 });
  assert.equal(relative.active, false);
  assert.equal(relative.heading, 0);
  const absolute = new Compass(0);
  absolute.iosReading({ alpha: 30, absolute: true });
  assert.equal(absolute.heading, 330);
});

test("a magnetic heading plus the declination is the true heading, in [0, 360)", () => {
  assert.equal(trueHeading(100, 2.5), 102.5);
  assert.equal(trueHeading(10, -12.25), 357.75);
  assert.equal(trueHeading(359, 3), 2);
  assert.equal(trueHeading(45, null), 45);
  assert.equal(trueHeading(45, Number.NaN), 45);
});

test("compass readings are corrected by the declination the feed sent; a finger is not", () => {
  const compass = new Compass(0);
  compass.declinationDeg = 13.2;
  compass.iosReading({ webkitCompassHeading: 350 });
  assertNear(compass.target, 3.2);
  compass.absoluteReading({ alpha: 90 });
  assertNear(compass.target, 283.2);
  compass.declinationDeg = -5;
  compass.iosReading({ absolute: true, alpha: 0 });
  assert.equal(compass.target, 355);
  const dragged = new Compass(0);
  dragged.declinationDeg = 13.2;
  dragged.turnBy(30);
  assert.equal(dragged.heading, 30);
});

test("a declination that comes after the compass's reading corrects it; after a drag it does not", () => {
  const compass = new Compass(0);
  compass.iosReading({ webkitCompassHeading: 90 });
  assert.equal(compass.target, 90);
  compass.setDeclination(2.5);
  assert.equal(compass.target, 92.5);
  compass.setDeclination(null);
  assert.equal(compass.target, 90);
  // The compass falls silent, a finger turns the radar: the finger's heading stays.
  compass.lastReadingAt = -Infinity;
  compass.turnBy(40);
  compass.setDeclination(10);
  assert.equal(compass.target, 130);
});

test("the settings say which declination is in use", () => {
  assert.equal(declinationLabel(2.345), "Compass: true north, declination 2.3° E (WMM2025)");
  assert.equal(declinationLabel(-12.26), "Compass: true north, declination 12.3° W (WMM2025)");
  assert.equal(declinationLabel(0.01), "Compass: true north, declination 0° (WMM2025)");
  assert.equal(declinationLabel(null), "Compass: magnetic north (the daemon has no position to correct it)");
});
