// The ClickHouse server the columnar tests run on (TEST_CLICKHOUSE_URL, else the local one that
// .ci/run installs and starts), each run in databases of its own.
import { ClickHouseClient, parseClickHouseUrl } from '../src/columnar/clickhouse-client.js';
import { announce, describeNeeding, type Service } from './services.js';

export const BASE_URL = process.env.TEST_CLICKHOUSE_URL ?? 'http://default:@127.0.0.1:8123/switchyard_test';

/** The base URL with a database of this run's own, so runs (and files) never share tables. */
export function runUrl(suffix: string): string {
  const parsed = new URL(BASE_URL);
  const base = parsed.pathname.replace(/^\/+|\/+$/g, '') || 'switchyard_test';
  parsed.pathname = `/${base}_${process.pid}_${Date.now().toString(36)}_${suffix}`;
  return parsed.toString();
}

export const reachable = await new ClickHouseClient(parseClickHouseUrl(BASE_URL)).ping();
const clickHouse: Service = {
  missing: `ClickHouse is NOT reachable at ${BASE_URL}`,
  problem: reachable ? null : 'no answer to a ping',
  suites: 'the ClickHouse store tests',
  fix: 'Start ClickHouse (.ci/run does) or set TEST_CLICKHOUSE_URL.',
};
announce(clickHouse);

/** Runs the suite on ClickHouse; unreachable, it is skipped loudly, or under CI=true fails. */
export const onClickHouse = describeNeeding(clickHouse, 'ClickHouse');
