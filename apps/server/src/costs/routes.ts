// Issue 20: cost updates. `POST /api/tracker/campaigns/{external_id}/costs` sets a campaign's cost over a
// range of days (optionally of one parameter value); `POST /api/tracker/campaigns/costs/import` takes
// lines of `date,campaign,var_name,var_value,amount` and answers each, every line through the same code.
import {
  COST_FILTER_KEYS,
  type CostImportLine,
  type CostImportResponse,
  MAX_COST_IMPORT_LINES,
  ZCostUpdate,
} from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { authorize } from '../api/guard.js';
import { parseInput } from '../api/parse.js';
import { workspaceOf } from '../auth/workspace.js';
import { ApiError, NotFoundError, ValidationError } from '../errors.js';
import type { Store } from '../store/database.js';
import type { TrafficEngine } from '../traffic/engine.js';
import { campaignOf, updateCampaignCost } from './service.js';

const ZImport = z.object({
  text: z.string({ error: 'Paste the lines: date,campaign,var_name,var_value,amount' }).max(2_000_000),
  timezone: z.string().optional(),
});

/** The lines as `{ text }`, or a text/plain or text/csv body. */
function importBody(body: unknown): unknown {
  return typeof body === 'string' ? { text: body } : body;
}

interface CostLine {
  line: number;
  text: string;
  cells: string[];
}

/** The lines of an import split into cells; a header line starting with `date` is skipped. */
export function costImportLines(text: string): CostLine[] {
  const lines: CostLine[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || (lines.length === 0 && /^"?date"?\s*[,;\t]/i.test(line))) return;
    const cells = line.split(/[,;\t]/).map((cell) => cell.trim().replace(/^"(.*)"$/, '$1'));
    lines.push({ line: index + 1, text: line.slice(0, 500), cells });
  });
  return lines;
}

/** The first message of a validation error, naming its field. */
function messageOf(error: ApiError): string {
  const first = Object.entries(error.errors ?? {})[0];
  if (!first) return error.message;
  const [field, messages] = first;
  return messages[0] === error.message ? error.message : `${field}: ${messages[0] ?? error.message}`;
}

export function costRoutes(app: FastifyInstance, store: Store, engine: TrafficEngine): void {
  app.post<{ Params: { id: string } }>('/tracker/campaigns/:id/costs', async (request) => {
    const actor = authorize(request, 'tracker', 'campaign', 'update');
    const campaign = await campaignOf(store.db, workspaceOf(actor), request.params.id);
    const input = parseInput(ZCostUpdate, request.body);
    // Clicks already answered are stored first, so that they are counted.
    await engine.flush();
    return {
      clicks: await updateCampaignCost(store, campaign.external_id, input, { workspaceId: workspaceOf(actor) }),
    };
  });

  void app.register(async (scope) => {
    scope.addContentTypeParser(['text/csv'], { parseAs: 'string', bodyLimit: 2_100_000 }, (_request, body, done) =>
      done(null, body),
    );
    scope.post('/tracker/campaigns/costs/import', { bodyLimit: 2_100_000 }, async (request) => {
      const actor = authorize(request, 'tracker', 'campaign', 'update');
      const workspaceId = workspaceOf(actor);
      const { text, timezone } = parseInput(ZImport, importBody(request.body));
      const lines = costImportLines(text);
      if (lines.length === 0) {
        throw new ValidationError({ text: ['Paste at least one line: date,campaign,var_name,var_value,amount'] });
      }
      if (lines.length > MAX_COST_IMPORT_LINES) {
        throw new ValidationError({ text: [`At most ${MAX_COST_IMPORT_LINES.toLocaleString('en')} lines at a time`] });
      }
      await engine.flush();
      const results: CostImportLine[] = [];
      for (const { line, text: lineText, cells } of lines) {
        const [date = '', campaignRef = '', varName = '', varValue = '', amount = ''] = cells;
        try {
          const campaign = await findCampaign(store, workspaceId, campaignRef);
          if (varName !== '' && !(COST_FILTER_KEYS as readonly string[]).includes(varName)) {
            throw new ValidationError({ var_name: [`Use one of ${COST_FILTER_KEYS.join(', ')}, or leave it empty.`] });
          }
          const input = parseInput(ZCostUpdate, {
            start: date,
            end: date,
            timezone: timezone || 'UTC',
            amount: amount.trim() === '' ? undefined : Number(amount),
            filter: varName === '' ? {} : { [varName]: varValue },
          });
          const clicks = await updateCampaignCost(store, campaign.external_id, input, { workspaceId });
          results.push({ line, text: lineText, status: 200, clicks, message: null });
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          results.push({ line, text: lineText, status: error.statusCode, clicks: 0, message: messageOf(error) });
        }
      }
      const answer: CostImportResponse = {
        lines: results,
        updated: results.filter((result) => result.status === 200).length,
        refused: results.filter((result) => result.status !== 200).length,
      };
      return answer;
    });
  });
}

/** A campaign of the workspace named by its external id, else by its name. */
async function findCampaign(store: Store, workspaceId: number, reference: string) {
  if (reference === '') throw new ValidationError({ campaign: ['Name the campaign: its id or its name.'] });
  const found = await store.db
    .selectFrom('config_records')
    .select(['external_id'])
    .where('kind', '=', 'tracker-campaigns')
    .where('workspace_id', '=', workspaceId)
    .where((where) => where.or([where('external_id', '=', reference), where('name', '=', reference)]))
    .orderBy('id')
    .execute();
  const exact = found.find((row) => row.external_id === reference) ?? found[0];
  if (!exact) throw new NotFoundError(`No campaign ${reference} in this workspace.`);
  return exact;
}
