import type { ClickReplay, LeadReplay, SimulationAnswer } from '@switchyard/domain';

// A click and a lead as the replay routes answer them, for the inspector's tests.

const VISITOR = {
  is_bot: true,
  bot_reason: 'datacenter_asn',
  is_unique: true,
  ip: '203.0.113.9',
  user_agent: 'Mozilla/5.0 (iPhone)',
  language: 'de',
  country: 'DE',
  region: 'DE-BE',
  city: 'Berlin',
  asn: 31334,
  isp: 'Vodafone',
  device: 'mobile',
  platform: 'iOS',
  browser: 'Safari',
};

/** Today, the click's German visitor goes to "Dating DE" through the group "Everyone else". */
export const TODAY: SimulationAnswer = {
  context: {
    country: 'DE',
    region: 'DE-BE',
    city: 'Berlin',
    asn: 31334,
    isp: 'Vodafone',
    device: 'mobile',
    platform: 'iOS',
    browser: 'Safari',
    language: 'de',
    referrer: null,
    vars: { var1: 'zone-7' },
    isBot: false,
    botReason: null,
    fields: { countryCode: 'DE' },
    time: '2026-11-24T12:00:00.000Z',
  },
  groups: [
    {
      id: 'g-us',
      name: 'US visitors',
      priority: 1,
      matched: false,
      condition_trace: {
        type: 'InCondition',
        verdict: false,
        data: { Var: 'countryCode', Operation: 'IN', Values: ['US'] },
        value: 'DE',
      },
    },
    {
      id: 'g-rest',
      name: 'Everyone else',
      priority: 2,
      matched: true,
      condition_trace: { type: 'AllCondition', verdict: true },
    },
  ],
  path_group: { id: 'g-rest', name: 'Everyone else' },
  path: { id: 'p-rest', name: 'Main path' },
  lander: null,
  offer: { external_id: 'off-de', name: 'Dating DE' },
  backup_chain: [],
  caps: [],
  url: 'https://offers.example.com/de?click={clickid}',
  redirect_mode: 'meta',
  probabilities: {
    paths: [
      {
        id: 'p-rest',
        name: 'Main path',
        chance: 1,
        landers: [],
        offers: [{ external_id: 'off-de', name: 'Dating DE', chance: 1 }],
      },
    ],
    offers: [{ external_id: 'off-de', name: 'Dating DE', chance: 1 }],
  },
  reason: 'matched',
};

/** Routed, when it came, through the group "US visitors" to the offer "Shoes US". */
export const CLICK: ClickReplay = {
  click: {
    click_id: 'click-abc',
    created_at: '2026-11-10T12:00:00.000Z',
    campaign_external_id: 'cmp',
    flow_external_id: 'flw',
    path_group_id: 'g-us',
    path_id: 'p-us',
    lander_external_id: null,
    offer_external_id: 'off-us',
    reason: 'backup_offer',
    ...VISITOR,
    referrer: 'https://news.example/story',
    external_click_id: 'src-77',
    vars: { var1: 'zone-7' },
    campaign: { kind: 'tracker-campaigns', external_id: 'cmp', name: 'Spring push' },
    flow: { kind: 'tracker-flows', external_id: 'flw', name: 'Main flow' },
    offer: { kind: 'tracker-offers', external_id: 'off-us', name: 'Shoes US' },
    lander: null,
    conversions: [
      { conversion_id: 'conv-123456789', state: 'approved', payout: 4.5, created_at: '2026-11-10T13:00:00.000Z' },
    ],
  },
  replay: TODAY,
};

export const LEAD: LeadReplay = {
  lead: {
    lead_id: 'lead-1',
    created_at: '2026-11-10T12:00:00.000Z',
    campaign_external_id: 'api-cmp',
    flow_external_id: null,
    path_group_id: 'g-rest',
    path_id: 'p-rest',
    offer_external_id: 'off-de',
    decision: 'routed',
    reason: 'matched',
    backup_used: false,
    ...VISITOR,
    is_bot: false,
    bot_reason: null,
    email_domain: 'example.org',
    age: 31,
    vars: {},
    campaign: { kind: 'campaigns', external_id: 'api-cmp', name: 'Lead push' },
    flow: null,
    offer: { kind: 'offers', external_id: 'off-de', name: 'Dating DE' },
    conversions: [],
  },
  replay: TODAY,
};
