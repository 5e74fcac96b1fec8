import { describe, expect, it } from 'vitest';
import { trackerCampaignUrl } from './campaign-urls.js';

describe('trackerCampaignUrl', () => {
  it.each([
    ['no traffic source', undefined, 'https://dash.example/c/cmp1?'],
    [
      'each enabled parameter as ts_parameter={ts_token}, joined by &',
      [
        { ts_parameter: 'clickid', ts_token: '{clickid}', enabled: true },
        { ts_parameter: 'zone', ts_token: '{zoneid}', enabled: false },
        { ts_parameter: 'site', ts_token: '{site}' },
        { ts_parameter: ' ', ts_token: '{blank}', enabled: true },
      ],
      'https://dash.example/c/cmp1?clickid={clickid}&site={site}',
    ],
  ])('%s', (_, parameters, expected) => {
    expect(trackerCampaignUrl('https://dash.example', 'cmp1', parameters)).toBe(expected);
  });
});
