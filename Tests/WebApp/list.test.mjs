// list.js: the order of the list, aircraft flying first (nearest first), then those on the ground.

import assert from "node:assert/strict";
import { test } from "node:test";

import { flyingFirst } from "../../Sources/Web/App/list.js";

const track = (icao, groundKm, onGround) => ({ icao, data: { icao, ground_km: groundKm, on_ground: onGround } });

test("flyingFirst: those flying nearest first, then those on the ground nearest first", () => {
  const tracks = [
    track("parked-near", 0.5, true), track("high-far", 80, false), track("taxiing", 2.1, true),
    track("landing", 3, false), track("unknown", 1.2, null), track("no-distance", null, false),
  ];
  assert.deepEqual(tracks.sort(flyingFirst).map((t) => t.icao),
    ["unknown", "landing", "high-far", "no-distance", "parked-near", "taxiing"]);
});

test("flyingFirst: without aircraft on the ground it is nearest first", () => {
  const tracks = [track("c", 30, false), track("a", 1, false), track("b", 12, undefined)];
  assert.deepEqual(tracks.sort(flyingFirst).map((t) => t.icao), ["a", "b", "c"]);
});
