// kid.js: kid mode shows aircraft in the air, and those on the ground only when asked.

import assert from "node:assert/strict";
import { test } from "node:test";

import { kidShows } from "../../Sources/Web/App/kid.js";

test("kidShows: aircraft flying, or not known to be on the ground, always", () => {
  for (const showGround of [false, true]) {
    assert.equal(kidShows({ on_ground: false }, showGround), true);
    assert.equal(kidShows({ on_ground: null }, showGround), true);
    assert.equal(kidShows({}, showGround), true);
  }
});

test("kidShows: aircraft on the ground only when Settings asks for them", () => {
  assert.equal(kidShows({ on_ground: true }, false), false);
  assert.equal(kidShows({ on_ground: true }, true), true);
});
