// radar.js: the spacing of the scope's range rings and their labels.

import assert from "node:assert/strict";
import { test } from "node:test";

import { kmLabel, ringStep } from "../../Sources/Web/App/radar.js";
import { RANGE_MAX_KM, RANGE_MIN_KM } from "../../Sources/Web/App/settings.js";

test("ringStep picks a round spacing for the range", () => {
  // 50 km: 10 km would make 5 rings, 20 km makes 2.5.
  assert.equal(ringStep(50), 20);
  assert.equal(ringStep(40), 10);
  assert.equal(ringStep(1), 0.25);
  assert.equal(ringStep(100), 25);
  assert.equal(ringStep(1000), 250);
});

test("ringStep allows a hair over four rings (4.01) before taking the next spacing", () => {
  // 100.2 / 25 = 4.008; 100.5 / 25 = 4.02.
  assert.equal(ringStep(100.2), 25);
  assert.equal(ringStep(100.5), 50);
});

test("ringStep past the largest spacing keeps the largest", () => {
  assert.equal(ringStep(5000), 500);
});

test("ringStep gives two to four rings over every range the radar allows", () => {
  // The spacings grow by at most a factor 2, so the first that gives at most 4.01 rings
  // gives more than 2.
  for (let range = RANGE_MIN_KM; range <= RANGE_MAX_KM; range *= 1.01) {
    const rings = range / ringStep(range);
    assert.ok(rings >= 2 && rings <= 4.01, `${range} km: ${rings} rings`);
  }
});

test("kmLabel: whole km without decimals, tenths above 1 km, hundredths below", () => {
  assert.equal(kmLabel(50), "50 km");
  assert.equal(kmLabel(1), "1 km");
  assert.equal(kmLabel(2.5), "2.5 km");
  assert.equal(kmLabel(0.25), "0.25 km");
  assert.equal(kmLabel(0.75), "0.75 km");
  // A range of three significant digits after zooming: a tenth is enough on the scope.
  assert.equal(kmLabel(33.8), "33.8 km");
  assert.equal(kmLabel(3.38), "3.4 km");
  // Rings added up from 0.1 km steps carry binary noise the label hides.
  assert.equal(kmLabel(0.1 + 0.2), "0.30 km");
  assert.equal(kmLabel(2.5 * 3), "7.5 km");
});
