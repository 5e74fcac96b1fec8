import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LOGIN_FAILURE_WINDOW_MS, LOGIN_FAILURES_PER_WINDOW } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { InMemoryLoginLimiter, type LoginLimiter, type LoginLimiterOptions } from '../src/auth/login-limiter.js';
import { RedisLoginLimiter } from '../src/auth/redis-login-limiter.js';
import { loadConfig } from '../src/config.js';
import { closeRedis, openRedis } from '../src/store/redis.js';
import {
  type CapCounters,
  dayIn,
  InProcessCapCounters,
  offerCapKey,
  ReadOnlyCapCounters,
} from '../src/traffic/rules/caps.js';
import { RedisCapCounters } from '../src/traffic/rules/redis-caps.js';
import { eventually } from './eventually.js';
import { createRecord } from './fixtures/config-records.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createUserWithPermissions,
  type DatabaseUnderTest,
  expectError,
  login,
} from './harness.js';
import { describeRedis, forEachDatabaseWithRedis, REDIS_URL, redisKeyPrefix } from './redis-support.js';

// Redis (REDIS_URL) shares daily cap counters and failed-login counts between server nodes. Every test
// here talks to a real Redis; when none answers, the suite says so loudly and is skipped, never faked
// (under CI=true, where Redis is always there, it fails instead).
// Keys carry a prefix of their own for this run and are removed afterwards.

const PREFIX = redisKeyPrefix();

interface Warnings {
  messages: string[];
  warn(object: unknown, message: string): void;
}

function collectWarnings(): Warnings {
  const messages: string[] = [];
  return { messages, warn: (_object, message) => messages.push(message) };
}

const today = () => dayIn(new Date(), 'UTC');
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);

let keyCounter = 0;
function uniqueKey(name: string): string {
  keyCounter += 1;
  return `${name}-${keyCounter}`;
}

/** Redis clients for the tests, each its own connection (a "node"); closed and the run's keys removed after. */
function useRedis() {
  const clients: Redis[] = [];
  const connect = async () => {
    const client = await openRedis(REDIS_URL);
    clients.push(client);
    return client;
  };
  afterAll(async () => {
    const cleaner = await openRedis(REDIS_URL);
    const keys: string[] = [];
    for await (const batch of cleaner.scanStream({ match: `${PREFIX}*`, count: 500 })) keys.push(...batch);
    if (keys.length > 0) await cleaner.del(...keys);
    for (const client of [cleaner, ...clients]) await closeRedis(client);
  });
  return { connect };
}

