// The currency rates conversions are converted by, units of each currency one US dollar buys.
// They are the instance's, not a workspace's: changed under the instance's settings permission,
// every change kept in history (as of no workspace), and no rate saved that would turn an amount the
// tracker may convert into one too large to keep.
import { CURRENCIES, can, VALIDATION_MESSAGES, ZCurrencyCode } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { canInstance } from '../../auth/instance.js';
import { ForbiddenError, ValidationError } from '../../errors.js';
import { authorizeInstance, requireActor } from '../../http/guard.js';
import { parseInput } from '../../http/parse.js';
import { CURRENCY_SNAPSHOT } from '../../store/currency-snapshot.js';
import { now } from '../../store/database.js';
import { keepChange } from '../../store/history-keep.js';
import type { Database } from '../../store/schema.js';
import { largestConvertibleAmount, overflowingRates } from './limits.js';

const ZRates = z.object({
  rates: z
    .array(
      z.object({
        code: ZCurrencyCode,
        // Units one US dollar buys; how small a rate may be depends on the amounts stored (limits.ts).
        rate: z.number({ error: VALIDATION_MESSAGES.invalidNumber }).finite().positive().max(1e9),
      }),
    )
    .min(1)
    .max(500),
});

/** ISO 4217 codes that name no money: testing, and "no currency". */
const NOT_MONEY = new Set(['XTS', 'XXX']);

const CURRENCY_NAMES = new Map(CURRENCIES.map((currency) => [currency.Code, currency.Name]));

/** What history keeps of a rate. */
type KeptRate = { rate: number; source: string };

export function currencyRateRoutes(app: FastifyInstance, db: Kysely<Database>): void {
  const stored = async () => {
    const rows = await db.selectFrom('currency_rates').selectAll().orderBy('code').execute();
    return rows.map((row) => ({ ...row, rate: Number(row.rate) }));
  };
  const rates = async () => ({
    base: 'USD',
    snapshot_date: CURRENCY_SNAPSHOT.date,
    list: (await stored()).map((row) => ({
      code: row.code,
      name: CURRENCY_NAMES.get(row.code) ?? row.code,
      rate: row.rate,
      source: row.source,
      updated_at: row.updated_at,
    })),
  });

  // Read by whoever may see the workspaces too: a workspace's currency is chosen among the rated ones.
  app.get('/currency-rates', async (request) => {
    const actor = requireActor(request);
    if (!can(actor, 'general', 'workspace', 'get') && !canInstance(actor, 'get')) {
      throw new ForbiddenError();
    }
    return rates();
  });

  app.put('/currency-rates', async (request) => {
    const actor = authorizeInstance(request, 'update');
    const input = parseInput(ZRates, request.body);
    const errors: Record<string, string[]> = {};
    input.rates.forEach((entry, index) => {
      if (!CURRENCY_NAMES.has(entry.code) || NOT_MONEY.has(entry.code)) {
        errors[`rates.${index}.code`] = [VALIDATION_MESSAGES.invalidCurrency];
      }
      if (entry.code === 'USD' && entry.rate !== 1)
        errors[`rates.${index}.rate`] = ['The US dollar is the base: its rate is 1'];
    });
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);

    const before = new Map((await stored()).map((row) => [row.code, row]));
    const after = new Map([...before].map(([code, row]) => [code, row.rate]));
    for (const entry of input.rates) after.set(entry.code, entry.rate);
    for (const index of overflowingRates(input.rates, after, await largestConvertibleAmount(db))) {
      errors[`rates.${index}.rate`] = [VALIDATION_MESSAGES.rateOverflows];
    }
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);

    const timestamp = now();
    await db.transaction().execute(async (trx) => {
      for (const entry of input.rates) {
        const previous = before.get(entry.code);
        await trx
          .insertInto('currency_rates')
          .values({ code: entry.code, rate: entry.rate, source: 'admin', updated_at: timestamp })
          .onConflict((conflict) =>
            conflict.column('code').doUpdateSet({ rate: entry.rate, source: 'admin', updated_at: timestamp }),
          )
          .execute();
        if (previous && previous.rate === entry.rate && previous.source === 'admin') continue;
        // Instance-wide: kept as of no workspace.
        await keepChange(
          trx,
          { userId: actor.userId, ip: actor.ip, workspaceId: null },
          {
            action: previous ? 'update' : 'create',
            resource: 'currency-rates',
            recordId: entry.code,
            recordName: CURRENCY_NAMES.get(entry.code) ?? entry.code,
            before: previous ? ({ rate: previous.rate, source: previous.source } satisfies KeptRate) : null,
            after: { rate: entry.rate, source: 'admin' } satisfies KeptRate,
          },
        );
      }
    });
    return rates();
  });
}
