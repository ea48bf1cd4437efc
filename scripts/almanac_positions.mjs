// The web app's almanac (Sources/Web/App/almanac.js) for scripts/almanac_check.py: reads one
// JSON array on standard input of objects with `ms` (milliseconds since 1970, UTC), `lat` and
// `lon` (degrees), and writes a JSON array of the same length, each entry `{ sun, moon }` as
// sunPosition and moonPosition give them.

import { moonPosition, sunPosition } from "../Sources/Web/App/almanac.js";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const samples = JSON.parse(Buffer.concat(chunks).toString("utf8"));
const answers = samples.map(({ ms, lat, lon }) => {
  const date = new Date(ms);
  return { sun: sunPosition(date, lat, lon), moon: moonPosition(date, lat, lon) };
});
process.stdout.write(JSON.stringify(answers));
