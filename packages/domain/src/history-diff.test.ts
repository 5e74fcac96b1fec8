import { describe, expect, it } from 'vitest';
import { diffHistoryVersions, readableHistoryValue } from './history-diff.js';

const country = (codes: string[]) =>
  JSON.stringify({ type: 'InCondition', data: { Var: 'countryCode', Operation: 'IN', Values: codes } });

const path = (id: string, name: string, weight: number, offers: unknown[] = []) => ({
  id,
  name,
  enabled: true,
  weight,
  offers,
  landers: [],
});

const flow = (paths: unknown[], condition = country(['GB'])) => ({
  name: 'Main',
  status: 'active',
  path_groups: [{ id: 'g1', name: 'Britain', enabled: true, priority: 0, condition, paths }],
});

describe('diffHistoryVersions', () => {
  it('names a path weight change by its group and path', () => {
    const before = flow([path('p1', 'A', 70), path('p2', 'B', 30)]);
    const after = flow([path('p1', 'A', 10), path('p2', 'B', 90)]);
    expect(diffHistoryVersions(before, after)).toEqual([
      {
        rows: [
          { kind: 'path_group', id: 'g1', name: 'Britain' },
          { kind: 'path', id: 'p1', name: 'A' },
        ],
        kind: 'changed',
        field: 'weight',
        before: 70,
        after: 10,
      },
      {
        rows: [
          { kind: 'path_group', id: 'g1', name: 'Britain' },
          { kind: 'path', id: 'p2', name: 'B' },
        ],
        kind: 'changed',
        field: 'weight',
        before: 30,
        after: 90,
      },
    ]);
  });

  it('matches rows by id, not by place: a reorder is no change of fields', () => {
    const before = flow([path('p1', 'A', 50), path('p2', 'B', 50)]);
    const after = flow([path('p2', 'B', 50), path('p1', 'A', 50)]);
    expect(diffHistoryVersions(before, after)).toEqual([]);
  });

  it('lists added and removed rows, offer rows by their offer', () => {
    const before = flow([path('p1', 'A', 100, [{ id: 'o1', offer_external_id: 'offer-a', weight: 100 }])]);
    const after = flow([
      path('p1', 'A', 100, [{ id: 'o2', offer_external_id: 'offer-b', weight: 100 }]),
      path('p3', '', 0),
    ]);
    const changes = diffHistoryVersions(before, after);
    expect(changes.map((change) => [change.kind, change.rows.map((row) => row.name).join(' › ')])).toEqual([
      ['removed', 'Britain › A › offer-a'],
      ['added', 'Britain › A › offer-b'],
      ['added', 'Britain › #2'],
    ]);
  });

  it('reads conditions in the condition language, with names for ids', () => {
    const before = flow([], country(['GB']));
    const after = flow([], country(['GB', 'IE']));
    const [change] = diffHistoryVersions(before, after, (_, value) => (value === 'IE' ? 'Ireland' : value));
    expect(change).toEqual({
      rows: [{ kind: 'path_group', id: 'g1', name: 'Britain' }],
      kind: 'changed',
      field: 'condition',
      before: 'countryCode IN (GB)',
      after: 'countryCode IN (GB, Ireland)',
      condition: { before: country(['GB']), after: country(['GB', 'IE']) },
    });
  });

  it('compares payout rule sets and rules by id', () => {
    const set = (payout: number) => ({
      id: 's1',
      postback_event_external_id: 'ev1',
      event_name: 'Sale',
      default_payout: 1,
      rules: [{ id: 'r1', payout, priority: 0, condition: '{"type":"AllCondition"}' }],
    });
    const changes = diffHistoryVersions(
      { name: 'C', payout_rule_sets: [set(2)] },
      { name: 'C', payout_rule_sets: [set(3)] },
    );
    expect(changes).toEqual([
      {
        rows: [
          { kind: 'payout_rule_set', id: 's1', name: 'Sale' },
          { kind: 'payout_rule', id: 'r1', name: '#1' },
        ],
        kind: 'changed',
        field: 'payout',
        before: 2,
        after: 3,
      },
    ]);
  });

  it('lists the record fields of a create and an archive', () => {
    expect(diffHistoryVersions(null, { name: 'Offer', status: 'active', tags: ['a', 'b'] })).toEqual([
      { rows: [], kind: 'changed', field: 'name', before: null, after: 'Offer' },
      { rows: [], kind: 'changed', field: 'status', before: null, after: 'active' },
      { rows: [], kind: 'changed', field: 'tags', before: null, after: 'a, b' },
    ]);
    expect(diffHistoryVersions({ name: 'Offer', status: 'active' }, { name: 'Offer', status: 'archived' })).toEqual([
      { rows: [], kind: 'changed', field: 'status', before: 'active', after: 'archived' },
    ]);
  });

  it('leaves out fields empty on both sides, however stored', () => {
    expect(
      diffHistoryVersions(null, { name: 'Offer', description: '', backup_offer_external_id: null, countries: [] }),
    ).toEqual([{ rows: [], kind: 'changed', field: 'name', before: null, after: 'Offer' }]);
    expect(diffHistoryVersions({ description: null }, { description: '' })).toEqual([]);
  });

  it('names nested object fields by their path', () => {
    expect(diffHistoryVersions({ settings: { cap: 1, keep: 2 } }, { settings: { cap: 5, keep: 2 } })).toEqual([
      { rows: [], kind: 'changed', field: 'settings.cap', before: 1, after: 5 },
    ]);
  });
});

describe('lists of rows without ids', () => {
  const zone = { name: 'Zone', ts_parameter: 'zone_id', ts_token: '{zone}', internal_token: 'var2', enabled: true };
  const click = {
    name: 'Click ID',
    ts_parameter: 'clickid',
    ts_token: '{SUBID}',
    internal_token: 'var1',
    enabled: true,
  };

  it('gives each side of a traffic source parameter list as table rows', () => {
    const [change] = diffHistoryVersions({ parameters: [click] }, { parameters: [click, { ...zone, enabled: false }] });
    expect(change?.field).toBe('parameters');
    expect(change?.table).toEqual({ before: [click], after: [click, { ...zone, enabled: false }] });
  });

  it('gives an empty side as no rows, and nested values readable', () => {
    const [change] = diffHistoryVersions(
      { postback_events: [] },
      { postback_events: [{ postback_event_external_id: 'pe-1', tags: ['a', 'b'] }] },
    );
    expect(change?.table).toEqual({ before: [], after: [{ postback_event_external_id: 'pe-1', tags: 'a, b' }] });
  });

  it('leaves lists of plain values as one line', () => {
    const [change] = diffHistoryVersions({ countries: ['DE'] }, { countries: ['DE', 'AT'] });
    expect(change).toEqual({ rows: [], kind: 'changed', field: 'countries', before: 'DE', after: 'DE, AT' });
  });
});

describe('readableHistoryValue', () => {
  it('reads an All condition as the builder does', () => {
    expect(readableHistoryValue('condition', '{"type":"AllCondition"}')).toBe('All Condition');
  });
});
