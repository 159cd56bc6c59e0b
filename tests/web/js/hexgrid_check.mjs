// @ts-check
// The page's hex-grid maths (tobruk/web/static/hexgrid.js) on the hexes and pixels of a fixture the Python side
// wrote (tests/web/test_web_javascript.py): reads the fixture's path from the command line and prints, for each
// map, each hex's centre and corners and the hex found under each pixel, as JSON.  The comparison is the pytest
// test's: this script only runs the browser's module, unchanged, under node.

import {readFileSync} from 'node:fs';
import {centre, corners, hexAt, label, layoutOf} from '../../../tobruk/web/static/hexgrid.js';

/**
 * @typedef {{name: string, size: number, origin: [number, number], hexes: string[], pixels: [number, number][]}} MapFixture
 */

const path = process.argv[2];
if (!path) throw new Error('usage: node hexgrid_check.mjs FIXTURE.json');
/** @type {MapFixture[]} */
const maps = JSON.parse(readFileSync(path, 'utf8'));

const answers = maps.map((m) => {
  const layout = layoutOf(m);
  return {
    name: m.name,
    centres: m.hexes.map((h) => centre(layout, h)),
    corners: m.hexes.map((h) => {
      const middle = centre(layout, h);
      return middle ? corners(middle, m.size) : null;
    }),
    found: m.pixels.map(([x, y]) => label(hexAt(layout, x, y))),
  };
});
process.stdout.write(JSON.stringify(answers));
