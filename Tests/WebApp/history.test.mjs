// history.js: the diary's cards, chart scaling, the rewind clock and an aircraft's stored pass,
// with hostile answers as well as good ones.

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  PASS_GAP_S, REWIND_SPEEDS, RewindClock, coverageRanges, diaryCards, iconFor, passAround, scaleSeries,
  traceToPoints,
} from "../../Sources/Web/App/history.js";

test("diaryCards: one card per extreme known, with its picture", () => {
  const cards = diaryCards({
    aircraft: 12,
    lowest: { hex: "4841ab", callsign: "KLM12", class: "medium_jet", min_altitude_ft: 1200 },
    biggest: { hex: "400001", registration: "G-XWBA", class: "heavy", type: "A35K" },
    fastest: null,
    first: { hex: "abcdef", first_seen: 0 },
  });
  assert.deepEqual(cards.map((card) => card.key), ["lowest", "biggest", "first"]);
  assert.equal(cards[0].name, "KLM12");
  assert.equal(cards[0].line, "1,200 ft");
  assert.equal(cards[1].icon, "heavy");
  assert.equal(cards[1].line, "A35K");
  assert.equal(cards[2].name, "abcdef");
  assert.deepEqual(diaryCards(null), []);
  assert.deepEqual(diaryCards("<script>"), []);
  assert.equal(iconFor("helicopter"), "helicopter");
  assert.equal(iconFor(undefined), "jet");
});

test("scaleSeries: fits the box, leaves out missing values", () => {
  const points = [
    { time: 0, aircraft: 10 }, { time: 50, aircraft: null }, { time: 100, aircraft: 30 }, { time: 200, aircraft: 20 },
  ];
  const scaled = scaleSeries(points, "aircraft", 400, 100, 0, 200);
  assert.equal(scaled.min, 10);
  assert.equal(scaled.max, 30);
  assert.deepEqual(scaled.points, [{ x: 0, y: 100 }, { x: 200, y: 0 }, { x: 400, y: 50 }]);
  assert.deepEqual(scaleSeries("nope", "aircraft", 400, 100, 0, 200).points, []);
  assert.deepEqual(scaleSeries(points, "aircraft", 400, 100, 10, 10).points, []);
  // A flat series sits within the box.
  const flat = scaleSeries([{ time: 0, v: 5 }, { time: 1, v: 5 }], "v", 10, 10, 0, 1);
  assert.ok(flat.points.every((point) => point.y >= 0 && point.y <= 10));
});

test("RewindClock: runs at its speed, stays within its range, stops at the end", () => {
  const clock = new RewindClock(1000, 2000, 0);
  assert.equal(clock.advance(5000), 1000, "paused, it stays");
  clock.setSpeed(60, 5000);
  clock.play(5000);
  assert.equal(clock.advance(6000), 1060);
  clock.setSpeed(7, 6000);
  assert.equal(clock.speed, 10, "the nearest offered speed");
  assert.ok(REWIND_SPEEDS.includes(clock.speed));
  assert.equal(clock.advance(7000), 1070);
  clock.seek(1990, 7000);
  assert.equal(clock.advance(9000), 2000);
  assert.equal(clock.playing, false);
  clock.seek(-5, 9000);
  assert.equal(clock.time, 1000);
  clock.seek(NaN, 9000);
  assert.equal(clock.time, 1000);
});

test("passAround: the pass under way at the moment, else the last before it, else the first", () => {
  const at = (times) => times.map((time) => ({ time, lat: 0, lon: 0 }));
  const points = at([100, 130, 160, 160 + PASS_GAP_S + 1, 900, 2000 + PASS_GAP_S * 3]);
  const times = (pass) => pass.map((p) => p.time);
  assert.deepEqual(times(passAround(points, 140)), [100, 130, 160]);
  assert.deepEqual(times(passAround(points, 500)), [100, 130, 160]);
  assert.deepEqual(times(passAround(points, 800)), [761, 900]);
  assert.deepEqual(times(passAround(points, 1e10)), [2000 + PASS_GAP_S * 3]);
  assert.deepEqual(times(passAround(points, 5)), [100, 130, 160]);
  assert.deepEqual(passAround([], 5), []);
  assert.deepEqual(passAround(undefined, 5), []);
});

test("traceToPoints: tar1090's rows, ground and missing altitude understood", () => {
  const points = traceToPoints({
    icao: "4841ab", timestamp: 1000,
    trace: [[0, 52, 4, 1000, 200, 90, 0, 0], [10.5, 52.1, 4.1, "ground", 10, 90, 0, null], ["x"], [20, 52.2, 4.2, null]],
  });
  assert.deepEqual(points.map((p) => [p.time, p.alt, p.ground]), [[1000, 1000, false], [1010.5, null, true], [1020, null, false]]);
  assert.deepEqual(traceToPoints({ trace: "no" }), []);
});

test("coverageRanges: the furthest range per sector and band, hostile cells left out", () => {
  const coverage = coverageRanges({
    sectors: 72, sector_deg: 5, bands_ft: [0, 5000, 10000],
    cells: [[0, 0, 12.5], [0, 2, 80], [71, 1, 40], [0, 0, 3], [72, 0, 99], [-1, 0, 99], [3, 3, 99], [5, 1, -2],
      [5, 1, NaN], "x", null, [1.5, 0, 99], [2, 0, Infinity]],
  });
  assert.equal(coverage.sectorDeg, 5);
  assert.deepEqual(coverage.bandsFt, [0, 5000, 10000]);
  assert.equal(coverage.ranges[0][0], 12.5);
  assert.equal(coverage.ranges[2][0], 80);
  assert.equal(coverage.ranges[1][71], 40);
  assert.equal(coverage.all[0], 80);
  assert.equal(coverage.maxKm, 80);
  assert.equal(coverage.all.reduce((a, b) => a + b, 0), 120);
  const none = coverageRanges(undefined);
  assert.equal(none.maxKm, 0);
  assert.equal(none.all.length, 72);
});
