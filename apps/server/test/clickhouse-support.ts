// Issue 23: the ClickHouse server the columnar tests run on (TEST_CLICKHOUSE_URL, else the local one that
// .ci/run installs and starts), each run in databases of its own.
import { describe, it } from 'vitest';
import { ClickHouseClient, parseClickHouseUrl } from '../src/columnar/clickhouse-client.js';

export const BASE_URL = process.env.TEST_CLICKHOUSE_URL ?? 'http://default:@127.0.0.1:8123/switchyard_test';
const IN_CI = process.env.CI === 'true';

/** The base URL with a database of this run's own, so runs (and files) never share tables. */
export function runUrl(suffix: string): string {
  const parsed = new URL(BASE_URL);
  const base = parsed.pathname.replace(/^\/+|\/+$/g, '') || 'switchyard_test';
  parsed.pathname = `/${base}_${process.pid}_${Date.now().toString(36)}_${suffix}`;
  return parsed.toString();
}

export const reachable = await new ClickHouseClient(parseClickHouseUrl(BASE_URL)).ping();
const MISSING = `ClickHouse is NOT reachable at ${BASE_URL}`;
if (!reachable) {
  const rule = '!'.repeat(78);
  console.warn(
    [
      '',
      rule,
      `!!  ${MISSING}`,
      IN_CI
        ? '!!  CI=true: the ClickHouse store tests FAIL. Start ClickHouse (.ci/run does) or set TEST_CLICKHOUSE_URL.'
        : '!!  The ClickHouse store tests are SKIPPED. Start ClickHouse or set TEST_CLICKHOUSE_URL.',
      rule,
      '',
    ].join('\n'),
  );
}

/** Runs the suite on ClickHouse; unreachable, it is skipped loudly, or under CI=true fails. */
export function onClickHouse(title: string, suite: () => void): void {
  if (!reachable && IN_CI) {
    describe(title, () => {
      it('has ClickHouse to run on', () => {
        throw new Error(`${MISSING}: CI=true, so this suite fails instead of being skipped`);
      });
    });
    return;
  }
  (reachable ? describe : describe.skip)(title, suite);
}