/** The expectations every CapCounters must meet, in process or in Redis. */
function capCountersContract(name: string, make: () => Promise<CapCounters>) {
  describe(`${name}: the CapCounters contract`, () => {
    let caps: CapCounters;
    beforeAll(async () => {
      caps = await make();
    });

    it('takes up to the limit, inclusive, then refuses', async () => {
      const key = uniqueKey('boundary');
      const day = today();
      const taken = [];
      for (let index = 0; index < 4; index += 1) taken.push(await caps.tryTake(key, day, 3));
      expect(taken).toEqual([true, true, true, false]);
      expect(await caps.count(key, day)).toBe(3);
    });

    it('gives one back on release, and never goes below zero', async () => {
      const key = uniqueKey('release');
      const day = today();
      expect(await caps.tryTake(key, day, 1)).toBe(true);
      expect(await caps.tryTake(key, day, 1)).toBe(false);
      await caps.release(key, day);
      expect(await caps.count(key, day)).toBe(0);
      expect(await caps.tryTake(key, day, 1)).toBe(true);
      const fresh = uniqueKey('release-fresh');
      await caps.release(fresh, day);
      expect(await caps.count(fresh, day)).toBe(0);
    });

    it('starts a new day at zero and leaves the old day as it was', async () => {
      const key = uniqueKey('rollover');
      const day = today();
      expect(await caps.tryTake(key, day, 1)).toBe(true);
      expect(await caps.tryTake(key, day, 1)).toBe(false);
      expect(await caps.count(key, nextDay(day))).toBe(0);
      expect(await caps.tryTake(key, nextDay(day), 1)).toBe(true);
      expect(await caps.count(key, nextDay(day))).toBe(1);
    });

    it('warms a counter only where it is not counting yet; add adds', async () => {
      const key = uniqueKey('warm');
      const day = today();
      await caps.warm(key, day, 4);
      await caps.warm(key, day, 4);
      expect(await caps.count(key, day)).toBe(4);
      expect(await caps.tryTake(key, day, 5)).toBe(true);
      expect(await caps.tryTake(key, day, 5)).toBe(false);
      // A later warm-up (a restart, another node) does not reset what is being counted live.
      await caps.warm(key, day, 2);
      expect(await caps.count(key, day)).toBe(5);
      await caps.add(key, day, 2);
      expect(await caps.count(key, day)).toBe(7);
    });

    it('counts without a limit when the limit is 0', async () => {
      const key = uniqueKey('unlimited');
      for (let index = 0; index < 5; index += 1) expect(await caps.tryTake(key, today(), 0)).toBe(true);
      expect(await caps.count(key, today())).toBe(5);
    });

    it('tells what remains under a limit without counting it', async () => {
      const key = uniqueKey('remaining');
      const day = today();
      expect(await caps.remaining(key, day, 2)).toBe(2);
      expect(await caps.tryTake(key, day, 2)).toBe(true);
      for (let index = 0; index < 3; index += 1) expect(await caps.remaining(key, day, 2)).toBe(1);
      expect(await caps.count(key, day)).toBe(1);
      expect(await caps.tryTake(key, day, 2)).toBe(true);
      expect(await caps.remaining(key, day, 2)).toBe(0);
      expect(await caps.remaining(key, day, 0)).toBe(Number.POSITIVE_INFINITY);
      expect(await caps.remaining(key, nextDay(day), 2)).toBe(2);
    });
  });
}

describe('ReadOnlyCapCounters', () => {
  it('decides on what remains, sees its own takes, and counts nothing in the counters it reads', async () => {
    const counters = new InProcessCapCounters();
    const key = uniqueKey('read-only');
    const day = today();
    await counters.add(key, day, 1);
    const simulation = new ReadOnlyCapCounters(counters);
    expect(await simulation.tryTake(key, day, 3)).toBe(true);
    expect(await simulation.remaining(key, day, 3)).toBe(1);
    expect(await simulation.tryTake(key, day, 3)).toBe(true);
    expect(await simulation.tryTake(key, day, 3)).toBe(false);
    await simulation.release(key, day);
    expect(await simulation.count(key, day)).toBe(2);
    expect(await counters.count(key, day)).toBe(1);
    expect(await counters.remaining(key, day, 3)).toBe(2);
  });
});

capCountersContract('InProcessCapCounters', async () => new InProcessCapCounters());

describeRedis('RedisCapCounters', () => {
  const redis = useRedis();
  const warnings = collectWarnings();
  let nodeA: RedisCapCounters;
  let nodeB: RedisCapCounters;
  let raw: Redis;

  beforeAll(async () => {
    nodeA = new RedisCapCounters(await redis.connect(), { log: warnings, prefix: PREFIX });
    nodeB = new RedisCapCounters(await redis.connect(), { log: warnings, prefix: PREFIX });
    raw = await redis.connect();
  });

  capCountersContract('RedisCapCounters', async () => nodeA);

  it('never exceeds a cap under concurrent takes from two connections', async () => {
    const key = uniqueKey('concurrent');
    const day = today();
    const takes = Array.from({ length: 200 }, (_, index) => (index % 2 === 0 ? nodeA : nodeB).tryTake(key, day, 50));
    const taken = await Promise.all(takes);
    expect(taken.filter(Boolean)).toHaveLength(50);
    expect(await nodeB.count(key, day)).toBe(50);
  });

  it('shares one count between nodes, and a second node warming up does not count twice', async () => {
    const key = uniqueKey('shared');
    const day = today();
    await nodeA.warm(key, day, 3);
    await nodeB.warm(key, day, 3);
    expect(await nodeA.count(key, day)).toBe(3);
    expect(await nodeB.tryTake(key, day, 4)).toBe(true);
    expect(await nodeA.tryTake(key, day, 4)).toBe(false);
    await nodeA.release(key, day);
    expect(await nodeB.count(key, day)).toBe(3);
  });

  it('keeps a key under the prefix and its day, expiring three days after the day began', async () => {
    const key = uniqueKey('expiry');
    const day = today();
    const dayStart = Date.parse(`${day}T00:00:00.000Z`) / 1000;
    for (const [index, write] of [
      () => nodeA.tryTake(key, day, 10),
      () => nodeA.add(`${key}-added`, day, 1),
      () => nodeA.warm(`${key}-warmed`, day, 1),
    ].entries()) {
      await write();
      const stored = `${PREFIX}cap:${day}:${key}${['', '-added', '-warmed'][index]}`;
      expect(await raw.get(stored)).toBe('1');
      const ttl = await raw.ttl(stored);
      const expected = dayStart + 3 * 86_400 - Date.now() / 1000;
      expect(Math.abs(ttl - expected)).toBeLessThan(5);
      // Never gone before its day has ended everywhere (UTC−12 ends 36 hours after the UTC start).
      expect(dayStart + 36 * 3600 - Date.now() / 1000).toBeLessThan(ttl);
    }
  });
});

