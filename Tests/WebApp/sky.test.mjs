// sky.js: dead reckoning between frames at the sky's own rate (live, rewound faster, paused)
// and the selected aircraft's stored track as paths by altitude colour.

import assert from "node:assert/strict";
import { test } from "node:test";

// Paths are only built and counted here; node has no canvas.
globalThis.Path2D = class {
  constructor() { this.segments = 0; }
  moveTo() {}
  lineTo() { this.segments += 1; }
};

const { Sky } = await import("../../Sources/Web/App/sky.js");

/** A frame with one aircraft due north, flying east at 360 kt (0.1 km/s). */
function frame(seq, groundKm) {
  return {
    seq, time: seq, aircraft: [{
      icao: "abc123", azimuth_deg: 0, ground_km: groundKm, ground_speed_kt: 360,
      track_deg: 90, on_ground: false, stale: false, seen_pos_s: 0, alt_baro_ft: 12000,
    }],
  };
}

function eastAfter(rate, ms) {
  const sky = new Sky();
  sky.update(frame(1, 10), 0, 5, rate);
  const track = sky.tracks.get("abc123");
  track.locate(ms);
  return track.drawE;
}

test("dead reckoning runs at the sky's rate: live, 60 times faster, and still when paused", () => {
  const kmPerSecond = (360 * 1.852) / 3600;
  assert.ok(Math.abs(eastAfter(1, 2000) - 2 * kmPerSecond) < 1e-9);
  assert.ok(Math.abs(eastAfter(60, 2000) - 120 * kmPerSecond) < 1e-9);
  assert.equal(eastAfter(0, 2000), 0);
  // Never further than ten seconds of the sky's time past the last frame's interval.
  assert.ok(Math.abs(eastAfter(1, 60000) - 10 * kmPerSecond) < 1e-9);
});

test("setTrack: one path per altitude colour, none for too short a track", () => {
  const sky = new Sky();
  sky.setTrack([0, 0, 1000, 1, 1, 2000, 2, 2, 12000, 3, 3, null]);
  const drawn = sky.trackPaths.map((path) => path?.segments ?? 0);
  assert.equal(drawn.reduce((a, b) => a + b, 0), 3);
  assert.equal(drawn[0], 1);
  assert.equal(drawn[2], 1);
  assert.equal(drawn[drawn.length - 1], 1);
  sky.setTrack([0, 0, 1000]);
  assert.deepEqual(sky.trackPaths, []);
  sky.setTrack(null);
  assert.deepEqual(sky.trackPaths, []);
});
