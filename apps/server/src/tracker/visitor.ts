import { randomBytes } from 'node:crypto';

export const VISITOR_COOKIE = 'sy_vid';
/** Set on the campaign's own path: a click while it lives is not unique. */
export const UNIQUE_COOKIE = 'sy_seen';
const VISITOR_MAX_AGE_S = 365 * 24 * 60 * 60;
const UNIQUE_WINDOW_S = 24 * 60 * 60;
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

/** A random id, 22 base64url characters (128 bits); bytes come from a pool refilled 16 KiB at a time. */
export function newEventId(): string {
  if (offset === pool.length) {
    pool = randomBytes(ID_BYTES * POOL_IDS);
    offset = 0;
  }
  const id = pool.toString('base64url', offset, offset + ID_BYTES);
  offset += ID_BYTES;
  return id;
}

export interface Visitor {
  id: string;
  /** The visitor's first click on this campaign in the uniqueness window. */
  unique: boolean;
  /** Set-Cookie values to send back. */
  cookies: string[];
}

/** The visitor behind a click, from its cookies; a new one when it has none (or a forged one). */
export function identifyVisitor(cookieHeader: string | undefined, campaignExternalId: string): Visitor {
  const known = cookieValue(cookieHeader, VISITOR_COOKIE);
  const id = known && VISITOR_ID.test(known) ? known : newEventId();
  const unique = cookieValue(cookieHeader, UNIQUE_COOKIE) === undefined;
  const cookies: string[] = [];
  if (id !== known)
    cookies.push(`${VISITOR_COOKIE}=${id}; Path=/; Max-Age=${VISITOR_MAX_AGE_S}; HttpOnly; SameSite=Lax`);
  if (unique) {
    cookies.push(
      `${UNIQUE_COOKIE}=1; Path=/c/${campaignExternalId}; Max-Age=${UNIQUE_WINDOW_S}; HttpOnly; SameSite=Lax`,
    );
  }
  return { id, unique, cookies };
}
