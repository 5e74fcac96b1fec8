// A live Keitaro read through its Admin API v1 (https://admin-api.docs.keitaro.io/): each list
// by GET `/admin_api/v1/{list}` with the `Api-Key` header, through the checked outbound sender (no
// internal address unless SWITCHYARD_ALLOW_PRIVATE_TARGETS), each answer bounded in size and time.
// A wrong key or an unreachable tracker is a 400 naming which; nothing is read further.

import { ValidationError } from '../errors.js';
import { sendOutbound } from '../http/outbound-request.js';
import type { TargetOptions } from '../http/outbound-targets.js';

const LISTS = [
  'campaigns',
  'streams',
  'offers',
  'landing_pages',
  'affiliate_networks',
  'traffic_sources',
  'domains',
] as const;
const BODY_LIMIT = 20_000_000;

export async function readKeitaro(
  base: string,
  apiKey: string,
  targets: TargetOptions,
): Promise<Record<string, unknown>> {
  const root = base.replace(/\/+$/, '');
  const file: Record<string, unknown> = {};
  for (const list of LISTS) {
    // Streams are read per campaign in the API; `/streams` is not a list of all of them.
    if (list === 'streams') continue;
    file[list] = await getList(`${root}/admin_api/v1/${list}`, apiKey, targets);
  }
  const streams: unknown[] = [];
  for (const campaign of (file.campaigns as { id?: unknown }[]) ?? []) {
    const id = Number(campaign?.id);
    if (!Number.isSafeInteger(id)) continue;
    const found = await getList(`${root}/admin_api/v1/campaigns/${id}/streams`, apiKey, targets);
    streams.push(...found);
  }
  file.streams = streams;
  return file;
}

async function getList(url: string, apiKey: string, targets: TargetOptions): Promise<unknown[]> {
  const parsed = await getJson(url, { 'Api-Key': apiKey }, targets);
  if (Array.isArray(parsed)) return parsed;
  throw notTheApi(url, 'a JSON list');
}

/** The answer's JSON, or a 400 naming what went wrong: unreachable, a refused key, an error status. */
export async function getJson(url: string, headers: Record<string, string>, targets: TargetOptions): Promise<unknown> {
  const result = await sendOutbound(url, {
    ...targets,
    timeoutMs: 20_000,
    maxRedirects: 0,
    bodyLimit: BODY_LIMIT,
    headers: { ...headers, Accept: 'application/json' },
  });
  if (result.kind === 'refused')
    throw new ValidationError(
      { url: [`The tracker cannot be reached: ${result.reason}`] },
      'The tracker cannot be reached.',
    );
  if (result.kind === 'failed')
    throw new ValidationError({ url: [`The tracker did not answer: ${result.error}`] }, 'The tracker did not answer.');
  const { status, body } = result.answer;
  if (status === 401 || status === 403) {
    throw new ValidationError({ api_key: ['The tracker refused this API key.'] }, 'The tracker refused the API key.');
  }
  if (status !== 200) {
    throw new ValidationError(
      { url: [`The tracker answered ${status} at ${new URL(url).pathname}.`] },
      'The tracker answered with an error.',
    );
  }
  try {
    return JSON.parse(body) as unknown;
  } catch {
    throw notTheApi(url, 'JSON');
  }
}

export function notTheApi(url: string, what: string): ValidationError {
  return new ValidationError(
    { url: [`The tracker's answer at ${new URL(url).pathname} is not ${what}.`] },
    'The tracker answered something else than its API.',
  );
}
