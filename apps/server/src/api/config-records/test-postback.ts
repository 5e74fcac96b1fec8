// "Send test postback": a traffic source's postback URL, its macros filled with sample values,
// sent once as the worker would send it, with the request and its answer shown to the operator. The same
// checks apply as when the URL is saved and when a real postback is sent.
import { type TestPostbackAnswer, VALIDATION_MESSAGES, ZMacroUrl } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ValidationError } from '../../errors.js';
import { authorize } from '../../http/guard.js';
import { sendOutbound } from '../../http/outbound-request.js';
import { type TargetOptions, targetRefusal } from '../../http/outbound-targets.js';
import { parseInput } from '../../http/parse.js';
import { compileUrlTemplate, type MacroValues } from '../../traffic/rules/macros.js';

export const TEST_POSTBACK_PATH = '/traffic-sources/test-postback';
/** How long the test waits for the traffic source, redirects included. */
export const TEST_POSTBACK_TIMEOUT_MS = 5000;
/** Characters of the answer's body shown. */
export const TEST_POSTBACK_BODY_LIMIT = 2000;

const ZTestPostback = z.object({ url: ZMacroUrl });

/** What the macros of a test postback are filled with. */
export function samplePostbackValues(now: Date): MacroValues {
  const values: Record<string, string> = {
    clickid: 'test-click',
    lead_id: 'test-lead',
    campaign_id: 'test-campaign',
    offer_id: 'test-offer',
    lander_id: 'test-lander',
    country: 'US',
    payout: '1.00',
    status: 'approved',
    txid: `test-${now.getTime()}`,
    external_id: 'test-external-id',
    subaff: 'test-subaff',
  };
  for (let index = 1; index <= 10; index += 1) values[`var${index}`] = `test-var${index}`;
  return values;
}

/** `POST /api/traffic-sources/test-postback` `{ url }`, for whoever may update traffic sources. */
export function testPostbackRoutes(app: FastifyInstance, options: TargetOptions): void {
  app.post(TEST_POSTBACK_PATH, async (request): Promise<TestPostbackAnswer> => {
    authorize(request, 'general', 'traffic-source', 'update');
    const { url: template } = parseInput(ZTestPostback, request.body);
    const refused = () => new ValidationError({ url: [VALIDATION_MESSAGES.privateTarget] });
    if (
      !options.allowPrivateTargets &&
      (await targetRefusal(template, options.resolve ? { resolve: options.resolve } : {}))
    ) {
      throw refused();
    }
    const url = compileUrlTemplate(template).fill(samplePostbackValues(new Date()));
    if (url === null) throw new ValidationError({ url: [VALIDATION_MESSAGES.macroInHost] });
    const started = performance.now();
    const result = await sendOutbound(url, {
      ...options,
      timeoutMs: TEST_POSTBACK_TIMEOUT_MS,
      bodyLimit: TEST_POSTBACK_BODY_LIMIT,
    });
    const duration = Math.round(performance.now() - started);
    if (result.kind === 'refused') throw refused();
    return {
      request: { method: 'GET', url },
      response:
        result.kind === 'answered'
          ? { status: result.answer.status, headers: result.answer.headers, body: result.answer.body }
          : null,
      error: result.kind === 'failed' ? result.error : null,
      duration_ms: duration,
    };
  });
}
