// location.js: the phone's position as the view's observer, sent again only when it moved.

import assert from "node:assert/strict";
import { test } from "node:test";

import { Location, metresBetween } from "../../Sources/Web/App/location.js";

/** Metres in a degree of latitude on a sphere of the Earth's mean radius: 6371 km × π / 180. */
const METRES_PER_DEGREE = (6371000 * Math.PI) / 180;

function assertNear(actual, expected, tolerance) {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} is not within ${tolerance} of ${expected}`);
}

/** A Location whose observers are collected. */
function watching() {
  const sent = [];
  const location = new Location((observer) => sent.push(observer), () => {});
  return { sent, location };
}

test("metresBetween: a degree of latitude is 111.2 km, of longitude half that at 60°", () => {
  assertNear(metresBetween({ lat: 0, lon: 0 }, { lat: 1, lon: 0 }), 111194.9, 0.1);
  assertNear(metresBetween({ lat: 60, lon: 5 }, { lat: 60, lon: 6 }), 111194.9 / 2, 0.1);
  assertNear(metresBetween({ lat: 52, lon: 4 }, { lat: 52, lon: 4 }), 0, 0);
  const a = { lat: 52.3, lon: 4.76 };
  const b = { lat: 52.31, lon: 4.75 };
  assert.equal(metresBetween(a, b), metresBetween(b, a));
  // 3 and 4 units apart make 5.
  const north = 3 / METRES_PER_DEGREE;
  const east = 4 / METRES_PER_DEGREE;
  assertNear(metresBetween({ lat: 0, lon: 0 }, { lat: north, lon: east }), 5, 1e-6);
});

test("the first position is sent to a millionth of a degree, the height to a metre", () => {
  const { sent, location } = watching();
  location.moved({ latitude: 52.3086123456, longitude: 4.7638949, altitude: 12.6 });
  assert.deepEqual(sent, [{ lat: 52.308612, lon: 4.763895, alt_m: 13 }]);
});

test("a height the phone does not know is left out; one out of bounds is brought within them", () => {
  const { sent, location } = watching();
  location.moved({ latitude: 10, longitude: 20, altitude: null });
  assert.deepEqual(sent[0], { lat: 10, lon: 20 });
  const high = watching();
  high.location.moved({ latitude: 10, longitude: 20, altitude: 20000 });
  assert.equal(high.sent[0].alt_m, 15000);
  const low = watching();
  low.location.moved({ latitude: 10, longitude: 20, altitude: -1000 });
  assert.equal(low.sent[0].alt_m, -600);
});

test("moves under 25 m are not sent; they count from the last position sent", () => {
  const { sent, location } = watching();
  const step = 10 / METRES_PER_DEGREE;
  location.moved({ latitude: 0, longitude: 0, altitude: 0 });
  location.moved({ latitude: step, longitude: 0, altitude: 0 });
  location.moved({ latitude: 2 * step, longitude: 0, altitude: 0 });
  assert.equal(sent.length, 1, "10 m, then 20 m from the first");
  location.moved({ latitude: 3 * step, longitude: 0, altitude: 0 });
  assert.equal(sent.length, 2, "30 m from the first");
});

test("climbing 25 m or more is a move too", () => {
  const { sent, location } = watching();
  location.moved({ latitude: 45, longitude: 7, altitude: 100 });
  location.moved({ latitude: 45, longitude: 7, altitude: 120 });
  assert.equal(sent.length, 1);
  location.moved({ latitude: 45, longitude: 7, altitude: 130 });
  assert.equal(sent.length, 2);
  assert.equal(sent[1].alt_m, 130);
});

test("a position that is not a number is ignored", () => {
  const { sent, location } = watching();
  location.moved({ latitude: Number.NaN, longitude: 7, altitude: 0 });
  location.moved({ latitude: 45, longitude: Infinity, altitude: 0 });
  assert.equal(sent.length, 0);
});

test("stopping sends no observer, and the next position is sent whatever it is", () => {
  const { sent, location } = watching();
  location.moved({ latitude: 45, longitude: 7, altitude: 100 });
  location.stop();
  location.moved({ latitude: 45, longitude: 7, altitude: 100 });
  assert.deepEqual(sent, [{ lat: 45, lon: 7, alt_m: 100 }, null, { lat: 45, lon: 7, alt_m: 100 }]);
});
