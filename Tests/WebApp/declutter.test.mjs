// declutter.js: markers nudged apart within a small radius, labels in the first free place
// beside their marker or left out, and no two labels overlapping.

import assert from "node:assert/strict";
import { test } from "node:test";

import { Declutter, MAX_PAIRS, declutter } from "../../Sources/Web/App/declutter.js";

/** Whether two boxes ({x, y, width, height}, top left corner) share any area. */
function overlap(a, b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** A marker's box, `size` square around its centre. */
function markerBox(marker, size) {
  return { x: marker.x - size / 2, y: marker.y - size / 2, width: size, height: size };
}

/** A repeatable scatter of `count` points in a `side`-pixel square (a small linear congruential generator). */
function scatter(count, side, seed = 7) {
  let state = seed;
  const next = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state / 2 ** 32) * side;
  };
  return Array.from({ length: count }, () => ({ x: next(), y: next() }));
}

test("markers already apart do not move", () => {
  const markers = [{ x: 10, y: 10, size: 8 }, { x: 30, y: 10, size: 8 }, { x: 10, y: 40, size: 8 }];
  const result = declutter(markers, []);
  assert.deepEqual(result.markers, [{ x: 10, y: 10 }, { x: 30, y: 10 }, { x: 10, y: 40 }]);
});

test("two overlapping markers part along the line between them, each by half, to the gap", () => {
  // 10 px markers 6 px apart: 5 px short of 10 + a 1 px gap; each moves 2.5 px.
  const result = declutter([{ x: 100, y: 50, size: 10 }, { x: 106, y: 50, size: 10 }], [], { maxShift: 4, gap: 1 });
  assert.deepEqual(result.markers, [{ x: 97.5, y: 50 }, { x: 108.5, y: 50 }]);
});

test("no marker moves further than maxShift, however crowded", () => {
  const markers = Array.from({ length: 30 }, (_, i) => ({ x: 200 + (i % 3), y: 200 + (i % 5), size: 12 }));
  const result = declutter(markers, [], { maxShift: 4, gap: 1 });
  result.markers.forEach((placed, i) => {
    const moved = Math.hypot(placed.x - markers[i].x, placed.y - markers[i].y);
    assert.ok(moved <= 4 + 1e-9, `marker ${i} moved ${moved} px`);
  });
  // Still crowded, but spread over more than the 3 × 5 pixels they were asked for.
  const xs = result.markers.map((m) => m.x);
  const ys = result.markers.map((m) => m.y);
  assert.ok(Math.max(...xs) - Math.min(...xs) > 7 && Math.max(...ys) - Math.min(...ys) > 7);
});

test("markers at exactly the same place part in different directions", () => {
  const markers = Array.from({ length: 4 }, () => ({ x: 50, y: 50, size: 6 }));
  const result = declutter(markers, [], { maxShift: 4, gap: 1 });
  const places = new Set(result.markers.map((m) => `${m.x.toFixed(3)},${m.y.toFixed(3)}`));
  assert.equal(places.size, 4);
});

test("a small cluster within reach ends with no two markers overlapping", () => {
  // Three 8 px markers 4 px apart in a row need 18 px between the outer two: 5 px each.
  const markers = Array.from({ length: 3 }, (_, i) => ({ x: 100 + 4 * i, y: 100, size: 8 }));
  const result = declutter(markers, [], { maxShift: 8, gap: 1 });
  for (let i = 0; i < markers.length; i += 1) {
    for (let j = i + 1; j < markers.length; j += 1) {
      const distance = Math.hypot(result.markers[i].x - result.markers[j].x, result.markers[i].y - result.markers[j].y);
      assert.ok(distance >= 8 - 0.5, `markers ${i} and ${j} are ${distance} px apart`);
    }
  }
});

test("a label goes right of its marker when that is free", () => {
  const result = declutter([{ x: 100, y: 100, size: 10 }], [{ marker: 0, width: 40, height: 12 }], { pad: 3 });
  assert.deepEqual(result.labels, [{ x: 108, y: 94, width: 40, height: 12 }]);
});

test("a label blocked on the right goes left, then above, then below, then is left out", () => {
  // The second marker sits where the first's label would go, and so on round it.
  const label = { marker: 0, width: 40, height: 12 };
  const centre = { x: 100, y: 100, size: 10 };
  const right = { x: 130, y: 100, size: 10 };
  const left = { x: 70, y: 100, size: 10 };
  const above = { x: 100, y: 85, size: 10 };
  const below = { x: 100, y: 115, size: 10 };
  const options = { maxShift: 0, pad: 3 };
  assert.deepEqual(declutter([centre, right], [label], options).labels[0], { x: 52, y: 94, width: 40, height: 12 });
  assert.deepEqual(declutter([centre, right, left], [label], options).labels[0], { x: 80, y: 80, width: 40, height: 12 });
  assert.deepEqual(declutter([centre, right, left, above], [label], options).labels[0],
    { x: 80, y: 108, width: 40, height: 12 });
  assert.equal(declutter([centre, right, left, above, below], [label], options).labels[0], null);
});

