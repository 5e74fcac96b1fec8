import { readdirSync, readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, expectError, forEachDatabase, login } from './harness.js';

// Reports run in the report engine, a child process (reports/runner.ts, reports/engine-child.ts). A
// report that cannot wait (the queue is full) or waited past SWITCHYARD_REPORT_WAIT_MS answers 503 with
// Retry-After; an engine that dies is started again; closing the server ends it.

const REPORT = '/api/reports?group_by=subaff&timezone=UTC';

/** The nice value of each thread of `pid` (Linux's /proc; field 19 of a thread's stat). */
function threadNices(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((thread) => {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${thread}/stat`, 'utf8');
      return [Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])];
    } catch {
      return [];
    }
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

forEachDatabase('the report engine', (db) => {
  describe('with one report at a time and room for one more', () => {
    let app: FastifyInstance;
    let token: string;

    beforeAll(async () => {
      app = await db.buildApp({
        env: {
          SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL,
          SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD,
          SWITCHYARD_REPORT_CONCURRENCY: '1',
          SWITCHYARD_REPORT_QUEUE: '1',
          SWITCHYARD_REPORT_WAIT_MS: '300',
        },
      });
      token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    });

    afterAll(async () => {
      const pid = app?.reports.pid;
      if (pid) process.kill(pid, 'SIGCONT');
    });

    const report = () => app.inject({ method: 'GET', url: REPORT, headers: bearer(token) });

    it('answers 503 with Retry-After to the report over its wait limit and to the one the queue has no room for', async () => {
      // Until the engine has started, a report may wait past the limit too.
      await expect.poll(async () => (await report()).statusCode, { timeout: 60_000 }).toBe(200);
      const pid = app.reports.pid!;
      expect(pid).toBeGreaterThan(0);
      // A stopped engine answers nothing: one report runs there, one waits in the queue until its limit,
      // and the third finds the queue full.
      process.kill(pid, 'SIGSTOP');
      const answers = [report(), report(), report()];
      const settled: { statusCode: number; body: string; headers: Record<string, unknown> }[] = [];
      for (const answer of answers) void answer.then((response) => settled.push(response));
      await expect.poll(() => settled.length, { timeout: 30_000 }).toBe(2);
      for (const response of settled) {
        const body = expectError(response, 503);
        expect(body.message).toBe('Reports are busy right now. Try again in a few seconds.');
        expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      }
      // Continued, the engine answers the report it was running.
      process.kill(pid, 'SIGCONT');
      const statuses = (await Promise.all(answers)).map((response) => response.statusCode).sort();
      expect(statuses).toEqual([200, 503, 503]);
      expect(app.reports.pid).toBe(pid);
    });
  });

  describe('when the engine dies', () => {
    let app: FastifyInstance;
    let token: string;

    beforeAll(async () => {
      app = await db.buildApp({
        env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
      });
      token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    });

    const report = () => app.inject({ method: 'GET', url: REPORT, headers: bearer(token) });

    it('starts another, which answers the reports, and ends it when the server closes', async () => {
      expect((await report()).statusCode).toBe(200);
      const first = app.reports.pid!;
      process.kill(first, 'SIGKILL');
      await expect.poll(() => alive(first), { timeout: 10_000 }).toBe(false);
      // Asked at once, the report waits for the next engine.
      const response = await report();
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<{ total: number }>().total).toBe(0);
      const second = app.reports.pid!;
      expect(second).not.toBe(first);
      expect(alive(second)).toBe(true);
      // Every thread of the engine (V8's, libuv's, DuckDB's) below the server's priority.
      if (process.platform === 'linux') {
        const nices = threadNices(second);
        expect(nices.length).toBeGreaterThan(3);
        expect(Math.min(...nices)).toBeGreaterThanOrEqual(10);
      }
      await app.close();
      expect(app.reports.pid).toBeNull();
      expect(alive(second)).toBe(false);
    });
  });
});
