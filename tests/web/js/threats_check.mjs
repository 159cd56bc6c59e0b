// @ts-check
// The page's words for a threat (tobruk/web/static/threats.js, describe) on the threats a fixture holds, as the
// server sends them (tests/web/test_web_threat_words.py wrote it): reads the fixture's path from the command line and
// prints the line for each as JSON.  The comparison with the terminal's words is the pytest test's.

import {readFileSync} from 'node:fs';
import {describe} from '../../../tobruk/web/static/threats.js';

/** @typedef {import('../../../tobruk/web/static/types.js').Threat} Threat */

const path = process.argv[2];
if (!path) throw new Error('usage: node threats_check.mjs FIXTURE.json');
/** @type {Threat[]} */
const threats = JSON.parse(readFileSync(path, 'utf8'));
process.stdout.write(JSON.stringify(threats.map(describe)));
