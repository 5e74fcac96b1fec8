// A CSV cost import of 100,000 lines answers in seconds. Each line still means what
// one cost update means (service.ts: the campaign's clicks of that local day, of one parameter value if
// named, share its amount), and a later line wins over an earlier one for the clicks both name. The work
// is set-based: the campaigns are found in one query, each campaign's clicks of the days named are read
// once, the lines are applied in memory in order, and only the clicks whose cost moved are written, a
// few thousand per statement, in one transaction with their change log and rollups.
import { COST_FILTER_KEYS, type CostImportLine, type TCostUpdate, ZCostUpdate } from '@switchyard/domain';
import type { Kysely } from 'kysely';
import { ApiError, NotFoundError, ValidationError } from '../errors.js';
import type { CsvLine } from '../http/csv-lines.js';
import { parseInput } from '../http/parse.js';
import { nextDay, startOfLocalDay } from '../report-plan/time.js';
import { bulkTransaction } from '../store/bulk-transaction.js';
import { recordCostChanges } from '../store/click-cost-changes.js';
import type { Store } from '../store/database.js';
import { applyRollupDeltas } from '../store/report-rollups.js';
import type { Database } from '../store/schema.js';
import { freshStatistics } from '../store/statistics.js';
import { CHUNK, type Click, clicksOf, writeCosts } from './import-clicks.js';
import { costDeltas, isBot, MICROS, NO_CLICKS_MESSAGE, spread } from './service.js';
import { turn } from './turns.js';

/** The column (from 1) of each field a line's error may name. */
const COLUMN_OF: Record<string, number> = {
  date: 1,
  start: 1,
  end: 1,
  campaign: 2,
  var_name: 3,
  filter: 4,
  var_value: 4,
  amount: 5,
};

/** A line read and checked, with the instants of its local day. */
interface CostLineUpdate {
  index: number;
  campaign: string;
  input: TCostUpdate;
  from: string;
  to: string;
}

/** A refused line's answer: its status, message and column, from the error that refused it. */
function refusal(line: CsvLine, error: ApiError): CostImportLine {
  const first = Object.entries(error.errors ?? {})[0];
  const field = first?.[0].split('.')[0];
  const message = first && first[1][0] !== error.message ? `${first[0]}: ${first[1][0]}` : error.message;
  return {
    line: line.line,
    text: line.text,
    status: error.statusCode,
    clicks: 0,
    message,
    column: field === undefined ? (error instanceof NotFoundError ? 2 : null) : (COLUMN_OF[field] ?? null),
  };
}

/** The workspace's tracker campaigns named by the lines: by external id, else by name (the oldest). */
async function campaignsNamed(db: Kysely<Database>, workspaceId: number, references: string[]) {
  const found = new Map<string, string>();
  const byName = new Map<string, string>();
  for (let start = 0; start < references.length; start += CHUNK / 2) {
    const chunk = references.slice(start, start + CHUNK / 2);
    const rows = await db
      .selectFrom('config_records')
      .select(['external_id', 'name'])
      .where('kind', '=', 'tracker-campaigns')
      .where('workspace_id', '=', workspaceId)
      .where((where) => where.or([where('external_id', 'in', chunk), where('name', 'in', chunk)]))
      .orderBy('id')
      .execute();
    for (const row of rows) {
      found.set(row.external_id, row.external_id);
      if (!byName.has(row.name)) byName.set(row.name, row.external_id);
    }
  }
  return (reference: string) => found.get(reference) ?? byName.get(reference);
}

/** The ranges of instants the lines of one campaign cover, overlapping ones merged. */
function mergedRanges(updates: readonly CostLineUpdate[]): [string, string][] {
  const sorted = [...updates].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
  const ranges: [string, string][] = [];
  for (const { from, to } of sorted) {
    const last = ranges[ranges.length - 1];
    if (last && from <= last[1]) {
      if (to > last[1]) last[1] = to;
    } else ranges.push([from, to]);
  }
  return ranges;
}

