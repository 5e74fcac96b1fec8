// `npm run reload`: tells the running server's primary process (its id in `switchyard.pid` in the data
// directory, cluster/primary.ts) to start new workers on the code now on disk and then drain the old
// ones. Plain JavaScript, so that it runs without a build or tsx.
import fs from 'node:fs';
import path from 'node:path';

const PID_FILE_NAME = 'switchyard.pid';

// The data directory as config.ts finds it: SWITCHYARD_DATA_DIR, relative to where npm was run.
const from = process.env.INIT_CWD?.trim() || process.cwd();
const dataDir = path.resolve(from, process.env.SWITCHYARD_DATA_DIR?.trim() || './data');
const pidFile = path.join(dataDir, PID_FILE_NAME);

let pid;
try {
  pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
} catch {
  console.error(`No running Switchyard found: ${pidFile} does not exist (is the server started with npm start?)`);
  process.exit(1);
}
if (!Number.isInteger(pid) || pid <= 0) {
  console.error(`${pidFile} does not hold a process id`);
  process.exit(1);
}
try {
  process.kill(pid, 'SIGHUP');
} catch (error) {
  const reason = error.code === 'ESRCH' ? 'it is not running (a stale pid file)' : error.message;
  console.error(`Switchyard's primary process ${pid} could not be told to reload: ${reason}`);
  process.exit(1);
}
console.log(`Switchyard (process ${pid}) is reloading: new workers start, then the old ones drain.`);
