// Conversions imported by an operator (lines of `clickid,status,payout,txid,currency`, through
// the same code as postbacks). The currency rates are the instance's: api/currency-rates.
import { type ImportedLine, MAX_IMPORT_LINES } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { workspaceOf } from '../../auth/workspace.js';
import { ValidationError } from '../../errors.js';
import { csvProblemsError, readCsvLines } from '../../http/csv-lines.js';
import { authorize } from '../../http/guard.js';
import { parseInput } from '../../http/parse.js';
import type { Database } from '../../store/schema.js';
import type { TrafficEngine } from '../../traffic/engine.js';
import { paramsOf } from '../../traffic/rules/postback-rules.js';

const IMPORT_COLUMNS = ['clickid', 'status', 'payout', 'txid', 'currency'] as const;

const ZImport = z.object({ text: z.string().max(2_000_000) });

/** The lines as `{ text }`, `{ lines: [...] }` (or a string), or a text/plain or text/csv body. */
function importBody(body: unknown): unknown {
  if (typeof body === 'string') return { text: body };
  if (typeof body === 'object' && body !== null && !('text' in body) && 'lines' in body) {
    const { lines } = body as { lines: unknown };
    if (Array.isArray(lines) && lines.every((line) => typeof line === 'string')) return { text: lines.join('\n') };
    if (typeof lines === 'string') return { text: lines };
  }
  return body;
}

/**
 * The lines of an import, each read into its columns (a header line naming `clickid` is skipped); a line
 * that cannot be read as CSV refuses the import, naming its line and column, before anything is counted.
 */
export function importLines(text: string): { line: number; text: string; values: Record<string, string> }[] {
  const { lines, problems } = readCsvLines(text, (cells) => cells[0]?.toLowerCase() === 'clickid');
  if (problems.length > 0) throw csvProblemsError(problems);
  return lines.map(({ line, text: sent, cells }) => {
    const values: Record<string, string> = {};
    IMPORT_COLUMNS.forEach((name, column) => {
      const cell = cells[column];
      // Whole: a value past POSTBACK_TEXT_LIMITS is refused by paramsOf, never cut.
      if (cell) values[name] = cell;
    });
    return { line, text: sent, values };
  });
}

export function conversionRoutes(app: FastifyInstance, db: Kysely<Database>, engine: TrafficEngine): void {
  void app.register(async (scope) => {
    scope.addContentTypeParser(['text/csv'], { parseAs: 'string', bodyLimit: 2_100_000 }, (_request, body, done) =>
      done(null, body),
    );
    scope.post('/conversions/import', { bodyLimit: 2_100_000 }, async (request) => {
      const actor = authorize(request, 'general', 'conversion', 'create');
      const { text } = parseInput(ZImport, importBody(request.body));
      const lines = importLines(text);
      if (lines.length === 0)
        throw new ValidationError({ text: ['Paste at least one line: clickid,status,payout,txid,currency'] });
      if (lines.length > MAX_IMPORT_LINES) {
        throw new ValidationError({ text: [`At most ${MAX_IMPORT_LINES.toLocaleString('en')} lines at a time`] });
      }
      const workspace = await db
        .selectFrom('workspaces')
        .select(['id', 'currency'])
        .where('id', '=', workspaceOf(actor))
        .executeTakeFirstOrThrow();
      const results: ImportedLine[] = [];
      for (const line of lines) {
        const answer = await engine.postback({
          params: paramsOf({ ...line.values, source: 'import' }),
          ip: request.ip,
          caller: { workspace, imported: true },
        });
        results.push({
          line: line.line,
          text: line.text,
          outcome: answer.outcome,
          status: answer.status,
          message: answer.reason,
          conversion_id: answer.conversionId,
          state: answer.state,
        });
      }
      const counted = results.filter(
        (line) => line.outcome === 'converted' || line.outcome === 'status_changed',
      ).length;
      return { lines: results, counted, refused: results.filter((line) => line.status !== 200).length };
    });
  });
}
