import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `npm start` builds the dashboard and the server only when their sources changed, and two starts at
// once must not break each other (scripts/build-cache.mjs). Each start here is its own process, as two
// `npm start`s are, running the same build-if-changed on one folder with a build that takes a while and
// writes its files one by one (as Vite writes a file, then its .br beside it).

const CACHE = pathToFileURL(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../scripts/build-cache.mjs'),
).href;

/** A start: builds `project/out/dist` from `project/src` unless current; the build is logged to builds.log. */
const START = `
import fs from 'node:fs';
import path from 'node:path';
const { buildIfChanged } = await import(process.env.CACHE);
const project = process.env.PROJECT;
const result = await buildIfChanged({
  name: 'test',
  dir: path.join(project, 'out/dist'),
  root: project,
  inputs: [path.join(project, 'src')],
  log: () => {},
  build: async (tmp) => {
    fs.appendFileSync(path.join(project, 'builds.log'), process.pid + '\\n');
    fs.mkdirSync(path.join(tmp, 'assets'), { recursive: true });
    const source = fs.readFileSync(path.join(project, 'src/app.txt'), 'utf8');
    for (let i = 0; i < 5; i += 1) {
      fs.writeFileSync(path.join(tmp, 'assets', 'app.js'), source);
      await new Promise((resolve) => setTimeout(resolve, 150));
      fs.writeFileSync(path.join(tmp, 'assets', 'app.js.br'), source);
    }
  },
});
process.stdout.write(JSON.stringify(result));
`;

interface Started {
  code: number;
  output: string;
}

function start(project: string): Promise<Started> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', START], {
      env: { ...process.env, CACHE, PROJECT: project },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

const builds = (project: string) =>
  existsSync(path.join(project, 'builds.log'))
    ? readFileSync(path.join(project, 'builds.log'), 'utf8').trim().split('\n').length
    : 0;

describe('build only when the sources changed, swapped in whole', () => {
  let project: string;
  const dist = () => path.join(project, 'out/dist');

  beforeAll(async () => {
    project = await mkdtemp(path.join(tmpdir(), 'switchyard-build-cache-'));
    mkdirSync(path.join(project, 'src'));
    // A folder built before builds were swapped in (a plain `vite build`): replaced by the first swap.
    mkdirSync(path.join(project, 'out/dist'), { recursive: true });
    writeFileSync(path.join(project, 'out/dist/index.html'), 'an older build');
    writeFileSync(path.join(project, 'src/app.txt'), 'version 1');
  });

  afterAll(async () => {
    await rm(project, { recursive: true, force: true });
  });

  it('builds once for two starts at once; both find the same whole build', async () => {
    const [first, second] = await Promise.all([start(project), start(project)]);
    expect(first.code, first.output).toBe(0);
    expect(second.code, second.output).toBe(0);
    expect(builds(project)).toBe(1);
    const results = [JSON.parse(first.output), JSON.parse(second.output)] as { built: boolean; dir: string }[];
    expect(results.map((result) => result.built).sort()).toEqual([false, true]);
    expect(results[0]!.dir).toBe(results[1]!.dir);
    expect(readFileSync(path.join(dist(), 'assets/app.js.br'), 'utf8')).toBe('version 1');
    expect(readlinkSync(dist())).toBe(path.basename(results[0]!.dir));
    // No lock is left behind; the older folder was moved aside, not mixed into the new build.
    expect(existsSync(path.join(project, 'out/.dist.lock'))).toBe(false);
    expect(existsSync(path.join(dist(), 'index.html'))).toBe(false);
  }, 60_000);

  it('builds nothing when nothing changed', async () => {
    const again = await start(project);
    expect(again.code, again.output).toBe(0);
    expect((JSON.parse(again.output) as { built: boolean }).built).toBe(false);
    expect(builds(project)).toBe(1);
  }, 30_000);

  it('swaps a rebuild in whole: a reader meanwhile always finds every file, of one build or the other', async () => {
    writeFileSync(path.join(project, 'src/app.txt'), 'version 2');
    const seen = new Set<string>();
    const missing: string[] = [];
    let done = false;
    const reader = (async () => {
      while (!done) {
        for (const file of ['assets/app.js', 'assets/app.js.br']) {
          try {
            seen.add(readFileSync(path.join(dist(), file), 'utf8'));
          } catch (error) {
            missing.push(`${file}: ${(error as Error).message}`);
          }
        }
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    const rebuilt = await start(project);
    done = true;
    await reader;
    expect(rebuilt.code, rebuilt.output).toBe(0);
    expect(missing).toEqual([]);
    expect([...seen].sort()).toEqual(['version 1', 'version 2']);
    expect(builds(project)).toBe(2);
    expect(readFileSync(path.join(dist(), 'assets/app.js.br'), 'utf8')).toBe('version 2');
  }, 60_000);

  it('takes over the lock of a start that died while building', async () => {
    writeFileSync(path.join(project, 'src/app.txt'), 'version 3');
    const lock = path.join(project, 'out/.dist.lock');
    mkdirSync(lock);
    // A process id that is not running: the highest Linux allows is 4194304.
    writeFileSync(path.join(lock, 'owner'), '4194303');
    const started = await start(project);
    expect(started.code, started.output).toBe(0);
    expect(readFileSync(path.join(dist(), 'assets/app.js'), 'utf8')).toBe('version 3');
    expect(existsSync(lock)).toBe(false);
  }, 60_000);
});