/**
 * A TCP link between a client and the real Redis that the test can stall (bytes held, as on a congested
 * or partitioned network) or cut (connections dropped and refused), then restore.
 */
class RedisLink {
  private held = false;
  private down = false;
  private heldWrites: (() => void)[] = [];
  private readonly sockets = new Set<net.Socket>();
  private readonly server: net.Server;

  constructor(private readonly target: URL) {
    this.server = net.createServer((client) => {
      if (this.down) {
        client.destroy();
        return;
      }
      const upstream = net.connect(Number(target.port || 6379), target.hostname);
      const close = () => {
        client.destroy();
        upstream.destroy();
      };
      for (const [from, to] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        this.sockets.add(from);
        from.on('data', (chunk) => {
          if (this.held) this.heldWrites.push(() => to.write(chunk));
          else to.write(chunk);
        });
        from.on('close', () => {
          this.sockets.delete(from);
          close();
        });
        from.on('error', close);
      }
    });
  }

  /** The URL a client uses to reach Redis through this link. */
  async open(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const url = new URL(this.target);
    url.hostname = '127.0.0.1';
    url.port = String((this.server.address() as net.AddressInfo).port);
    return url.toString();
  }

  stall(): void {
    this.held = true;
  }

  cut(): void {
    this.down = true;
    this.heldWrites = [];
    for (const socket of this.sockets) socket.destroy();
  }

