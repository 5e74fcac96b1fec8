import type { ConversionState } from '@switchyard/domain';
import type { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import {
  canMove,
  costOf,
  decideMove,
  moveConversion,
  type PostbackConversion,
} from '../src/conversions/move-conversion.js';
import { ConversionRepository } from '../src/conversions/repository.js';
import { migrateToLatest, openStore, type Store } from '../src/store/database.js';
import { ScopeGuard, workspaceTables } from '../src/store/scope.js';
import { forEachDatabase } from './harness.js';

// What a postback does to its conversion: the decisions alone, then the whole move through a store that
// refuses any statement not kept to the conversion's workspace.

const STATES: ConversionState[] = ['pending', 'approved', 'rejected'];
const CPA = { model: 'CPA' as const, cost: 2.5 };
const REVSHARE = { model: 'RevShare' as const, cost: 10 };

describe('the moves a later postback may make', () => {
  it('pending → approved or rejected, approved → rejected, and nothing out of rejected', () => {
    const allowed = STATES.flatMap((from) => STATES.filter((to) => canMove(from, to)).map((to) => `${from}→${to}`));
    expect(allowed).toEqual(['pending→approved', 'pending→rejected', 'approved→rejected']);
  });

  it('the same state again is a duplicate; a move not allowed is refused with why, behind the log reason', () => {
    const found = { state: 'approved', payout: 10, is_conversion: 1 };
    const postback = (state: ConversionState) => ({ state, payout: 12, revenue: null, original_currency: null });
    expect(decideMove(found, postback('approved'), null, null)).toEqual({ kind: 'duplicate' });
    expect(decideMove(found, postback('pending'), null, null)).toEqual({
      kind: 'refused',
      reason: 'A conversion that is approved is not moved to pending.',
    });
    expect(decideMove(found, postback('pending'), null, 'pre-move')).toEqual({
      kind: 'refused',
      reason: 'pre-move: A conversion that is approved is not moved to pending.',
    });
  });

  it('a move keeps the stored payout unless the postback sent an amount, and costs by the state it reaches', () => {
    const found = { state: 'pending', payout: 10, is_conversion: 1 };
    expect(
      decideMove(found, { state: 'approved', payout: 30, revenue: null, original_currency: null }, REVSHARE, null),
    ).toEqual({ kind: 'moved', from: 'pending', cost: 1, amount: null });
    expect(
      decideMove(found, { state: 'approved', payout: 30, revenue: 35, original_currency: 'EUR' }, REVSHARE, null),
    ).toEqual({
      kind: 'moved',
      from: 'pending',
      cost: 3,
      amount: { payout: 30, revenue: 35, original_currency: 'EUR' },
    });
    // Leaving approved takes its cost back.
    expect(
      decideMove(
        { ...found, state: 'approved' },
        { state: 'rejected', payout: 30, revenue: null, original_currency: null },
        CPA,
        null,
      ),
    ).toEqual({ kind: 'moved', from: 'approved', cost: 0, amount: null });
  });

  it('only an approved conversion that counts costs, and only under CPA or RevShare', () => {
    expect(costOf(CPA, 'approved', 1, 100)).toBe(2.5);
    expect(costOf(REVSHARE, 'approved', 1, 33.33)).toBe(3.333);
    expect(costOf(CPA, 'pending', 1, 100)).toBe(0);
    expect(costOf(CPA, 'approved', 0, 100)).toBe(0);
    expect(costOf({ model: null, cost: 5 }, 'approved', 1, 100)).toBe(0);
    expect(costOf(null, 'approved', 1, 100)).toBe(0);
  });
});

forEachDatabase('moving a conversion within its workspace', (db) => {
  let store: Store | undefined;
  afterEach(async () => {
    await store?.db.destroy();
    store = undefined;
  });

  it('stores it, then takes a duplicate, a move and a refused move, every statement scoped', async () => {
    store = openStore(loadConfig({ ...(await db.createDatabase()) }));
    await migrateToLatest(store);
    const at = '2026-11-01T00:00:00.000Z';
    const { id: workspaceId } = await store.db
      .insertInto('workspaces')
      .values({ name: 'W', postback_key: null, status: 'active', created_at: at, updated_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const tables = await workspaceTables(store.db as Kysely<unknown>, store.dialect);
    const repository = new ConversionRepository(store.db.withPlugin(new ScopeGuard(tables)), store.dialect);
    const conversion = (state: ConversionState, id: string): PostbackConversion => ({
      conversion_id: id,
      created_at: at,
      updated_at: at,
      workspace_id: workspaceId,
      click_id: 'click-1',
      lead_id: null,
      campaign_external_id: 'camp',
      flow_external_id: null,
      path_group_id: null,
      path_id: null,
      offer_external_id: null,
      lander_external_id: null,
      traffic_source_external_id: null,
      affiliate_network_external_id: null,
      postback_event_external_id: null,
      status: state,
      is_conversion: 1,
      payout: 5,
      revenue: null,
      currency: 'USD',
      original_currency: null,
      txid: null,
      country: null,
      subaff: null,
      payout_rule_id: null,
      payout_source: 'none',
      raw: '{}',
      state,
      event_key: '',
      txid_key: '',
      event_at: at,
    });
    const log = { created_at: at, click_id: 'click-1', txid: null, ip: null, raw: '{}', workspace_id: workspaceId };
    const outbound = { url: 'https://source.example/pb', createdAt: at };
    expect(await moveConversion(repository, conversion('pending', 'conv-1'), log, outbound)).toEqual({
      outcome: 'converted',
      conversionId: 'conv-1',
      state: 'pending',
    });
    expect(await moveConversion(repository, conversion('pending', 'conv-2'), log, outbound)).toEqual({
      outcome: 'duplicate',
      conversionId: 'conv-1',
      state: 'pending',
    });
    expect(await moveConversion(repository, conversion('approved', 'conv-3'), log, outbound)).toEqual({
      outcome: 'status_changed',
      conversionId: 'conv-1',
      state: 'approved',
      previous: 'pending',
    });
    expect(await moveConversion(repository, conversion('pending', 'conv-4'), log, outbound)).toEqual({
      outcome: 'unchanged',
      conversionId: 'conv-1',
      state: 'approved',
    });
    const rows = await store.db.selectFrom('conversions').select(['conversion_id', 'state', 'status']).execute();
    expect(rows).toEqual([{ conversion_id: 'conv-1', state: 'approved', status: 'approved' }]);
    const lines = await store.db
      .selectFrom('postback_log')
      .select(['outcome', 'state', 'previous_state', 'reason'])
      .orderBy('id')
      .execute();
    expect(lines).toEqual([
      { outcome: 'converted', state: 'pending', previous_state: null, reason: null },
      { outcome: 'duplicate', state: 'pending', previous_state: null, reason: null },
      { outcome: 'status_changed', state: 'approved', previous_state: 'pending', reason: null },
      {
        outcome: 'unchanged',
        state: 'approved',
        previous_state: null,
        reason: 'A conversion that is approved is not moved to pending.',
      },
    ]);
    // Only the new conversion queues its traffic source's postback.
    expect(await store.db.selectFrom('outbound_postbacks').select('conversion_id').execute()).toEqual([
      { conversion_id: 'conv-1' },
    ]);
  });
});
