// What a click allocates, by the function that allocates it (click-cpu.ts with CPU_HEAP_DIR).
//
// As a preload (`node --import bench/heap-sample.mjs`, HEAP_SAMPLE_DIR set): each main thread marks
// itself ready in that folder; the first SIGUSR2 starts V8's sampling heap profiler with the objects
// the collector has freed kept in the samples (a click's garbage is what costs), the second writes them
// to heap-PID.json. Sampled every 4 KB allocated on average, so the figures are estimates.
//
// Run itself (`node bench/heap-sample.mjs DIR CLICKS`): the bytes per click of every profile in DIR,
// by allocating function and by the nearest of Switchyard's own functions above it.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import inspector from 'node:inspector';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread } from 'node:worker_threads';

const DIR = process.env.HEAP_SAMPLE_DIR;
const runItself = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);

if (runItself) summarize(process.argv[2] ?? '.', Number(process.argv[3] ?? 1));
else if (DIR && isMainThread) {
  const session = new inspector.Session();
  session.connect();
  const post = (method, params = {}) =>
    new Promise((resolve, reject) =>
      session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
    );
  let sampling = false;
  process.on('SIGUSR2', async () => {
    sampling = !sampling;
    if (sampling) {
      await post('HeapProfiler.enable');
      await post('HeapProfiler.startSampling', {
        samplingInterval: 4096,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
    } else {
      const { profile } = await post('HeapProfiler.stopSampling');
      writeFileSync(path.join(DIR, `heap-${process.pid}.json`), JSON.stringify(profile));
    }
  });
  writeFileSync(path.join(DIR, `ready-${process.pid}`), '');
}

function summarize(dir, clicks) {
  const bySelf = new Map();
  const byOwn = new Map();
  let total = 0;
  const add = (map, key, bytes) => map.set(key, (map.get(key) ?? 0) + bytes);
  const walk = (node, own) => {
    const frame = node.callFrame;
    const name = `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*\/(node_modules|\.dist[^/]*)\//, '')}:${frame.lineNumber + 1}`;
    // The server runs from its build (apps/server/.dist-*); its own frames are those outside node_modules.
    const ours = frame.url.includes('/apps/server/.dist') && !frame.url.includes('node_modules');
    const nearest = ours ? name : own;
    if (node.selfSize > 0) {
      total += node.selfSize;
      add(bySelf, name, node.selfSize);
      add(byOwn, nearest, node.selfSize);
    }
    for (const child of node.children) walk(child, nearest);
  };
  for (const file of readdirSync(dir).filter((name) => /^heap-\d+\.json$/.test(name))) {
    walk(JSON.parse(readFileSync(path.join(dir, file), 'utf8')).head, '(Node and libraries only)');
  }
  const top = (map) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 25)
      .map(([name, bytes]) => `${String(Math.round(bytes / clicks)).padStart(8)}  ${name}`)
      .join('\n');
  console.log(`allocated: ${Math.round(total / clicks)} bytes per click (${(total / 1e6).toFixed(1)} MB sampled)`);
  console.log(`\nbytes per click, by the function allocating:\n${top(bySelf)}`);
  console.log(`\nbytes per click, by the nearest of the server's own functions:\n${top(byOwn)}`);
}
