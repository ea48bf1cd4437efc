// card.js: the advice on the card of where to turn and look.

import assert from "node:assert/strict";
import { test } from "node:test";

import { turnAdvice } from "../../Sources/Web/App/card.js";

test("within 8° either way the aircraft is straight ahead", () => {
  assert.equal(turnAdvice(0, null), "straight ahead");
  assert.equal(turnAdvice(8, null), "straight ahead");
  assert.equal(turnAdvice(-8, null), "straight ahead");
  assert.equal(turnAdvice(8.01, null), "turn right 8°");
  assert.equal(turnAdvice(-8.01, null), "turn left 8°");
});

test("otherwise it says which way and how far, in whole degrees", () => {
  assert.equal(turnAdvice(40, null), "turn right 40°");
  assert.equal(turnAdvice(-40, null), "turn left 40°");
  assert.equal(turnAdvice(8.5, null), "turn right 9°");
  assert.equal(turnAdvice(-40.5, null), "turn left 41°");
  assert.equal(turnAdvice(180, null), "turn right 180°");
  assert.equal(turnAdvice(-179.6, null), "turn left 180°");
});

test("it says how far to look up, or that the aircraft is low", () => {
  assert.equal(turnAdvice(40, 12.4), "turn right 40°, look up 12°");
  assert.equal(turnAdvice(0, 0.5), "straight ahead, look up 1°");
  assert.equal(turnAdvice(0, 89.6), "straight ahead, look up 90°");
  assert.equal(turnAdvice(-20, 0.4), "turn left 20°, low on the horizon");
  assert.equal(turnAdvice(-20, 0), "turn left 20°, low on the horizon");
  assert.equal(turnAdvice(-20, -3), "turn left 20°, low on the horizon");
  assert.equal(turnAdvice(20, undefined), "turn right 20°");
});
