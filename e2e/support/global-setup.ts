import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startServer } from './server.js';

export const ADMIN = { email: 'admin@e2e.test', password: 'e2e-admin-password' };

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    admin: { email: string; password: string };
    /** The server's output, as it is written: tests read links the server logs instead of emailing. */
    serverLog: string;
  }
}

const root = new URL('../..', import.meta.url).pathname;

export default async function setup(project: TestProject) {
  // Debian's Chromium, installed by .ci/run (or by hand), never by the tests themselves.
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromium)) {
    throw new Error(`Chromium not found at ${chromium}: run 'apt-get install -y chromium' (.ci/run does)`);
  }
  if (!existsSync(join(root, 'apps/web/dist/index.html'))) {
    throw new Error('apps/web/dist is missing: run `npm run build` first (npm test does)');
  }
  const server = await startServer(ADMIN);
  project.provide('baseURL', server.baseURL);
  project.provide('admin', ADMIN);
  project.provide('serverLog', server.serverLog);

  return () => server.stop();
}
