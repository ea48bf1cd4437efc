// palette.js: the two themes, and the altitude colours of trails and the legend.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { THEMES, altitudeBucket, bucketColor } from "../../Sources/Web/App/palette.js";

const style = readFileSync(new URL("../../Sources/Web/App/style.css", import.meta.url), "utf8");

/** WCAG 2's relative luminance of a #rrggbb colour. */
function luminance(hex) {
  const [r, g, b] = [1, 3, 5].map((at) => {
    const channel = parseInt(hex.slice(at, at + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2's contrast ratio of two #rrggbb colours, from 1 to 21. */
function contrast(a, b) {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/** The colours of a `--altitudes` gradient in the rule of style.css starting with `selector`. */
function legendColours(selector) {
  const rule = style.slice(style.indexOf(`${selector} {`));
  const gradient = rule.slice(0, rule.indexOf("}")).match(/--altitudes:\s*linear-gradient\(to right,([^)]*)\)/);
  assert.ok(gradient, `no --altitudes gradient in ${selector}`);
  return gradient[1].split(",").map((colour) => colour.trim());
}

test("altitudeBucket: a colour for every 5000 ft from the ground to 40 000 ft and above", () => {
  assert.equal(altitudeBucket(0), 0);
  assert.equal(altitudeBucket(4999), 0);
  assert.equal(altitudeBucket(5000), 1);
  assert.equal(altitudeBucket(12500), 2);
  assert.equal(altitudeBucket(35000), 7);
  assert.equal(altitudeBucket(39999), 7);
  assert.equal(altitudeBucket(40000), 8);
  assert.equal(altitudeBucket(60000), 8);
});

test("altitudeBucket puts below the sea's level with the ground, and unknown after the last", () => {
  assert.equal(altitudeBucket(-1200), 0);
  // 0, 5000, ..., 40 000 ft: nine colours, so the unknown altitude is bucket 9.
  assert.equal(altitudeBucket(null), 9);
  assert.equal(altitudeBucket(undefined), 9);
});

test("bucketColor walks a theme's altitude colours and ends with the unknown colour", () => {
  for (const theme of Object.values(THEMES)) {
    assert.equal(theme.altitudes.length, 9);
    assert.equal(bucketColor(theme, altitudeBucket(0)), theme.altitudes[0]);
    assert.equal(bucketColor(theme, altitudeBucket(40000)), theme.altitudes[8]);
    assert.equal(bucketColor(theme, altitudeBucket(null)), theme.unknownAltitude);
    assert.equal(new Set(theme.altitudes).size, 9, "nine different colours");
    assert.ok(!theme.altitudes.includes(theme.unknownAltitude));
  }
  assert.equal(bucketColor(THEMES.night, 0), "#ff5a3c");
  assert.equal(bucketColor(THEMES.sun, 0), "#c0140a");
});

test("the legend in style.css has the same colours in the same order as the trails", () => {
  assert.deepEqual(legendColours(":root"), THEMES.night.altitudes);
  assert.deepEqual(legendColours("body.sun"), THEMES.sun.altitudes);
});

test("every altitude colour stands out from its theme's background (4.5:1 or more)", () => {
  for (const [name, theme] of Object.entries(THEMES)) {
    for (const colour of [...theme.altitudes, theme.unknownAltitude]) {
      const ratio = contrast(colour, theme.background);
      assert.ok(ratio >= 4.5, `${name}: ${colour} on ${theme.background} is ${ratio.toFixed(2)}:1`);
    }
  }
});

test("the contrast helper itself: black on white is 21:1, a colour on itself 1:1", () => {
  assert.ok(Math.abs(contrast("#000000", "#ffffff") - 21) < 1e-9);
  assert.ok(Math.abs(contrast("#39ff7a", "#39ff7a") - 1) < 1e-9);
});
