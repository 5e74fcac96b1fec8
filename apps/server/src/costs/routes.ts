// Cost updates. `POST /api/tracker/campaigns/{external_id}/costs` sets a campaign's cost over a
// range of days (optionally of one parameter value); `POST /api/tracker/campaigns/costs/import` takes
// lines of `date,campaign,var_name,var_value,amount` (CSV, as a spreadsheet writes it) and answers each,
// every line meaning what one update means (import.ts).
import { type CostImportResponse, MAX_COST_IMPORT_LINES, ZCostUpdate } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { workspaceOf } from '../auth/workspace.js';
import { ValidationError } from '../errors.js';
import { csvProblemsError, readCsvLines } from '../http/csv-lines.js';
import { authorize } from '../http/guard.js';
import { parseInput } from '../http/parse.js';
import type { Store } from '../store/database.js';
import type { TrafficEngine } from '../traffic/engine.js';
import { CostWork } from './cost-thread.js';
import { campaignOf } from './service.js';

/** Room for 100,000 lines of about 60 characters. */
const IMPORT_TEXT_LIMIT = 8_000_000;
const IMPORT_BODY_LIMIT = IMPORT_TEXT_LIMIT + 100_000;

const ZImport = z.object({
  text: z.string({ error: 'Paste the lines: date,campaign,var_name,var_value,amount' }).max(IMPORT_TEXT_LIMIT),
  timezone: z.string().optional(),
});

/** The lines as `{ text }`, or a text/plain or text/csv body. */
function importBody(body: unknown): unknown {
  return typeof body === 'string' ? { text: body } : body;
}

/** A header line starts with `date`; it is left out. */
const isHeader = (cells: string[]) => cells[0]?.toLowerCase() === 'date';

export function costRoutes(app: FastifyInstance, store: Store, engine: TrafficEngine): void {
  const costs = new CostWork(store);
  app.addHook('onClose', async () => costs.close());

  app.post<{ Params: { id: string } }>('/tracker/campaigns/:id/costs', async (request) => {
    const actor = authorize(request, 'tracker', 'campaign', 'update');
    const campaign = await campaignOf(store.db, workspaceOf(actor), request.params.id);
    const input = parseInput(ZCostUpdate, request.body);
    // Clicks already answered are stored first, so that they are counted.
    await engine.flush();
    return {
      clicks: await costs.setCampaignCost(
        campaign.external_id,
        input,
        { workspaceId: workspaceOf(actor) },
        engine.durable,
      ),
    };
  });

  void app.register(async (scope) => {
    scope.addContentTypeParser(
      ['text/csv'],
      { parseAs: 'string', bodyLimit: IMPORT_BODY_LIMIT },
      (_request, body, done) => done(null, body),
    );
    scope.post('/tracker/campaigns/costs/import', { bodyLimit: IMPORT_BODY_LIMIT }, async (request) => {
      const actor = authorize(request, 'tracker', 'campaign', 'update');
      const workspaceId = workspaceOf(actor);
      const { text, timezone } = parseInput(ZImport, importBody(request.body));
      const { lines, problems } = readCsvLines(text, isHeader);
      if (problems.length > 0) throw csvProblemsError(problems);
      if (lines.length === 0) {
        throw new ValidationError({ text: ['Paste at least one line: date,campaign,var_name,var_value,amount'] });
      }
      if (lines.length > MAX_COST_IMPORT_LINES) {
        throw new ValidationError({ text: [`At most ${MAX_COST_IMPORT_LINES.toLocaleString('en')} lines at a time`] });
      }
      // Clicks already answered are stored first, so that they are counted.
      await engine.flush();
      const results = await costs.importCosts(workspaceId, lines, timezone || 'UTC', engine.durable);
      const answer: CostImportResponse = {
        lines: results,
        updated: results.filter((result) => result.status === 200).length,
        refused: results.filter((result) => result.status !== 200).length,
      };
      return answer;
    });
  });
}
