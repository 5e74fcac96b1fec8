import { Redis } from 'ioredis';

// Redis (REDIS_URL) holds what several server nodes must share: daily cap counters and failed-login
// counts. A click must never wait long on it: every command has a short deadline, and nothing is queued
// or resent while the connection is down, so a command then fails at once and its caller decides what
// a missing answer means (see RedisCapCounters and RedisLoginLimiter).

/** Redis on a working network answers in well under a millisecond; longer means it is in trouble. */
export const REDIS_COMMAND_TIMEOUT_MS = 250;
const CONNECT_TIMEOUT_MS = 5_000;

/** Every key Switchyard writes starts with this, so a Redis shared with other software stays tidy. */
export const REDIS_KEY_PREFIX = 'switchyard:';

export interface WarningLog {
  warn(object: unknown, message: string): void;
}

/**
 * Connects to `url` and waits until Redis answers. Fails (without retrying in the background) when it
 * does not: a node configured to share its counts must not start counting alone.
 */
export async function openRedis(url: string): Promise<Redis> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    enableOfflineQueue: false,
    // A cap take lost with a dropped connection may or may not have counted; resending it could count
    // it twice. Failing it is the safe side (the caller treats it as capped).
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
  });
  let lastError: unknown;
  // Without a listener ioredis prints every failed reconnect to the console; the app logs them instead.
  client.on('error', (error) => {
    lastError = error;
  });
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    const cause = lastError ?? error;
    throw new Error(`Redis (REDIS_URL) is not reachable: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
  return client;
}

/** Closes the connection, politely when Redis still answers. */
export async function closeRedis(client: Redis): Promise<void> {
  try {
    await client.quit();
  } catch {
    client.disconnect();
  }
}

/**
 * Warns about an outage at most once every `everyMs`, with how many failures went unsaid since: when
 * Redis is down every click fails the same way, and the log must stay readable.
 */
export class OutageWarning {
  private lastWarnedAt = Number.NEGATIVE_INFINITY;
  private unsaid = 0;

  constructor(
    private readonly log: WarningLog,
    private readonly message: string,
    private readonly everyMs = 5_000,
    private readonly now: () => number = Date.now,
  ) {}

  report(error: unknown): void {
    const now = this.now();
    if (now - this.lastWarnedAt < this.everyMs) {
      this.unsaid += 1;
      return;
    }
    this.log.warn({ err: error, failuresSinceLastWarning: this.unsaid }, this.message);
    this.lastWarnedAt = now;
    this.unsaid = 0;
  }
}
