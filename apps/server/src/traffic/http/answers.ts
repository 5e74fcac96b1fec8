// The answers of the click doors (fast-click.ts and the Fastify route in routes.ts): one function makes
// the status, headers and body of every answer to a click, and answers go out only once the events they
// answer are kept (the event writer's commit, one journal write for all the answers of a turn).
import { ERROR_MESSAGES, offerLinkPath } from '@switchyard/domain';
import { SECURITY_HEADERS } from '../../http/security-headers.js';
import type { ClickAnswer, TrafficEngine } from '../engine.js';
import { isWebUrl, NO_REFERRER_PAGES, PAGE_CSP, type PageMode, redirectPage } from './pages.js';

/** A routed click, or one whose event could not be kept (503: never answered as if it had been). */
export type ClickOutcome = ClickAnswer | { kind: 'unavailable' };

/** The headers of an answer with a JSON body (http/security-headers.ts): `before`, then the content's. */
function jsonHeaders(body: string, ...before: string[]): string[] {
  return [
    ...Object.entries(SECURITY_HEADERS).flat(),
    ...before,
    'content-type',
    'application/json; charset=utf-8',
    'content-length',
    String(Buffer.byteLength(body)),
  ];
}

const NOT_FOUND_BODY = JSON.stringify({ message: ERROR_MESSAGES.notFound });
const NOT_FOUND_HEADERS = jsonHeaders(NOT_FOUND_BODY, 'cache-control', 'no-store');
const INTERNAL_ERROR_BODY = JSON.stringify({ message: ERROR_MESSAGES.internal });
const INTERNAL_ERROR_HEADERS = jsonHeaders(INTERNAL_ERROR_BODY);
const UNAVAILABLE_BODY = JSON.stringify({ message: ERROR_MESSAGES.unavailable });
const UNAVAILABLE_HEADERS = jsonHeaders(UNAVAILABLE_BODY, 'cache-control', 'no-store', 'retry-after', '1');

/** An answer's status, headers (a flat list of names and values, as `writeHead` takes them) and body. */
export interface AnswerHead {
  status: number;
  headers: string[];
  body: string;
}

/**
 * The answer to a routed click: a 302 to the lander or offer with the visitor's cookies, or, with nowhere
 * to send the visitor, a 404 (the click is recorded either way).
 */
export function answerOf(result: ClickOutcome): AnswerHead {
  if (result.kind === 'unavailable') return { status: 503, headers: UNAVAILABLE_HEADERS, body: UNAVAILABLE_BODY };
  if (result.kind === 'too-long') return tooLongAnswer(result.field, result.limit);
  if (result.kind === 'redirect') {
    if (result.mode !== '302') return modeAnswer(result);
    // A flat list of names and values: no object to build and walk for every click.
    const headers = ['cache-control', 'no-store', 'location', result.location, 'content-length', '0'];
    for (const cookie of result.cookies) headers.push('set-cookie', cookie);
    return { status: 302, headers, body: '' };
  }
  const headers = [...NOT_FOUND_HEADERS];
  if (result.kind === 'no-route') for (const cookie of result.cookies) headers.push('set-cookie', cookie);
  return { status: 404, headers, body: NOT_FOUND_BODY };
}

const REDIRECT_STATUS: Readonly<Record<string, number>> = { '301': 301, '303': 303, '307': 307 };

/** The second step of `double_meta` and `remote`: the tracker's page that answers with the target. */
export function hopPath(campaignExternalId: string, clickId: string): string {
  return offerLinkPath(campaignExternalId, clickId).replace('/offer?', '/go?');
}

/** A click answered in a mode other than 302: another redirect status, or a page (pages.ts). */
function modeAnswer(result: Extract<ClickAnswer, { kind: 'redirect' }>): AnswerHead {
  const status = REDIRECT_STATUS[result.mode];
  const hop = result.mode === 'double_meta' || result.mode === 'remote';
  const to = hop ? hopPath(result.campaignExternalId, result.clickId) : result.location;
  if (status !== undefined || !isWebUrl(to)) {
    const headers = ['cache-control', 'no-store', 'location', result.location, 'content-length', '0'];
    for (const cookie of result.cookies) headers.push('set-cookie', cookie);
    return { status: status ?? 302, headers, body: '' };
  }
  return pageAnswer(result.mode as PageMode, to, result.cookies);
}

/** A redirect mode's page, with its headers (and the visitor's cookies). */
export function pageAnswer(mode: PageMode, to: string, cookies: readonly string[]): AnswerHead {
  const body = redirectPage(mode, to);
  const headers = [
    'cache-control',
    'no-store',
    'content-type',
    'text/html; charset=utf-8',
    'content-length',
    String(Buffer.byteLength(body)),
    'x-robots-tag',
    'noindex, nofollow',
    'x-content-type-options',
    'nosniff',
    'x-frame-options',
    'DENY',
    'referrer-policy',
    NO_REFERRER_PAGES.has(mode) ? 'no-referrer' : 'strict-origin-when-cross-origin',
    'content-security-policy',
    PAGE_CSP,
  ];
  for (const cookie of cookies) headers.push('set-cookie', cookie);
  return { status: 200, headers, body };
}

/** A click bringing a text past its limit is refused whole, with the field that is too long. */
function tooLongAnswer(field: string, limit: number): AnswerHead {
  const body = JSON.stringify({
    message: ERROR_MESSAGES.validation,
    errors: { [field]: [`At most ${limit.toLocaleString('en')} characters`] },
  });
  return { status: 400, headers: jsonHeaders(body, 'cache-control', 'no-store'), body };
}

/** The answer when routing a click failed unexpectedly. */
export function internalErrorAnswer(): AnswerHead {
  return { status: 500, headers: INTERNAL_ERROR_HEADERS, body: INTERNAL_ERROR_BODY };
}

/**
 * Answers written together once the event loop has routed every click that arrived with them (as Redis
 * writes its replies before it next waits for input): a write wakes the reader, and one wake-up for many
 * answers costs both sides less (bench/README.md). The batch's events are kept in the journal with one
 * write before any answer goes out. A click waits at most for the clicks routed after it in the same
 * iteration, and never for more than MAX_WAITING_ANSWERS of them.
 */
const MAX_WAITING_ANSWERS = 16;

export class AnswerBatch<Target> {
  private readonly waiting: { target: Target; result: ClickAnswer }[] = [];
  private scheduled = false;
  private readonly flush = () => {
    this.scheduled = false;
    const waiting = this.waiting.splice(0);
    // One journal write for the events of every answer about to go out.
    this.engine.commitEvents();
    for (const { target, result } of waiting) {
      try {
        this.write(target, keptOrUnavailable(this.engine, result));
      } catch (error) {
        // One answer that cannot be written (a header Node refuses) must not keep the others waiting.
        this.fail(target, error);
      }
    }
  };

  constructor(
    private readonly engine: TrafficEngine,
    private readonly write: (target: Target, result: ClickOutcome) => void,
    private readonly fail: (target: Target, error: unknown) => void,
  ) {}

  add(target: Target, result: ClickAnswer): void {
    this.waiting.push({ target, result });
    if (this.waiting.length >= MAX_WAITING_ANSWERS) {
      this.flush();
      return;
    }
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.flush);
  }
}

/** The answer itself when its event was kept (committing what waits), else 503. */
export function keptOrUnavailable(engine: TrafficEngine, result: ClickAnswer): ClickOutcome {
  return result.kind === 'not-found' || result.kind === 'too-long' || engine.kept(result.event)
    ? result
    : { kind: 'unavailable' };
}
