// controls.js: the range slider, logarithmic from 1 to 1000 km.

import assert from "node:assert/strict";
import { test } from "node:test";

import { rangeToSlider, sliderToRange } from "../../Sources/Web/App/controls.js";

test("the slider's ends are the feed's range limits, its middle their geometric mean", () => {
  assert.equal(sliderToRange(0), 1);
  assert.equal(sliderToRange(100), 1000);
  // √1000 = 31.62.
  assert.equal(sliderToRange(50), 31.6);
  assert.equal(rangeToSlider(1), 0);
  assert.equal(rangeToSlider(1000), 100);
});

test("each decade of range is a third of the slider", () => {
  // log₁₀ 10 / log₁₀ 1000 = 1/3, and 2/3 for 100 km.
  assert.equal(rangeToSlider(10), 33);
  assert.equal(rangeToSlider(100), 67);
  // 1000^0.33 = 10^0.99 = 9.772; 1000^0.67 = 10^2.01 = 102.33, to three figures.
  assert.equal(sliderToRange(33), 9.77);
  assert.equal(sliderToRange(67), 102);
  // log₁₀ 50 = 1.699: 56.6 hundredths of the way.
  assert.equal(rangeToSlider(50), 57);
});

test("equal steps of the slider zoom by equal factors", () => {
  // Ten steps are 1000^0.1 = 1.995 times the range, give or take the range's rounding to three figures.
  for (let value = 30; value <= 90; value += 5) {
    const factor = sliderToRange(value + 10) / sliderToRange(value);
    assert.ok(Math.abs(factor - 1000 ** 0.1) < 0.02, `${value}: ${factor}`);
  }
});

test("a range set with the slider shows at a position that gives the same range", () => {
  for (let value = 0; value <= 100; value += 1) {
    const range = sliderToRange(value);
    assert.equal(sliderToRange(rangeToSlider(range)), range, `position ${value}: ${range} km`);
    assert.ok(Math.abs(rangeToSlider(range) - value) <= 1, `position ${value}`);
  }
});

test("every position of the slider is a range of its own, so the thumb stays where it is put", () => {
  // 1000^0.01 = 1.0715 and 1000^0.02 = 1.1482: the two lowest steps after 1 km.
  assert.equal(sliderToRange(1), 1.07);
  assert.equal(sliderToRange(2), 1.15);
  for (let value = 0; value <= 100; value += 1) {
    assert.equal(rangeToSlider(sliderToRange(value)), value, `position ${value}: ${sliderToRange(value)} km`);
  }
});
