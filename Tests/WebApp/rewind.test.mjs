// rewind.js's pure parts: how often a step is taken at each speed, the address of the stored
// sky (numbers the daemon's strict query check accepts) and the label of a moment.

import assert from "node:assert/strict";
import { test } from "node:test";

import { rewindLabel, skyAddress, stepIntervalMs } from "../../Sources/Web/App/rewind.js";

test("stepIntervalMs: a step a second at 1x, four a second faster", () => {
  assert.equal(stepIntervalMs(1), 1000);
  assert.equal(stepIntervalMs(10), 250);
  assert.equal(stepIntervalMs(60), 250);
});

test("skyAddress: whole seconds, plain decimals, the observer only when it is whole", () => {
  assert.equal(
    skyAddress(1796674930.8, { lat: 52.3, lon: 4.75, alt_m: 12 }, { range_km: 50 }),
    "data/history/sky?at=1796674930&lat=52.3&lon=4.75&alt_m=12&range_km=50");
  assert.equal(
    skyAddress(10, { lat: -33.8688197123, lon: 151.2092957 }, { range_km: 12.3456 }),
    "data/history/sky?at=10&lat=-33.86882&lon=151.209296&range_km=12.346");
  assert.equal(skyAddress(10, { lat: 1e-9, lon: -0 }, { range_km: 0.5 }), "data/history/sky?at=10&lat=0&lon=0&range_km=0.5");
  assert.equal(skyAddress(10, { lat: 52 }, { range_km: NaN }), "data/history/sky?at=10");
  assert.equal(skyAddress(-5, null, { range_km: -1 }), "data/history/sky?at=0");
  assert.equal(skyAddress(5, null), "data/history/sky?at=5");
  // The app's filters as the feed gets them; those unset (null) left out.
  assert.equal(
    skyAddress(5, null, { range_km: 50, min_alt_ft: 1000, max_alt_ft: null, max_distance_km: 25, hide_on_ground: true }),
    "data/history/sky?at=5&range_km=50&min_alt_ft=1000&max_distance_km=25&hide_on_ground=1");
  // Every number matches the daemon's check: a sign, digits, and at most 7 decimals.
  const address = skyAddress(123, { lat: 89.9999999999, lon: -179.123456789, alt_m: -430.25 }, { range_km: 399.99999 });
  for (const part of address.split("?")[1].split("&").filter((p) => !p.startsWith("hide_on_ground"))) {
    assert.match(part.split("=")[1], /^-?\d{1,6}(\.\d{1,7})?$/, part);
  }
});

test("rewindLabel: the time of day today, with the date on another day", () => {
  const now = Date.UTC(2026, 11, 7, 12, 0, 0) / 1000;
  assert.match(rewindLabel(now - 90, now), /^\d\d:\d\d:\d\d$/);
  assert.match(rewindLabel(now - 3 * 86400, now), /^\w{3} \d{1,2} \w{3} \d\d:\d\d:\d\d$/);
});
