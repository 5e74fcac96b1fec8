import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const BOOT = new URL('./process-boot.mjs', import.meta.url);

/**
 * A child process running the module `name` (without its extension) beside `base` (an import.meta.url),
 * with an IPC channel: its built `.js` when there is one, else its `.ts` through process-boot.mjs.
 * The parent's node flags are not passed on (tsx's loader, a profiler's): the child needs none.
 */
export function forkModule(base: string, name: string, env: NodeJS.ProcessEnv): ChildProcess {
  const built = new URL(`./${name}.js`, base);
  const options = { execArgv: [], env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] as const };
  if (existsSync(fileURLToPath(built)))
    return fork(fileURLToPath(built), [], { ...options, stdio: [...options.stdio] });
  const source = new URL(`./${name}.ts`, base);
  return fork(fileURLToPath(BOOT), [source.href], { ...options, stdio: [...options.stdio] });
}
