// The Redis the cross-node tests share (TEST_REDIS_URL, else the local one), probed once per file.
import { randomBytes } from 'node:crypto';
import { closeRedis, openRedis } from '../src/store/redis.js';
import { DatabaseUnderTest, forEachDatabase } from './harness.js';
import { announce, describeNeeding, type Service } from './services.js';

export const REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Keys of this run's own, removed by the tests that make them. */
export const redisKeyPrefix = (): string => `switchyard-test:${process.pid}-${randomBytes(4).toString('hex')}:`;

async function probeRedis(): Promise<string | null> {
  try {
    const client = await openRedis(REDIS_URL);
    await client.ping();
    await closeRedis(client);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export const redisService: Service = {
  missing: `Redis is NOT reachable at ${REDIS_URL}`,
  problem: await probeRedis(),
  suites: 'the Redis tests (shared caps, login limits, live events and uniqueness across nodes)',
  fix: 'Start Redis or set TEST_REDIS_URL.',
};
announce(redisService);

export const describeRedis = describeNeeding(redisService, 'Redis');

/** `forEachDatabase` for suites that also need Redis. */
export function forEachDatabaseWithRedis(title: string, suite: (db: DatabaseUnderTest) => void): void {
  if (redisService.problem === null) forEachDatabase(title, suite);
  else describeRedis(title, () => suite(new DatabaseUnderTest('sqlite')));
}
