import { describe, expect, it } from 'vitest';
import { parseReportParams, rangeOf, reportSearchParams, reportViewParams } from './reportParams';

const parse = (query: string) => parseReportParams(new URLSearchParams(query), 'Europe/Paris');

describe('report state in the URL', () => {
  it('defaults to campaigns over the last 7 days in the browser timezone, with nothing in the URL', () => {
    const params = parse('');
    expect(params).toMatchObject({
      groups: ['campaign'],
      choice: 'last7',
      timezone: 'Europe/Paris',
      filters: {},
      page: 1,
    });
    expect(reportSearchParams(params, 'Europe/Paris').toString()).toBe('');
  });

  it('reads back what it writes', () => {
    const query =
      'group_by=offer%2Ccountry&range=custom&from=2026-02-01&to=2026-02-14&timezone=UTC&search=shoes' +
      `&filters=${encodeURIComponent('{"campaign":"c-1","lander":null}')}` +
      `&filter_labels=${encodeURIComponent('{"campaign":"Spring"}')}&vars=${encodeURIComponent('{"var1":"zone-7"}')}` +
      '&attribution=postback&include_bots=true&order_by=revenue&order=desc&page=3';
    const params = parse(query);
    expect(params).toEqual({
      groups: ['offer', 'country'],
      choice: 'custom',
      custom: { from: '2026-02-01', to: '2026-02-14' },
      timezone: 'UTC',
      search: 'shoes',
      filters: { campaign: 'c-1', lander: null },
      labels: { campaign: 'Spring' },
      vars: { var1: 'zone-7' },
      attribution: 'postback',
      includeBots: true,
      order_by: 'revenue',
      order: 'desc',
      page: 3,
      columns: undefined,
      layout: 'tree',
    });
    expect(parse(reportSearchParams(params, 'Europe/Paris').toString())).toEqual(params);
    expect(rangeOf(params)).toEqual({ from: '2026-02-01', to: '2026-02-14' });
  });

  it('keeps bots out by default, and include_bots=true in the URL only when they are in', () => {
    expect(parse('').includeBots).toBe(false);
    expect(parse('include_bots=yes').includeBots).toBe(false);
    expect(reportSearchParams(parse('include_bots=false'), 'Europe/Paris').toString()).toBe('');
    expect(reportSearchParams(parse('include_bots=true'), 'Europe/Paris').toString()).toBe('include_bots=true');
  });

  it('drops what it does not understand', () => {
    const params = parse(
      'group_by=planet,campaign,campaign,offer,flow,path,lander&range=custom&from=2026-02-30&to=2026-03-01' +
        `&filters=${encodeURIComponent('{"day":"2026-01-01","offer":5,"flow":"f-1"}')}&order_by=nope&page=-2`,
    );
    // At most four groups, each once; a custom range needs two real days, else the default preset.
    expect(params.groups).toEqual(['campaign', 'offer', 'flow', 'path']);
    expect(params.choice).toBe('last7');
    expect(params.custom).toBeUndefined();
    expect(params.filters).toEqual({ flow: 'f-1' });
    expect(params.order_by).toBeUndefined();
    expect(params.page).toBe(1);
    expect(parse('filters=%7Bbroken').filters).toEqual({});
    // A custom metric's key sorts; anything else shaped like one does not.
    expect(parse('order_by=cm_rpm').order_by).toBe('cm_rpm');
    expect(parse('order_by=cm_RPM').order_by).toBeUndefined();
  });

  it('keeps the attribution out of the URL when it is the default (click time)', () => {
    expect(parse('attribution=click').attribution).toBe('click');
    expect(parse('attribution=sometime').attribution).toBe('click');
    expect(reportSearchParams(parse('attribution=click'), 'Europe/Paris').toString()).toBe('');
    expect(reportSearchParams(parse('attribution=postback'), 'Europe/Paris').toString()).toBe('attribution=postback');
  });

  it('keeps a view without its page but with its timezone, even the browser one', () => {
    const params = parse('group_by=offer&range=lastMonth&attribution=postback&page=4');
    expect(reportViewParams(params)).toBe(
      'group_by=offer&range=lastMonth&timezone=Europe%2FParis&attribution=postback',
    );
    expect(parseReportParams(new URLSearchParams(reportViewParams(params)), 'Asia/Tokyo')).toMatchObject({
      groups: ['offer'],
      choice: 'lastMonth',
      timezone: 'Europe/Paris',
      attribution: 'postback',
      page: 1,
    });
  });

  it('keeps the chosen columns and the flat layout, and only keys that can be column names', () => {
    const params = parse('columns=clicks,profit,cm_rpm,DROP%20TABLE,profit&layout=flat');
    expect(params.columns).toEqual(['clicks', 'profit', 'cm_rpm']);
    expect(params.layout).toBe('flat');
    expect(reportSearchParams(params, 'UTC').get('columns')).toBe('clicks,profit,cm_rpm');
    expect(reportSearchParams({ ...params, layout: 'tree' }, 'UTC').has('layout')).toBe(false);
    expect(parse('layout=sideways').layout).toBe('tree');
  });

  it('works a preset out from today in the report timezone', () => {
    const params = parse('range=yesterday&timezone=America/New_York');
    expect(rangeOf(params, new Date('2026-03-01T02:30:00Z'))).toEqual({ from: '2026-02-27', to: '2026-02-27' });
  });
});
