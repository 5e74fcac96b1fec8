// Build an output only when its sources changed, and swap it in whole.
//
// `<dir>` (e.g. apps/web/dist) is a symbolic link to a sibling `.dist-<id>` directory holding one build and
// the hash of the sources it was built from (`.source-hash`). A start whose sources hash the same finds the
// link current and builds nothing. Otherwise it takes a lock (a directory beside the output, so two starts
// at once build once: the second waits, then finds the first's build current), builds into a fresh
// `.dist-<id>` folder, and points the link at it with one rename(2), which replaces the old link atomically:
// a reader sees the old build or the new one, never a half-written or emptied folder. A process already
// running keeps reading its own build (servers resolve the link once at start), so the last few builds stay.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const HASH_FILE = '.source-hash';
const KEEP_BUILDS = 3;
const LOCK_STALE_MS = 10 * 60_000;

/** Every file under `inputs` (files or folders; node_modules, dist and dot-folders left out), sorted. */
function listFiles(inputs, exclude) {
  const files = [];
  const walk = (entry) => {
    let stat;
    try {
      stat = fs.statSync(entry);
    } catch {
      return; // An optional input (a lockfile, public/) that is not there.
    }
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(entry)) {
        if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
        walk(path.join(entry, name));
      }
    } else if (stat.isFile() && !exclude?.test(entry)) files.push(entry);
  };
  for (const input of inputs) walk(input);
  return files.sort();
}

/** The hash of the sources: each file's path (relative to `root`) and content, plus `extra` (e.g. the Node version). */
export function sourceHash({ root, inputs, exclude, extra = '' }) {
  const hash = createHash('sha256');
  hash.update(extra);
  for (const file of listFiles(inputs, exclude)) {
    hash.update(`\0${path.relative(root, file)}\0`);
    hash.update(fs.readFileSync(file));
  }
  return hash.digest('hex');
}

/** The hash the build behind `dir` was made from, or undefined when there is none. */
export function builtHash(dir) {
  try {
    return fs.readFileSync(path.join(dir, HASH_FILE), 'utf8').trim();
  } catch {
    return undefined;
  }
}

function processAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Holds `lockDir` (mkdir is atomic) until released; takes over a lock whose owner died or that is too old. */
async function acquireLock(lockDir, onWait) {
  let told = false;
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      fs.writeFileSync(path.join(lockDir, 'owner'), String(process.pid));
      return () => fs.rmSync(lockDir, { recursive: true, force: true });
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    let stale = false;
    try {
      const owner = Number(fs.readFileSync(path.join(lockDir, 'owner'), 'utf8'));
      const age = Date.now() - fs.statSync(lockDir).mtimeMs;
      stale = (owner > 0 && !processAlive(owner)) || age > LOCK_STALE_MS;
    } catch {
      // Owner not written yet (it just made the folder), or the lock just went: try again shortly.
    }
    if (stale) {
      // Renamed away first, so that of two waiters taking over, only one removes it.
      const aside = `${lockDir}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
      try {
        fs.renameSync(lockDir, aside);
        fs.rmSync(aside, { recursive: true, force: true });
      } catch {}
      continue;
    }
    if (!told) {
      onWait?.();
      told = true;
    }
    await sleep(200);
  }
}

/** Removes builds beside `dir` other than the newest `KEEP_BUILDS` and half-made ones of dead builders. */
function prune(dir, current) {
  const parent = path.dirname(dir);
  const prefix = `.${path.basename(dir)}-`;
  const builds = [];
  for (const name of fs.readdirSync(parent)) {
    if (!name.startsWith(prefix)) continue;
    const full = path.join(parent, name);
    const tmp = /^tmp-(\d+)-/.exec(name.slice(prefix.length));
    if (tmp) {
      if (!processAlive(Number(tmp[1]))) fs.rmSync(full, { recursive: true, force: true });
      continue;
    }
    if (full !== current) builds.push({ full, mtime: fs.statSync(full).mtimeMs });
  }
  builds.sort((a, b) => b.mtime - a.mtime);
  for (const old of builds.slice(KEEP_BUILDS - 1)) fs.rmSync(old.full, { recursive: true, force: true });
}

/** Points the link `dir` at `target` (a sibling folder) in one rename; a real folder there is moved aside first. */
function swapIn(dir, target) {
  const parent = path.dirname(dir);
  let stat;
  try {
    stat = fs.lstatSync(dir);
  } catch {}
  if (stat && !stat.isSymbolicLink()) {
    // A folder from before builds were swapped in (a plain `vite build`): kept as an old build, pruned later.
    fs.renameSync(dir, path.join(parent, `.${path.basename(dir)}-old-${Date.now()}`));
  }
  const link = path.join(parent, `.${path.basename(dir)}-link-${process.pid}-${randomBytes(4).toString('hex')}`);
  fs.symlinkSync(path.basename(target), link, 'dir');
  fs.renameSync(link, dir);
}

/**
 * Builds `dir` with `build(tmpDir)` unless the build behind it was made from the same sources.
 * Returns { built: boolean, hash, dir: the real folder now behind `dir` }.
 */
export async function buildIfChanged({ name, dir, root, inputs, exclude, extra, build, log = console.log }) {
  const hash = sourceHash({ root, inputs, exclude, extra });
  if (builtHash(dir) === hash) return { built: false, hash, dir: fs.realpathSync(dir) };
  const lockDir = path.join(path.dirname(dir), `.${path.basename(dir)}.lock`);
  const release = await acquireLock(lockDir, () => log(`${name}: another build is running, waiting for it`));
  try {
    // The build we waited for may be the one we need.
    if (builtHash(dir) === hash) return { built: false, hash, dir: fs.realpathSync(dir) };
    const parent = path.dirname(dir);
    const id = `${Date.now().toString(36)}-${hash.slice(0, 8)}`;
    const tmp = path.join(parent, `.${path.basename(dir)}-tmp-${process.pid}-${id}`);
    const final = path.join(parent, `.${path.basename(dir)}-${id}`);
    const started = Date.now();
    log(`${name}: sources changed, building`);
    try {
      await build(tmp);
      fs.writeFileSync(path.join(tmp, HASH_FILE), `${hash}\n`);
      fs.renameSync(tmp, final);
    } catch (error) {
      fs.rmSync(tmp, { recursive: true, force: true });
      throw error;
    }
    swapIn(dir, final);
    prune(dir, final);
    log(`${name}: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return { built: true, hash, dir: final };
  } finally {
    release();
  }
}
