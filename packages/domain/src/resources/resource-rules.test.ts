import { describe, expect, it } from 'vitest';
import { dropEmptyVars, ZOfferForm } from './offers.js';
import { unusedPostbackEvents, ZPostbackEventEntries } from './shared.js';
import { canAddParameter, renumberParameters, ZTrafficSourceForm } from './traffic-sources.js';

describe('offer vars (§3.7)', () => {
  it.each([
    [
      { a: '1', '': '2', b: '', ' c ': ' 3 ' },
      { a: '1', c: '3' },
    ],
    [{}, {}],
    [{ '  ': 'x' }, {}],
  ])('%j → %j', (vars, expected) => {
    expect(dropEmptyVars(vars)).toEqual(expected);
  });

  it('drops empty pairs when an offer is saved', () => {
    const offer = ZOfferForm.parse({ name: 'Offer', url: 'https://example.com/?c={clickid}', vars: { k: 'v', e: '' } });
    expect(offer.vars).toEqual({ k: 'v' });
  });
});

describe('traffic-source parameters (§3.7, §4, §5.5)', () => {
  const parameter = (name: string, internal_token: string) => ({
    name,
    ts_parameter: name.toLowerCase(),
    ts_token: `{${name.toLowerCase()}}`,
    internal_token,
    enabled: true,
  });

  it('renumbers internal tokens by position after a delete', () => {
    const rows = [parameter('Zone', 'var1'), parameter('Site', 'var2'), parameter('Creative', 'var3')];
    const afterDelete = renumberParameters(rows.filter((_, index) => index !== 1));
    expect(afterDelete.map((row) => [row.name, row.internal_token])).toEqual([
      ['Zone', 'var1'],
      ['Creative', 'var2'],
    ]);
  });

  it('allows at most 10', () => {
    const ten = Array.from({ length: 10 }, (_, index) => parameter(`P${index}`, `var${index + 1}`));
    expect(canAddParameter(ten.slice(0, 9))).toBe(true);
    expect(canAddParameter(ten)).toBe(false);
    expect(ZTrafficSourceForm.safeParse({ name: 'TS', parameters: ten }).success).toBe(true);
    const eleven = [...ten, parameter('P10', 'var10')];
    expect(ZTrafficSourceForm.safeParse({ name: 'TS', parameters: eleven }).success).toBe(false);
  });
});

describe('postback events (§3.6, §4)', () => {
  const events = [{ value: 'a' }, { value: 'b' }, { value: 'c' }];

  it('offers only the events not yet chosen', () => {
    const entries = [{ postback_event_external_id: 'a' }, { postback_event_external_id: 'c' }];
    expect(unusedPostbackEvents(entries, events)).toEqual([{ value: 'b' }]);
    expect(unusedPostbackEvents(entries, events, 'c')).toEqual([{ value: 'b' }, { value: 'c' }]);
    expect(unusedPostbackEvents([...entries, { postback_event_external_id: 'b' }], events)).toEqual([]);
  });

  it('refuses the same event twice, on the repeated row', () => {
    const result = ZPostbackEventEntries.safeParse([
      { postback_event_external_id: 'a' },
      { postback_event_external_id: 'a' },
    ]);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual([1, 'postback_event_external_id']);
  });
});
