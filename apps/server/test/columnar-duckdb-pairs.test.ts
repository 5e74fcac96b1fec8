import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { PAIR, splitPair } from '../src/columnar/duckdb-sql.js';

// Clicks and unique clicks (and lp and lander clicks) are summed as one number each (duckdb-sql.ts,
// clickFigures); the grouped sums are split again, in 64 bits while they fit and in 128 past that. The
// reports' own figures through the store are checked by the report tests (report-bots, report-lp-clicks);
// no store there holds the 2^31 clicks in a group that the second branch is for.
describe('counts summed in pairs on the embedded store', () => {
  it('splits a pair back into its two counts, below and past 64 bits', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    const pairs: [bigint, bigint][] = [
      [0n, 0n],
      [7n, 5n],
      [2_147_483_647n, 4_294_967_295n],
      [2_147_483_648n, 3n],
      [3_000_000_000n, 2_999_999_999n],
    ];
    const rows = pairs.map(([first, second]) => `(${first}::hugeint * ${PAIR} + ${second})`).join(', ');
    const reader = await connection.runAndReadAll(
      `select ${splitPair('p', '//')} as first, ${splitPair('p', '%')} as second from (values ${rows}) as t(p)`,
    );
    expect(reader.getRowObjectsJS()).toEqual(pairs.map(([first, second]) => ({ first, second })));
    connection.closeSync();
    instance.closeSync();
  });
});
