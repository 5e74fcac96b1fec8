// The layer check: each app's top-level folders (and the files at its root) in one order, lowest first. A
// module may import from its own folder and from folders below it, never from one above: the code reads
// top-down, and a folder can be understood from the ones beneath it alone. Fails on an upward import that
// is not among the few still listed as known; prints the folder arrows, and how many point up.
import fs from 'node:fs';
import path from 'node:path';

const LAYERS = {
  'apps/server/src': [
    'errors',
    'report-engine-limits',
    'config',
    'child-process',
    'worker-thread',
    'net',
    'store',
    'auth',
    'http',
    'mail',
    'jobs',
    'live',
    'conversions',
    'traffic',
    'report-plan',
    'columnar',
    'reports',
    'postback-log',
    'events',
    'costs',
    'optimization',
    'api',
    'history',
    'alerts',
    'rules',
    'landers',
    'domains',
    'imports',
    'cluster',
    'rounds',
    'api-routes',
    'app',
    'worker',
    'main',
    'backup-cli',
    'reload-cli',
    'process-boot',
    'worker-boot',
  ],
  'apps/web/src': [
    'i18n',
    'api',
    'shared',
    'components',
    'history',
    'resources',
    'reports',
    'event-tables',
    'postback-log',
    'live',
    'rules',
    'alerts',
    'backups',
    'bot-protection',
    'currency-rates',
    'first-campaign',
    'imports',
    'app',
    'main',
  ],
};

/** Upward arrows still to be taken down, each `from -> to`; the check fails on any other. */
const KNOWN = new Set([]);

const node = (root, file) => {
  const [first, ...rest] = path.relative(root, file).split(path.sep);
  return rest.length > 0 ? first : first.replace(/\.(ts|tsx|mjs|js)$/, '');
};

function sources(dir) {
  const found = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...sources(full));
    else if (/\.(ts|tsx|mjs)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) found.push(full);
  }
  return found;
}

let failed = false;
for (const [root, order] of Object.entries(LAYERS)) {
  const rank = new Map(order.map((name, index) => [name, index]));
  const arrows = new Map();
  for (const file of sources(root)) {
    const from = node(root, file);
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const to = node(root, path.resolve(path.dirname(file), match[1]));
      if (to === from) continue;
      const key = `${from} -> ${to}`;
      if (!arrows.has(key)) arrows.set(key, []);
      arrows.get(key).push(path.relative(root, file));
    }
  }
  const unranked = new Set([...arrows.keys()].flatMap((key) => key.split(' -> ')).filter((name) => !rank.has(name)));
  for (const name of unranked) {
    console.error(`${root}: "${name}" has no place in scripts/layers.mjs`);
    failed = true;
  }
  const up = [...arrows.keys()].filter((key) => {
    const [from, to] = key.split(' -> ');
    return rank.get(to) > rank.get(from);
  });
  console.log(`${root}: ${arrows.size} folder arrows, ${up.length} pointing up`);
  for (const key of up) {
    const known = KNOWN.has(`${root}: ${key}`);
    if (!known) failed = true;
    console[known ? 'log' : 'error'](
      `  ${known ? 'known' : 'UP'}: ${key} (${[...new Set(arrows.get(key))].join(', ')})`,
    );
  }
}
process.exit(failed ? 1 : 0);
