// settings.js: what the phone remembers between visits, each field checked on the way in.

import assert from "node:assert/strict";
import { test } from "node:test";

import { DEFAULTS, RANGE_MAX_KM, RANGE_MIN_KM, clamp, loadSettings, saveSettings } from "../../Sources/Web/App/settings.js";

/** A local storage in memory, with `text` as the stored settings when given. */
function storing(text) {
  const items = new Map();
  if (text !== undefined) items.set("aviator-adsb.settings", text);
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => { items.set(key, String(value)); },
  };
}

test("clamp keeps numbers within the bounds and replaces anything else", () => {
  assert.equal(clamp(5, 1, 10, 0), 5);
  assert.equal(clamp(1, 1, 10, 0), 1);
  assert.equal(clamp(-3, 1, 10, 0), 1);
  assert.equal(clamp(11, 1, 10, 0), 10);
  assert.equal(clamp(Number.NaN, 1, 10, 7), 7);
  assert.equal(clamp(Infinity, 1, 10, 7), 7);
  assert.equal(clamp(-Infinity, 1, 10, 7), 7);
  assert.equal(clamp("5", 1, 10, 7), 7);
  assert.equal(clamp(null, 1, 10, 7), 7);
  assert.equal(clamp(undefined, 1, 10, null), null);
});

test("a first visit, or a storage that cannot be read, starts with the defaults", () => {
  const throwing = { getItem: () => { throw new Error("denied"); } };
  for (const storage of [storing(), storing("not json"), storing("null"), storing("[]"), throwing, null]) {
    assert.deepEqual(loadSettings(storage), { ...DEFAULTS });
  }
});

test("stored settings come back as they were saved", () => {
  const storage = storing();
  const settings = {
    rangeKm: 120, minAltFt: 1000, maxAltFt: 30000, maxDistanceKm: 80, hideOnGround: true, labels: false,
    sun: true, kid: true, kidGround: true, chimeKm: 25, useLocation: true, useCompass: true, headingDeg: 271.5,
    skyFovDeg: 72,
  };
  saveSettings(settings, storage);
  assert.deepEqual(loadSettings(storage), settings);
});

test("numbers out of bounds are brought within them", () => {
  const settings = loadSettings(storing(JSON.stringify({
    rangeKm: 5000, chimeKm: 0, headingDeg: 360, minAltFt: -9000, maxAltFt: 250000, maxDistanceKm: 0, skyFovDeg: 170,
  })));
  assert.equal(settings.skyFovDeg, 100, "the sky view's field of view at most 100°");
  assert.equal(loadSettings(storing('{"skyFovDeg": 5}')).skyFovDeg, 30);
  assert.equal(settings.rangeKm, RANGE_MAX_KM);
  assert.equal(settings.chimeKm, 1);
  assert.equal(settings.headingDeg, 359.99);
  assert.equal(settings.minAltFt, -2000);
  assert.equal(settings.maxAltFt, 100000);
  assert.equal(settings.maxDistanceKm, 0.1);
  assert.equal(loadSettings(storing('{"rangeKm": 0.2}')).rangeKm, RANGE_MIN_KM);
});

test("fields of the wrong kind take their default", () => {
  const settings = loadSettings(storing(JSON.stringify({
    rangeKm: "20", kid: "true", labels: 0, sun: null, chimeKm: [5], headingDeg: {}, minAltFt: "high",
  })));
  assert.equal(settings.rangeKm, DEFAULTS.rangeKm);
  assert.equal(settings.kid, false);
  assert.equal(settings.labels, true);
  assert.equal(settings.sun, false);
  assert.equal(settings.chimeKm, DEFAULTS.chimeKm);
  assert.equal(settings.headingDeg, DEFAULTS.headingDeg);
  assert.equal(settings.minAltFt, null, "an unreadable filter is no filter");
});

test("saving into a full or refused storage loses only the memory", () => {
  const full = { setItem: () => { throw new Error("QuotaExceededError"); } };
  assert.doesNotThrow(() => saveSettings({ ...DEFAULTS }, full));
  assert.doesNotThrow(() => saveSettings({ ...DEFAULTS }, null));
});
