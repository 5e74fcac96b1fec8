import { randomBytes } from 'node:crypto';

export const VISITOR_COOKIE = 'sy_vid';
/** Set on the campaign's own path: a click while it lives is not unique. */
export const UNIQUE_COOKIE = 'sy_seen';
const VISITOR_MAX_AGE_S = 365 * 24 * 60 * 60;
const DEFAULT_UNIQUE_WINDOW_S = 24 * 60 * 60;
const VISITOR_ID = /^[A-Za-z0-9_-]{16,64}$/;

/** One cookie's value from a Cookie header, without parsing the rest. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}

const ID_BYTES = 16;
const POOL_IDS = 1024;
let pool = randomBytes(ID_BYTES * POOL_IDS);
let offset = 0;

/** `count` random bytes from a pool refilled 16 KiB at a time; answers where they start in `pool`. */
function takeRandom(count: number): number {
  if (offset + count > pool.length) {
    pool = randomBytes(ID_BYTES * POOL_IDS);
    offset = 0;
  }
  const start = offset;
  offset += count;
  return start;
}

/** A random id, 22 base64url characters (128 bits): visitor ids, which say nothing of when they were made. */
export function newRandomId(): string {
  const start = takeRandom(ID_BYTES);
  return pool.toString('base64url', start, start + ID_BYTES);
}

/** base64url's 64 characters in ASCII order, so that ids compare as their bits do. */
const SORTABLE = '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz';
const TIME_BYTES = 6;
/** Milliseconds fit 42 bits until 2109 (then they wrap); the 6 bits after them in the time bytes are random. */
const TIME_RANGE = 2 ** 42;
const scratch = Buffer.alloc(ID_BYTES);

/**
 * A click, lead or conversion id: 22 characters of the URL-safe alphabet, the creation time in
 * milliseconds (42 bits) followed by 86 random bits, in an alphabet ordered as ASCII is. Ids made close
 * together in time sort next to each other, so the unique index on them is written at its end, one
 * page per batch, rather than at a random page per event (which cost more than the rest of the insert
 * on a table of millions). 86 random bits keep them unguessable.
 */
export function newEventId(now = Date.now()): string {
  const start = takeRandom(ID_BYTES - TIME_BYTES + 1);
  scratch.writeUIntBE((now % TIME_RANGE) * 64 + (pool[start]! & 63), 0, TIME_BYTES);
  pool.copy(scratch, TIME_BYTES, start + 1, offset);
  let id = '';
  for (let index = 0; index < 15; index += 3) {
    const bits = (scratch[index]! << 16) | (scratch[index + 1]! << 8) | scratch[index + 2]!;
    id += SORTABLE[bits >>> 18]! + SORTABLE[(bits >>> 12) & 63]! + SORTABLE[(bits >>> 6) & 63]! + SORTABLE[bits & 63]!;
  }
  const last = scratch[15]!;
  return id + SORTABLE[last >>> 2]! + SORTABLE[(last & 3) << 4]!;
}

const SORTABLE_VALUE = new Map([...SORTABLE].map((character, index) => [character, index]));
/** Characters holding the 42 bits of time. */
const TIME_CHARACTERS = 7;

/**
 * When an id from newEventId was made (milliseconds since 1970, as of the 2109 wrap), or null for what
 * cannot be one. Ids made otherwise (before ids carried their time) read as some arbitrary time.
 */
export function eventIdTime(id: string): number | null {
  if (id.length !== 22) return null;
  let time = 0;
  for (let index = 0; index < TIME_CHARACTERS; index += 1) {
    const value = SORTABLE_VALUE.get(id[index]!);
    if (value === undefined) return null;
    time = time * 64 + value;
  }
  return time;
}

export interface Visitor {
  id: string;
  /** The id the visitor's own cookie brought; undefined for a visitor without one (or a forged one). */
  cookieId: string | undefined;
  /** No uniqueness cookie of this campaign came with the click (its window has not begun or has passed). */
  unique: boolean;
  /** Set-Cookie values to send back. */
  cookies: string[];
}

/** The visitor behind a click, from its cookies; a new one when it has none (or a forged one). */
export function identifyVisitor(
  cookieHeader: string | undefined,
  campaignExternalId: string,
  /** The campaign's uniqueness window: the cookie lives as long. */
  windowSeconds = DEFAULT_UNIQUE_WINDOW_S,
): Visitor {
  const known = cookieValue(cookieHeader, VISITOR_COOKIE);
  const cookieId = known && VISITOR_ID.test(known) ? known : undefined;
  const id = cookieId ?? newRandomId();
  const unique = cookieValue(cookieHeader, UNIQUE_COOKIE) === undefined;
  const cookies: string[] = [];
  if (id !== known)
    cookies.push(`${VISITOR_COOKIE}=${id}; Path=/; Max-Age=${VISITOR_MAX_AGE_S}; HttpOnly; SameSite=Lax`);
  if (unique) {
    cookies.push(`${UNIQUE_COOKIE}=1; Path=/c/${campaignExternalId}; Max-Age=${windowSeconds}; HttpOnly; SameSite=Lax`);
  }
  return { id, cookieId, unique, cookies };
}