test("the label placed first keeps its place; the next finds another or none", () => {
  // Two markers side by side: the first label takes the right, which covers the second marker's
  // right as well; the second's label goes to its left... where the first marker is: above.
  const markers = [{ x: 100, y: 100, size: 10 }, { x: 100, y: 120, size: 10 }];
  const labels = [{ marker: 0, width: 40, height: 12 }, { marker: 1, width: 40, height: 12 }];
  const result = declutter(markers, labels, { maxShift: 0, pad: 3 });
  assert.deepEqual(result.labels[0], { x: 108, y: 94, width: 40, height: 12 });
  assert.deepEqual(result.labels[1], { x: 108, y: 114, width: 40, height: 12 });
  // Now so close that the second's right overlaps the first label: it goes left.
  const closer = declutter([{ x: 100, y: 100, size: 10 }, { x: 100, y: 110, size: 10 }], labels, { maxShift: 0, pad: 3 });
  assert.deepEqual(closer.labels[1], { x: 52, y: 104, width: 40, height: 12 });
});

test("in a crowd of 300 no two labels overlap, nor a label a marker, and most are placed", () => {
  const points = scatter(300, 600);
  const markers = points.map((p, i) => ({ x: p.x, y: p.y, size: 10 + (i % 4) * 4 }));
  const labels = markers.map((_, i) => ({ marker: i, width: 30 + (i % 5) * 7, height: 14 }));
  const result = declutter(markers, labels);
  const placed = result.labels.filter((label) => label !== null);
  for (let i = 0; i < placed.length; i += 1) {
    for (let j = i + 1; j < placed.length; j += 1) {
      assert.ok(!overlap(placed[i], placed[j]), `labels ${JSON.stringify(placed[i])} and ${JSON.stringify(placed[j])}`);
    }
  }
  result.labels.forEach((label, i) => {
    if (!label) return;
    result.markers.forEach((marker, k) => {
      assert.ok(!overlap(label, markerBox(marker, markers[k].size)), `label ${i} covers marker ${k}`);
    });
  });
  assert.ok(placed.length > 100, `only ${placed.length} labels placed`);
  assert.ok(placed.length < 300, "a crowd this dense cannot label everything");
});

test("the same boxes give the same answer, and a Declutter reused gives it again", () => {
  const points = scatter(120, 300, 11);
  const markers = points.map((p) => ({ ...p, size: 14 }));
  const labels = markers.map((_, i) => ({ marker: i, width: 42, height: 14 }));
  assert.deepEqual(declutter(markers, labels), declutter(markers, labels));

  const work = new Declutter();
  const run = () => {
    work.reset();
    for (const m of markers) work.addMarker(m.x, m.y, m.size);
    work.spread(4, 1);
    work.startLabels();
    return labels.map((l) => (work.placeLabel(l.marker, l.width, l.height, 3) === -1 ? null : [work.labelX, work.labelY]));
  };
  const first = run();
  run(); // the arrays are kept: a second frame must not see the first's boxes
  assert.deepEqual(run(), first);
  const once = declutter(markers, labels).labels.map((l) => (l ? [l.x, l.y] : null));
  assert.deepEqual(first, once);
});

test("a crowd past MAX_PAIRS touching pairs nudges only the first pairs found, each within maxShift", () => {
  // 60 markers on one spot: 1770 touching pairs.
  const markers = Array.from({ length: 60 }, (_, i) => ({ x: 100 + (i % 7) * 0.5, y: 100 + (i % 11) * 0.5, size: 10 }));
  const work = new Declutter();
  for (const m of markers) work.addMarker(m.x, m.y, m.size);
  work.spread(4, 1);
  assert.equal(work.pairCount, MAX_PAIRS);
  for (let i = 0; i < markers.length; i += 1) {
    assert.ok(Math.hypot(work.x[i] - markers[i].x, work.y[i] - markers[i].y) <= 4 + 1e-9);
  }
});

test("a label keeps off an obstacle added after the markers (the rings' labels)", () => {
  const work = new Declutter();
  work.addMarker(100, 100, 10);
  work.spread(4, 1);
  work.startLabels();
  work.addObstacle(110, 90, 30, 12); // where the label would go, right of the marker
  assert.equal(work.placeLabel(0, 40, 12, 3), 1); // so it goes left
  assert.deepEqual([work.labelX, work.labelY], [52, 94]);
});

test("markers of no size and no gap neither move nor break the grid", () => {
  const result = declutter([{ x: 5, y: 5, size: 0 }, { x: 5, y: 5, size: 0 }], [], { maxShift: 4, gap: 0 });
  assert.deepEqual(result.markers, [{ x: 5, y: 5 }, { x: 5, y: 5 }]);
});
