import { describe, expect, it } from 'vitest';
import { eventQuery, eventsPath, parseEventParams, rowEventParams } from './eventParams';
import { parseReportParams } from './reportParams';

// The events behind a report row are the ones it counts: the row's values, the report's range, vars and
// (for conversions) its attribution.

describe('the events behind a report row', () => {
  const report = (search: string) => parseReportParams(new URLSearchParams(search), 'UTC');
  const range = { from: '2026-11-01', to: '2026-11-07' };

  it("carries the report's vars and postback attribution to the event list and its API query", () => {
    const params = rowEventParams(report('group_by=campaign&vars={"var1":"zone-7"}&attribution=postback'), range, {
      campaign: 'c1',
      campaign_name: 'Spring',
    } as never);
    expect(params).toMatchObject({ vars: { var1: 'zone-7' }, attribution: 'postback', filters: { campaign: 'c1' } });
    const path = eventsPath('conversions', params);
    const search = new URLSearchParams(path.slice(path.indexOf('?') + 1));
    expect(search.get('attribution')).toBe('postback');
    const parsed = parseEventParams(search);
    expect(parsed.attribution).toBe('postback');
    expect(eventQuery(parsed, 1, 40)).toMatchObject({ attribution: 'postback', vars: '{"var1":"zone-7"}' });
  });

  it('leaves click attribution, the default, out of the URL', () => {
    const params = rowEventParams(report('group_by=campaign'), range);
    expect(params.attribution).toBeUndefined();
    expect(eventsPath('conversions', params)).not.toContain('attribution');
    expect(parseEventParams(new URLSearchParams('attribution=click')).attribution).toBeUndefined();
    expect(parseEventParams(new URLSearchParams('attribution=whenever')).attribution).toBeUndefined();
  });
});
