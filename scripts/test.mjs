#!/usr/bin/env node
// `npm test`: typecheck, lint, unit, API and browser tests, then one closing line summing every suite:
// `N passed, N failed` (skips are listed per suite and counted on the line before). Exits non-zero when anything failed.
// Under CI=true a suite missing what it needs (Chromium here; PostgreSQL or Redis in the API tests) fails, never skips.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const results = join(root, '.test-results');
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });

const only = process.argv.slice(2);
// A limit that catches a hang, not a slow machine: the API suite's times on the 2-core machines seen so
// far are in bench/README.md (nineteenth session).
const SUITE_TIMEOUT_MS = 50 * 60_000;
const summary = [];

function run(command, args, options = {}) {
  const shown = [command, ...args].join(' ');
  console.log(`\n\x1b[1m▶ ${shown}\x1b[0m`);
  // No suite may hang CI: each gets at most SUITE_TIMEOUT_MS, then it is killed and counted as failed.
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', timeout: SUITE_TIMEOUT_MS, ...options });
  if (result.error) console.error(`\x1b[31m${shown}: ${result.error.message}\x1b[0m`);
  return result.status === 0;
}

/** A suite that is one check: passes or fails as a whole. */
function check(name, command, args) {
  if (only.length && !only.includes(name)) return;
  const ok = run(command, args);
  summary.push({ name, passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0 });
}

/** A vitest suite: counts come from its JSON report. */
function vitest(name, project, extraEnv = {}) {
  if (only.length && !only.includes(name)) return;
  const report = join(results, `${name}.json`);
  const ok = run(
    'npx',
    ['vitest', 'run', '--root', project, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    { env: { ...process.env, ...extraEnv } },
  );
  if (!existsSync(report)) {
    summary.push({ name, passed: 0, failed: 1, skipped: 0, note: 'the run crashed before reporting' });
    return;
  }
  const json = JSON.parse(readFileSync(report, 'utf8'));
  const failed = json.numFailedTests + (ok || json.numFailedTests > 0 ? 0 : 1);
  summary.push({
    name,
    passed: json.numPassedTests,
    failed,
    skipped: json.numPendingTests + json.numTodoTests,
    note: ok || json.numFailedTests > 0 ? undefined : 'the run failed outside any test',
  });
}

function skipLoudly(name, why) {
  console.warn(`\n\x1b[41;97m SKIPPED ${name}: ${why} \x1b[0m\n`);
  summary.push({ name, passed: 0, failed: 0, skipped: 1, note: why });
}

/** Under CI=true, where everything a suite needs is installed (.ci/run), a suite that cannot run fails. */
function skipOrFailInCI(name, why) {
  if (process.env.CI !== 'true') return skipLoudly(name, why);
  console.error(`\n\x1b[41;97m FAILED ${name}: ${why} \x1b[0m\n`);
  summary.push({ name, passed: 0, failed: 1, skipped: 0, note: why });
}

for (const project of ['packages/domain', 'apps/server', 'apps/web', 'e2e', 'bench']) {
  check(`typecheck:${project}`, 'npx', ['tsc', '-p', project]);
}
check('lint', 'npx', ['biome', 'ci', '.']);
check('layers', 'node', ['scripts/layers.mjs']);
vitest('unit:domain', 'packages/domain');
vitest('unit:web', 'apps/web');
vitest('api', 'apps/server');

if (!only.length || only.includes('browser')) {
  // The browser the tests drive is Debian's Chromium. Installing it is .ci/run's job (or yours), not npm test's.
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromium)) {
    skipOrFailInCI('browser', `Chromium not found at ${chromium}: run 'apt-get install -y chromium' (.ci/run does)`);
  } else if (!run('npm', ['run', 'build', '--workspace', 'apps/web'])) {
    summary.push({ name: 'browser', passed: 0, failed: 1, skipped: 0, note: 'the dashboard did not build' });
  } else {
    vitest('browser', 'e2e');
  }
}

console.log('\n\x1b[1mSuites\x1b[0m');
for (const suite of summary) {
  const note = suite.note ? `  (${suite.note})` : '';
  console.log(
    `  ${suite.name.padEnd(28)} ${suite.passed} passed, ${suite.failed} failed, ${suite.skipped} skipped${note}`,
  );
}
const total = (key) => summary.reduce((sum, suite) => sum + suite[key], 0);
console.log(`(${total('skipped')} skipped)`);
console.log(`${total('passed')} passed, ${total('failed')} failed`);
process.exit(total('failed') > 0 ? 1 : 0);
