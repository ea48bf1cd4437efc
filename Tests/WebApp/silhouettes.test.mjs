// silhouettes.js: kid mode's shape for each aircraft, by class, else by emitter category.

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  DEFAULT_SILHOUETTE, SILHOUETTES, SILHOUETTE_NAMES, silhouetteOf,
} from "../../Sources/Web/App/silhouettes.js";

test("silhouetteOf: every class of docs/feed.md has a shape of its own kind", () => {
  const expected = {
    heavy: "widebody", medium_jet: "jet", small: "smalljet", light: "prop", helicopter: "helicopter",
    glider: "glider", balloon: "balloon", drone: "drone", military: "fighter",
  };
  for (const [kind, shape] of Object.entries(expected)) {
    assert.equal(silhouetteOf({ identity: { class: kind } }), shape, kind);
  }
});

test("silhouetteOf: the class wins over the emitter category", () => {
  assert.equal(silhouetteOf({ category: "A3", identity: { class: "helicopter" } }), "helicopter");
  assert.equal(silhouetteOf({ category: "B2", identity: { class: "heavy" } }), "widebody");
});

test("silhouetteOf: without a class, the emitter category", () => {
  const expected = {
    A1: "prop", A2: "smalljet", A3: "jet", A4: "jet", A5: "widebody", A6: "fighter", A7: "helicopter",
    B1: "glider", B2: "balloon", B4: "prop", B6: "drone",
  };
  for (const [category, shape] of Object.entries(expected)) {
    assert.equal(silhouetteOf({ category, identity: null }), shape, category);
    assert.equal(silhouetteOf({ category, identity: { class: null } }), shape, category);
  }
});

test("silhouetteOf: neither, or values it does not know, give the jet", () => {
  assert.equal(DEFAULT_SILHOUETTE, "jet");
  for (const data of [{}, { category: null }, { category: "A0" }, { category: "C1" }, { category: "a7" },
    { identity: { class: "spaceship" } }, { identity: { class: "toString" }, category: "constructor" },
    { identity: { class: 7 } }, null, undefined]) {
    assert.equal(silhouetteOf(data), "jet", JSON.stringify(data));
  }
});

test("SILHOUETTES: at least the six the app promises, each a path, a size and whether it stands up", () => {
  for (const name of ["jet", "widebody", "prop", "helicopter", "balloon", "glider"]) {
    assert.ok(SILHOUETTE_NAMES.includes(name), name);
  }
  assert.deepEqual(SILHOUETTE_NAMES, Object.keys(SILHOUETTES));
  for (const [name, shape] of Object.entries(SILHOUETTES)) {
    assert.match(shape.path, /^M[-\d.,\sMLCQAZ]+$/, name);
    assert.ok(shape.size > 0.5 && shape.size < 1.5, name);
    assert.equal(typeof shape.upright, "boolean", name);
  }
  // Only the balloon has no nose to turn along its track.
  assert.deepEqual(SILHOUETTE_NAMES.filter((name) => SILHOUETTES[name].upright), ["balloon"]);
});

test("SILHOUETTES: a wide-body is drawn bigger than a jet, a jet bigger than a small jet or a light aircraft", () => {
  assert.ok(SILHOUETTES.widebody.size > SILHOUETTES.jet.size);
  assert.ok(SILHOUETTES.jet.size > SILHOUETTES.smalljet.size);
  assert.ok(SILHOUETTES.smalljet.size >= SILHOUETTES.prop.size);
});

test("SILHOUETTES: every shape keeps to the middle 44 units of the 64-unit box, as the plane does", () => {
  for (const [name, shape] of Object.entries(SILHOUETTES)) {
    // The end points of every segment (arcs' radii and flags are skipped: they are not places).
    const points = [];
    for (const [, command, args] of shape.path.matchAll(/([MLCQAZ])([^MLCQAZ]*)/g)) {
      const numbers = args.trim().split(/[\s,]+/).filter(Boolean).map(Number);
      if (command === "A") {
        for (let i = 0; i + 6 < numbers.length; i += 7) points.push([numbers[i + 5], numbers[i + 6]]);
      } else {
        for (let i = 0; i + 1 < numbers.length; i += 2) points.push([numbers[i], numbers[i + 1]]);
      }
    }
    assert.ok(points.length >= 4, name);
    for (const [x, y] of points) {
      assert.ok(Number.isFinite(x) && Number.isFinite(y), `${name}: ${x},${y}`);
      assert.ok(Math.abs(x) <= 22 && Math.abs(y) <= 22.5, `${name}: ${x},${y}`);
    }
  }
});