/** The first index of `clicks` (by created_at) at or after `instant`. */
function firstAtOrAfter(clicks: readonly Click[], instant: string): number {
  let low = 0;
  let high = clicks.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (clicks[middle]!.created_at < instant) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The clicks (by created_at) a filter's first parameter can match: all of them without one, else those
 * of its value, grouped once per parameter, so a line reads only its own value's clicks.
 */
function clicksByValue(clicks: readonly Click[]) {
  const byKey = new Map<string, Map<unknown, Click[]>>();
  return (first: [string, unknown] | undefined): readonly Click[] => {
    if (!first) return clicks;
    const [key, value] = first;
    let byValue = byKey.get(key);
    if (!byValue) {
      byValue = new Map();
      for (const click of clicks) {
        const group = byValue.get(click[key]);
        if (group) group.push(click);
        else byValue.set(click[key], [click]);
      }
      byKey.set(key, byValue);
    }
    return byValue.get(value) ?? [];
  };
}

/** Sets each line's cost; answers every line, in the order sent. */
export async function importCosts(
  store: Store,
  workspaceId: number,
  lines: readonly CsvLine[],
  timezone: string,
  /** Makes the change durable off the event loop (the engine's); see bulkTransaction. */
  durable?: () => Promise<void>,
): Promise<CostImportLine[]> {
  const answers: (CostImportLine | undefined)[] = new Array(lines.length);
  const checked: { index: number; reference: string; input: TCostUpdate }[] = [];
  lines.forEach((line, index) => {
    const [date = '', reference = '', varName = '', varValue = '', amount = ''] = line.cells;
    try {
      if (reference === '') throw new ValidationError({ campaign: ['Name the campaign: its id or its name.'] });
      if (varName !== '' && !(COST_FILTER_KEYS as readonly string[]).includes(varName)) {
        throw new ValidationError({ var_name: [`Use one of ${COST_FILTER_KEYS.join(', ')}, or leave it empty.`] });
      }
      const input = parseInput(ZCostUpdate, {
        start: date,
        end: date,
        timezone,
        amount: amount === '' ? undefined : Number(amount),
        filter: varName === '' ? {} : { [varName]: varValue },
      });
      checked.push({ index, reference, input });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      answers[index] = refusal(line, error);
    }
  });

  const campaignOf = await campaignsNamed(store.db, workspaceId, [...new Set(checked.map((one) => one.reference))]);
  const byCampaign = new Map<string, CostLineUpdate[]>();
  // A day's instants, worked out once per day and zone rather than once per line.
  const ranges = new Map<string, [string, string]>();
  const rangeOf = (input: TCostUpdate): [string, string] => {
    const key = `${input.start} ${input.end} ${input.timezone}`;
    let range = ranges.get(key);
    if (!range) {
      range = [
        startOfLocalDay(input.start, input.timezone).toISOString(),
        startOfLocalDay(nextDay(input.end), input.timezone).toISOString(),
      ];
      ranges.set(key, range);
    }
    return range;
  };
  for (const { index, reference, input } of checked) {
    const campaign = campaignOf(reference);
    if (campaign === undefined) {
      answers[index] = refusal(lines[index]!, new NotFoundError(`No campaign ${reference} in this workspace.`));
      continue;
    }
    const [from, to] = rangeOf(input);
    const updates = byCampaign.get(campaign) ?? [];
    updates.push({ index, campaign, input, from, to });
    byCampaign.set(campaign, updates);
  }

  await freshStatistics(store, 'tracker_clicks');
  await bulkTransaction(
    store,
    async (trx) => {
      // Each click's cost as stored and as the lines leave it.
      const stored = new Map<number, Click>();
      const costs = new Map<number, number>();
      for (const [campaign, updates] of byCampaign) {
        const clicks = await clicksOf(store, trx, workspaceId, campaign, mergedRanges(updates));
        for (const click of clicks) stored.set(click.id, click);
        const candidatesOf = clicksByValue(clicks);
        for (const update of updates.sort((a, b) => a.index - b.index)) {
          const matched: Click[] = [];
          const filter = Object.entries(update.input.filter);
          const candidates = candidatesOf(filter[0]);
          for (let at = firstAtOrAfter(candidates, update.from); at < candidates.length; at += 1) {
            const click = candidates[at]!;
            if (click.created_at >= update.to) break;
            if (filter.every(([key, value]) => click[key] === value)) matched.push(click);
          }
          const line = lines[update.index]!;
          // The amount is spread over human clicks; bots' clicks cost nothing of it.
          const humans = matched.filter((click) => !isBot(click));
          if (humans.length === 0) {
            answers[update.index] = refusal(
              line,
              new ValidationError({ start: [NO_CLICKS_MESSAGE] }, NO_CLICKS_MESSAGE),
            );
            continue;
          }
          // The amount's remainder goes to the last click in id order, as a single update gives it.
          humans.sort((a, b) => a.id - b.id);
          const shares = spread(update.input.amount, humans.length);
          humans.forEach((click, at) => {
            costs.set(click.id, shares[at]! / MICROS);
          });
          for (const click of matched) if (isBot(click)) costs.set(click.id, 0);
          answers[update.index] = {
            line: line.line,
            text: line.text,
            status: 200,
            clicks: humans.length,
            message: null,
            column: null,
          };
        }
      }
      const changed: Click[] = [];
      for (const [id, cost] of costs) {
        const click = stored.get(id)!;
        if (cost !== Number(click.cost)) changed.push({ ...click, cost });
      }
      await writeCosts(store, trx, workspaceId, changed);
      const moves = changed.map((click) => ({ ...click, cost: click.cost - Number(stored.get(click.id)!.cost) }));
      await recordCostChanges(trx, moves, turn);
      await applyRollupDeltas(trx, await costDeltas(moves), turn);
    },
    durable,
  );
  return answers.map((answer) => answer!);
}