  restore(): void {
    this.down = false;
    this.held = false;
    for (const write of this.heldWrites.splice(0)) write();
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

describeRedis('when Redis stops answering mid-traffic', () => {
  useRedis();
  const link = new RedisLink(new URL(REDIS_URL));
  const warnings = collectWarnings();
  let client: Redis;
  let caps: RedisCapCounters;
  let limiter: RedisLoginLimiter;

  beforeAll(async () => {
    client = await openRedis(await link.open());
    caps = new RedisCapCounters(client, { log: warnings, prefix: PREFIX });
    limiter = new RedisLoginLimiter(client, { log: warnings, prefix: PREFIX });
  });
  afterAll(async () => {
    await closeRedis(client);
    await link.close();
  });

  it('treats caps as reached (fail closed) within the command timeout, warning once, and recovers', async () => {
    const key = uniqueKey('outage');
    const day = today();
    expect(await caps.tryTake(key, day, 5)).toBe(true);

    link.stall();
    let started = Date.now();
    expect(await caps.tryTake(key, day, 5)).toBe(false);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await caps.count(key, day)).toBe(Number.POSITIVE_INFINITY);
    expect(await caps.remaining(key, day, 5)).toBe(0);
    await caps.release(key, day);
    await caps.add(key, day, 1);

    link.cut();
    started = Date.now();
    const clicks = await Promise.all(Array.from({ length: 20 }, () => caps.tryTake(key, day, 5)));
    expect(clicks.every((taken) => !taken)).toBe(true);
    expect(Date.now() - started).toBeLessThan(1_000);
    // Twenty-odd failures, one warning: the log stays readable during an outage.
    expect(warnings.messages.filter((message) => message.includes('daily caps'))).toHaveLength(1);

    const ready = new Promise((resolve) => client.once('ready', resolve));
    link.restore();
    await ready;
    expect(await caps.tryTake(key, day, 5)).toBe(true);
    expect(await caps.count(key, day)).toBeLessThanOrEqual(5);
  });

  it('limits failed logins per node while Redis is away', async () => {
    link.cut();
    const key = `ip:${uniqueKey('outage')}`;
    for (let index = 0; index < LOGIN_FAILURES_PER_WINDOW; index += 1) {
      expect(await limiter.retryAfterMs(key)).toBe(0);
      await limiter.recordFailure(key);
    }
    expect(await limiter.retryAfterMs(key)).toBeGreaterThan(0);
    expect(warnings.messages.some((message) => message.includes('failed logins'))).toBe(true);
    // Reserving counts on this node alone too, and gives back what it counted here.
    expect((await limiter.reserve([key])).granted).toBe(false);
    const other = `account:${uniqueKey('outage')}@test.local`;
    const attempts = await Promise.all(Array.from({ length: 20 }, () => limiter.reserve([other])));
    expect(attempts.filter((answer) => answer.granted)).toHaveLength(LOGIN_FAILURES_PER_WINDOW);
    const [granted] = attempts.flatMap((answer) => (answer.granted ? [answer.attempt] : []));
    if (!granted) throw new Error('nothing granted');
    await limiter.release(granted);
    expect((await limiter.reserve([other])).granted).toBe(true);
    const ready = new Promise((resolve) => client.once('ready', resolve));
    link.restore();
    await ready;
  });
});

/** The expectations every LoginLimiter must meet, with a clock the test moves. */
function loginLimiterContract(name: string, make: (options: LoginLimiterOptions) => Promise<LoginLimiter>) {
  describe(`${name}: the sliding window of failed logins`, () => {
    let now = 1_000_000;
    let limiter: LoginLimiter;
    beforeAll(async () => {
      limiter = await make({ now: () => now });
    });

    it('blocks after exactly the limit, until the oldest counted failure leaves the window', async () => {
      const key = `ip:${uniqueKey('window')}`;
      const start = now;
      for (let index = 0; index < LOGIN_FAILURES_PER_WINDOW; index += 1) {
        expect(await limiter.retryAfterMs(key)).toBe(0);
        await limiter.recordFailure(key);
        now += 1_000;
      }
      // The first failure, at `start`, counts until start + window.
      expect(await limiter.retryAfterMs(key)).toBe(start + LOGIN_FAILURE_WINDOW_MS - now);
      now = start + LOGIN_FAILURE_WINDOW_MS - 1;
      expect(await limiter.retryAfterMs(key)).toBe(1);
      now = start + LOGIN_FAILURE_WINDOW_MS;
      expect(await limiter.retryAfterMs(key)).toBe(0);
      // One more failure fills the window again; the wait is then until the second-oldest leaves.
      await limiter.recordFailure(key);
      expect(await limiter.retryAfterMs(key)).toBe(start + 1_000 + LOGIN_FAILURE_WINDOW_MS - now);
    });

    it('counts only the latest failures, and keeps keys apart', async () => {
      const key = `account:${uniqueKey('latest')}@test.local`;
      const other = `account:${uniqueKey('other')}@test.local`;
      for (let index = 0; index < LOGIN_FAILURES_PER_WINDOW + 5; index += 1) {
        await limiter.recordFailure(key);
        now += 100;
      }
      const lastCounted = now - 100 * LOGIN_FAILURES_PER_WINDOW;
      expect(await limiter.retryAfterMs(key)).toBe(lastCounted + LOGIN_FAILURE_WINDOW_MS - now);
      expect(await limiter.retryAfterMs(other)).toBe(0);
      for (let index = 0; index < LOGIN_FAILURES_PER_WINDOW - 1; index += 1) await limiter.recordFailure(other);
      expect(await limiter.retryAfterMs(other)).toBe(0);
      now += LOGIN_FAILURE_WINDOW_MS;
      expect(await limiter.retryAfterMs(key)).toBe(0);
    });

    it('counts failures at the same moment separately', async () => {
      const key = `ip:${uniqueKey('same-moment')}`;
      await Promise.all(Array.from({ length: LOGIN_FAILURES_PER_WINDOW }, () => limiter.recordFailure(key)));
      expect(await limiter.retryAfterMs(key)).toBe(LOGIN_FAILURE_WINDOW_MS);
    });

    it('reserves at most the limit of parallel attempts, on every key at once or on none', async () => {
      const ip = `ip:${uniqueKey('reserve-ip')}`;
      const account = `account:${uniqueKey('reserve')}@test.local`;
      const answers = await Promise.all(Array.from({ length: 50 }, () => limiter.reserve([ip, account])));
      expect(answers.filter((answer) => answer.granted)).toHaveLength(LOGIN_FAILURES_PER_WINDOW);
      for (const answer of answers) {
        if (!answer.granted) expect(answer.retryAfterMs).toBe(LOGIN_FAILURE_WINDOW_MS);
      }
      // Refused on the account: nothing was counted on another IP trying it.
      const otherIp = `ip:${uniqueKey('reserve-other-ip')}`;
      expect((await limiter.reserve([otherIp, account])).granted).toBe(false);
      expect(await limiter.retryAfterMs(otherIp)).toBe(0);
      for (let index = 0; index < LOGIN_FAILURES_PER_WINDOW - 1; index += 1) await limiter.recordFailure(otherIp);
      expect(await limiter.retryAfterMs(otherIp)).toBe(0);
    });

    it('gives a released attempt back, and only that one', async () => {
      const key = `account:${uniqueKey('release')}@test.local`;
      const attempts = [];
      for (let index = 0; index < LOGIN_FAILURES_PER_WINDOW; index += 1) {
        const answer = await limiter.reserve([key]);
        if (!answer.granted) throw new Error('refused below the limit');
        attempts.push(answer.attempt);
        now += 1_000;
      }
      expect((await limiter.reserve([key])).granted).toBe(false);
      const [first, ...rest] = attempts;
      if (!first) throw new Error('no attempt');
      await limiter.release(first);
      // One place free again, taken by the next attempt; then the wait is until the second one leaves.
      expect(await limiter.retryAfterMs(key)).toBe(0);
      expect((await limiter.reserve([key])).granted).toBe(true);
      const refused = await limiter.reserve([key]);
      expect(refused).toEqual({ granted: false, retryAfterMs: (rest[0]?.at ?? 0) + LOGIN_FAILURE_WINDOW_MS - now });
    });
  });
}

loginLimiterContract('InMemoryLoginLimiter', async (options) => new InMemoryLoginLimiter(options));

describeRedis('RedisLoginLimiter', () => {
  const redis = useRedis();
  loginLimiterContract(
    'RedisLoginLimiter',
    async (options) =>
      new RedisLoginLimiter(await redis.connect(), { ...options, log: collectWarnings(), prefix: PREFIX }),
  );

  it('keeps its failures in one expiring key per IP or account', async () => {
    const client = await redis.connect();
    const limiter = new RedisLoginLimiter(client, { log: collectWarnings(), prefix: PREFIX });
    const key = `ip:${uniqueKey('stored')}`;
    await limiter.recordFailure(key);
    expect(await client.zcard(`${PREFIX}login:${key}`)).toBe(1);
    const ttl = await client.pttl(`${PREFIX}login:${key}`);
    expect(ttl).toBeGreaterThan(LOGIN_FAILURE_WINDOW_MS - 5_000);
    expect(ttl).toBeLessThanOrEqual(LOGIN_FAILURE_WINDOW_MS);
  });
});

// Two nodes (two apps from buildApp) sharing one database and, through REDIS_URL, one Redis.
forEachDatabaseWithRedis('two nodes sharing Redis', (db: DatabaseUnderTest) => {
  const redis = useRedis();
  const apps: FastifyInstance[] = [];
  let env: NodeJS.ProcessEnv;
  let nodeA: FastifyInstance;
  let nodeB: FastifyInstance;
  let campaignId: string;
  let cappedOfferId: string;
  const CAP = 5;

  async function node(): Promise<FastifyInstance> {
    const app = await buildApp({ config: loadConfig(env), print: () => undefined, redisKeyPrefix: PREFIX });
    apps.push(app);
    return app;
  }

  beforeAll(async () => {
    env = {
      ...(await db.createDatabase()),
      REDIS_URL,
      SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL,
      SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD,
      SWITCHYARD_WEB_DIST: path.join(tmpdir(), 'switchyard-no-dashboard'),
    };
    nodeA = await node();
    const token = await login(nodeA, ADMIN_EMAIL, ADMIN_PASSWORD);
    const backup = await createRecord(nodeA, token, 'tracker-offers', { url: 'https://backup.example/?c={clickid}' });
    const capped = await createRecord(nodeA, token, 'tracker-offers', {
      url: 'https://capped.example/?c={clickid}',
      daily_cap: CAP,
      backup_offer_external_id: backup.external_id,
    });
    cappedOfferId = String(capped.external_id);
    const flow = await createRecord(nodeA, token, 'tracker-flows', {
      path_groups: [
        { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: capped.external_id }] }] },
      ],
    });
    const campaign = await createRecord(nodeA, token, 'tracker-campaigns', { flow_external_id: flow.external_id });
    campaignId = String(campaign.external_id);
    nodeB = await node();
  });

  afterAll(async () => {
    // Before the database is dropped (forEachDatabase's cleanup, registered earlier, runs later).
    for (const app of apps.reverse()) await app.close();
  });

  async function clickOn(app: FastifyInstance, index: number): Promise<string> {
    const response = await app.inject({ method: 'GET', url: `/c/${campaignId}`, remoteAddress: `10.9.0.${index}` });
    expect(response.statusCode, response.body).toBe(302);
    return new URL(String(response.headers.location)).hostname;
  }

  let redisClient: Redis;
  let counters: RedisCapCounters;
  beforeAll(async () => {
    redisClient = await redis.connect();
    counters = new RedisCapCounters(redisClient, { log: collectWarnings(), prefix: PREFIX });
  });
  const cappedCount = () => counters.count(offerCapKey(`tracker:${cappedOfferId}`), today());

  it('sends the offer its cap in total across both nodes, and the overflow to the backup', async () => {
    const hosts = await Promise.all(
      Array.from({ length: 3 * CAP }, (_, index) => clickOn(index % 2 === 0 ? nodeA : nodeB, index + 1)),
    );
    expect(hosts.filter((host) => host === 'capped.example')).toHaveLength(CAP);
    expect(hosts.filter((host) => host === 'backup.example')).toHaveLength(2 * CAP);
    expect(await cappedCount()).toBe(CAP);
  });

  it('does not count stored clicks again when another node starts', async () => {
    await nodeA.engine.flush();
    await nodeB.engine.flush();
    await node();
    expect(await cappedCount()).toBe(CAP);
    expect(await clickOn(nodeB, 100)).toBe('backup.example');
  });

  it('counts from stored clicks when Redis has lost the day (a Redis restart without persistence)', async () => {
    await redisClient.del(`${PREFIX}cap:${today()}:${offerCapKey(`tracker:${cappedOfferId}`)}`);
    const restarted = await node();
    expect(await cappedCount()).toBe(CAP);
    expect(await clickOn(restarted, 101)).toBe('backup.example');
  });

  it('routes by a record saved on the other node (configuration notices through Redis)', async () => {
    const token = await login(nodeA, ADMIN_EMAIL, ADMIN_PASSWORD, '10.9.2.1');
    const offer = await createRecord(nodeA, token, 'tracker-offers', { url: 'https://noticed.example/?c={clickid}' });
    const flow = await createRecord(nodeA, token, 'tracker-flows', {
      path_groups: [
        { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offer.external_id }] }] },
      ],
    });
    const campaign = await createRecord(nodeA, token, 'tracker-campaigns', { flow_external_id: flow.external_id });
    // Node B learns of it by a notice, a moment later.
    let status = 0;
    const routed = await eventually(
      async () => {
        const response = await nodeB.inject({
          method: 'GET',
          url: `/c/${campaign.external_id}`,
          remoteAddress: '10.9.2.2',
        });
        status = response.statusCode;
        return status === 302 && response;
      },
      () => `node B still answers ${status} for the campaign saved on node A`,
      { withinMs: 5_000, everyMs: 25 },
    );
    expect(new URL(String(routed.headers.location)).hostname).toBe('noticed.example');
  });

  it('limits failed logins across nodes: failures on either node add up', async () => {
    const ip = '10.9.1.1';
    for (let index = 0; index < LOGIN_FAILURES_PER_WINDOW; index += 1) {
      const response = await (index % 2 === 0 ? nodeA : nodeB).inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: `guess${index}@test.local`, password: 'wrong-password' },
        remoteAddress: ip,
      });
      expectError(response, 401);
    }
    for (const app of [nodeA, nodeB]) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
        remoteAddress: ip,
      });
      expectError(response, 429);
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    }
    await login(nodeB, ADMIN_EMAIL, ADMIN_PASSWORD, '10.9.1.2');
  });

  it('checks at most the limit of 50 parallel wrong logins for one account spread over both nodes', async () => {
    const token = await login(nodeA, ADMIN_EMAIL, ADMIN_PASSWORD, '10.9.3.1');
    const user = await createUserWithPermissions(nodeA, token, []);
    const statuses = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        (index % 2 === 0 ? nodeA : nodeB)
          .inject({
            method: 'POST',
            url: '/api/login',
            payload: { email: user.email, password: `wrong-password-${index}` },
            remoteAddress: `10.9.4.${index + 1}`,
          })
          .then((response) => response.statusCode),
      ),
    );
    // Every 401 is a password that was checked: the two nodes together checked exactly the limit.
    expect(statuses.filter((status) => status === 401)).toHaveLength(LOGIN_FAILURES_PER_WINDOW);
    expect(statuses.filter((status) => status === 429)).toHaveLength(50 - LOGIN_FAILURES_PER_WINDOW);
    expect(await redisClient.zcard(`${PREFIX}login:account:${user.email}`)).toBe(LOGIN_FAILURES_PER_WINDOW);
    for (const app of [nodeA, nodeB]) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { email: user.email, password: user.password },
        remoteAddress: '10.9.4.200',
      });
      expectError(response, 429);
    }
  });

  it('does not count successful logins on either node', async () => {
    const ip = '10.9.5.1';
    for (let round = 0; round < 2; round += 1) {
      const statuses = await Promise.all(
        Array.from({ length: LOGIN_FAILURES_PER_WINDOW }, (_, index) =>
          (index % 2 === 0 ? nodeA : nodeB)
            .inject({
              method: 'POST',
              url: '/api/login',
              payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
              remoteAddress: ip,
            })
            .then((response) => response.statusCode),
        ),
      );
      expect(statuses).toEqual(Array.from({ length: LOGIN_FAILURES_PER_WINDOW }, () => 200));
    }
    expect(await redisClient.zcard(`${PREFIX}login:ip:${ip}`)).toBe(0);
  });

  it('refuses to start when REDIS_URL does not answer, and names the setting', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(
      buildApp({ config: loadConfig({ ...env, REDIS_URL: `redis://127.0.0.1:${port}` }), print: () => undefined }),
    ).rejects.toThrow(/REDIS_URL/);
  });
});

describe('REDIS_URL', () => {
  it('must be a redis:// or rediss:// URL', () => {
    expect(() => loadConfig({ REDIS_URL: 'localhost:6379' })).toThrow(/REDIS_URL must start with redis:\/\//);
    expect(loadConfig({ REDIS_URL: 'rediss://cache.internal:6380/2' }).redisUrl).toBe('rediss://cache.internal:6380/2');
    expect(loadConfig({ REDIS_URL: ' ' }).redisUrl).toBeUndefined();
  });
});
