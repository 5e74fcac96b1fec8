// `npm start`'s build step (and `npm run build`): the dashboard and the server, each only when its sources
// changed since its last build. `--web` or `--server` builds one of them.
import { buildServerIfChanged } from './build-server.mjs';
import { buildWebIfChanged } from './build-web.mjs';

const only = process.argv.slice(2);
const wants = (part) => only.length === 0 || only.includes(`--${part}`);
try {
  if (wants('web')) await buildWebIfChanged();
  if (wants('server')) await buildServerIfChanged();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
