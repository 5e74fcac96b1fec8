// Well-known traffic sources and affiliate networks to start a record from. Each
// template is the values of the resource's form (parsed by its schema in templates.test.ts, so a
// template can never drift from the form), plus, for a source, the postback URL it takes.
//
// Sources: the first parameter carries the source's click id, so it is var1, and the source's postback
// URL sends it back as {var1}; a cost parameter, where the source passes one, is also a parameter (the
// campaign URL carries it) and is named as `cost_parameter`. Tokens are the source's own macros, as its
// dashboard documents them (and as Keitaro's and Voluum's templates write them). Placeholders the
// operator must replace with their account's values are in capitals: YOUR_….
//
// Networks: `offer_url_params` sends the click id to the network in its sub-id parameter;
// `postback_params` are the network's macro names for what it sends back (written `{name}` into the
// postback URL given to it), '' for a value it does not send.

import type { z } from 'zod';
import type { ZAffiliateNetworkForm } from './resources/affiliate-networks.js';
import type { ZTrafficSourceForm } from './resources/traffic-sources.js';

export interface TrafficSourceTemplate {
  /** Stable id of the template (not stored on the record). */
  key: string;
  /** What fills the create form. */
  form: z.input<typeof ZTrafficSourceForm>;
  /** The source's server-to-server postback, with Switchyard's macros; '' when it takes none by URL. */
  postbackUrl: string;
}

export interface AffiliateNetworkTemplate {
  key: string;
  form: z.input<typeof ZAffiliateNetworkForm>;
}

type ParameterRow = readonly [name: string, parameter: string, token: string];

/** The rows of a source's parameters, var1, var2, … by position (§3.7). */
function parameters(...rows: ParameterRow[]): z.input<typeof ZTrafficSourceForm>['parameters'] {
  return rows.map(([name, ts_parameter, ts_token], index) => ({
    name,
    ts_parameter,
    ts_token,
    internal_token: `var${index + 1}`,
    enabled: true,
  }));
}

function source(
  key: string,
  name: string,
  rows: ParameterRow[],
  postbackUrl: string,
  costParameter = '',
): TrafficSourceTemplate {
  return {
    key,
    // A source that passes each click's cost is billed by it: its campaigns start on the Auto model.
    form: {
      name,
      parameters: parameters(...rows),
      cost_parameter: costParameter,
      ...(costParameter ? { cost_model: 'Auto' as const } : {}),
    },
    postbackUrl,
  };
}

/** Alphabetical, as the select lists them. */
export const TRAFFIC_SOURCE_TEMPLATES: readonly TrafficSourceTemplate[] = [
  source(
    'adcash',
    'Adcash',
    [
      ['Click ID', 'clickid', '[clickid]'],
      ['Zone', 'zone_id', '[zone]'],
      ['Campaign', 'campaign_id', '[campaign]'],
      ['Country', 'country', '[country]'],
      ['Cost', 'cost', '[cpm]'],
    ],
    'https://www.pixelhere.com/et/event.php?advertiser=YOUR_ID&cid={var1}&id=YOUR_EVENT&value={payout}',
    'cost',
  ),
  source(
    'adsterra',
    'Adsterra',
    [
      ['Click ID', 'subid', '{SUBID}'],
      ['Placement', 'placement_id', '{PLACEMENT_ID}'],
      ['Campaign', 'campaign_id', '{CAMPAIGN_ID}'],
      ['Country', 'country', '{COUNTRY}'],
      ['Cost', 'cost', '{CPM}'],
    ],
    'https://www.adsterratools.com/postback/?key=YOUR_KEY&subid={var1}&revenue={payout}',
    'cost',
  ),
  source(
    'bing-ads',
    'Microsoft Advertising (Bing)',
    [
      ['Click ID (msclkid)', 'msclkid', '{msclkid}'],
      ['Campaign', 'campaign_id', '{CampaignId}'],
      ['Ad group', 'adgroup_id', '{AdGroupId}'],
      ['Keyword', 'keyword', '{keyword}'],
      ['Device', 'device', '{Device}'],
    ],
    // Microsoft Advertising takes conversions through its UET tag or offline import.
    '',
  ),
  source(
    'clickadu',
    'Clickadu',
    [
      ['Click ID', 'clickid', '{SUBID}'],
      ['Zone', 'zone_id', '{ZONEID}'],
      ['Campaign', 'campaign_id', '{CAMPAIGNID}'],
      ['Country', 'country', '{COUNTRY}'],
      ['Cost', 'cost', '{PRICE}'],
    ],
    'https://ad.clickadu.com/conversion.php?aid=YOUR_ID&pid=YOUR_PID&tid={var1}&revenue={payout}',
    'cost',
  ),
  source(
    'evadav',
    'EvaDav',
    [
      ['Click ID', 'clickid', '{clickid}'],
      ['Zone', 'zone_id', '{zoneid}'],
      ['Campaign', 'campaign_id', '{campaignid}'],
      ['Creative', 'creative_id', '{creativeid}'],
      ['Cost', 'cost', '{cpc}'],
    ],
    'https://evadav.com/phpcounter/s2s?clickid={var1}&payout={payout}',
    'cost',
  ),
  source(
    'exoclick',
    'ExoClick',
    [
      ['Conversion tracking', 'conversions_tracking', '{conversions_tracking}'],
      ['Site', 'site_id', '{site_id}'],
      ['Zone', 'zone_id', '{zone_id}'],
      ['Campaign', 'campaign_id', '{campaign_id}'],
      ['Variation', 'variation_id', '{variation_id}'],
      ['Country', 'country', '{country}'],
      ['Cost', 'cost', '{cost}'],
    ],
    'https://s.magsrv.com/tag.php?goal=YOUR_GOAL_ID&tag={var1}&value={payout}',
    'cost',
  ),
  source(
    'google-ads',
    'Google Ads',
    [
      ['Click ID (gclid)', 'gclid', '{gclid}'],
      ['Campaign', 'campaign_id', '{campaignid}'],
      ['Ad group', 'adgroup_id', '{adgroupid}'],
      ['Ad', 'creative', '{creative}'],
      ['Keyword', 'keyword', '{keyword}'],
      ['Match type', 'matchtype', '{matchtype}'],
      ['Network', 'network', '{network}'],
      ['Device', 'device', '{device}'],
      ['Placement', 'placement', '{placement}'],
    ],
    // Conversions go back to Google Ads by offline import, not by a postback URL.
    '',
  ),
  source(
    'hilltopads',
    'HilltopAds',
    [
      ['Click ID', 'clickid', '{{visitor_id}}'],
      ['Zone', 'zone_id', '{{zone_id}}'],
      ['Campaign', 'campaign_id', '{{campaign_id}}'],
      ['Country', 'country', '{{country}}'],
      ['Cost', 'cost', '{{cost}}'],
    ],
    'https://hilltopads.com/api/conversion?key=YOUR_KEY&visitor_id={var1}&payout={payout}',
    'cost',
  ),
  source(
    'kadam',
    'Kadam',
    [
      ['Click ID', 'clickid', '[CLICK_ID]'],
      ['Site', 'site_id', '[SITE_ID]'],
      ['Campaign', 'campaign_id', '[CAMPAIGN_ID]'],
      ['Ad', 'ad_id', '[AD_ID]'],
      ['Cost', 'cost', '[PRICE]'],
    ],
    'https://kadam.net/api/conversion?click_id={var1}&payout={payout}',
    'cost',
  ),
  source(
    'meta',
    'Facebook / Meta',
    [
      ['Ad', 'ad_id', '{{ad.id}}'],
      ['Ad set', 'adset_id', '{{adset.id}}'],
      ['Campaign', 'campaign_id', '{{campaign.id}}'],
      ['Ad name', 'ad_name', '{{ad.name}}'],
      ['Placement', 'placement', '{{placement}}'],
      ['Site source', 'site_source', '{{site_source_name}}'],
    ],
    // Meta takes conversions through its Conversions API; fbclid is added to the URL by Meta itself.
    '',
  ),
  source(
    'mgid',
    'MGID',
    [
      ['Click ID', 'click_id', '{click_id}'],
      ['Widget', 'widget_id', '{widget_id}'],
      ['Teaser', 'teaser_id', '{teaser_id}'],
      ['Campaign', 'campaign_id', '{campaign_id}'],
      ['Category', 'category_id', '{category_id}'],
      ['Cost', 'cost', '{click_price}'],
    ],
    'https://a.mgid.com/postback?c={var1}&e=YOUR_EVENT&r={payout}',
    'cost',
  ),
  source(
    'outbrain',
    'Outbrain',
    [
      ['Click ID', 'ob_click_id', '{{ob_click_id}}'],
      ['Publisher', 'publisher_id', '{{publisher_id}}'],
      ['Section', 'section_id', '{{section_id}}'],
      ['Ad', 'ad_id', '{{ad_id}}'],
      ['Campaign', 'campaign_id', '{{campaign_id}}'],
    ],
    'https://tr.outbrain.com/pixel?ob_click_id={var1}&name=YOUR_CONVERSION_NAME',
  ),
  source(
    'propellerads',
    'PropellerAds',
    [
      ['Click ID', 'click_id', `\${SUBID}`],
      ['Zone', 'zone_id', `\${zoneid}`],
      ['Campaign', 'campaign_id', `\${campaignid}`],
      ['Banner', 'banner_id', `\${bannerid}`],
      ['Country', 'geo', `\${geo}`],
      ['OS', 'os', `\${os}`],
      ['Cost', 'cost', `\${cost}`],
    ],
    'https://ad.propellerads.com/conversion.php?aid=YOUR_AID&pid=&tid=YOUR_TID&visitor_id={var1}&payout={payout}',
    'cost',
  ),
  source(
    'richads',
    'RichAds',
    [
      ['Click ID', 'click_id', '[CLICK_ID]'],
      ['Site', 'site_id', '[SITE_ID]'],
      ['Campaign', 'campaign_id', '[CAMPAIGN_ID]'],
      ['Creative', 'creative_id', '[CREATIVE_ID]'],
      ['Publisher', 'publisher_id', '[PUBLISHER_ID]'],
      ['Cost', 'cost', '[BID_PRICE]'],
    ],
    'http://xml.auxml.com/log?action=conversion&key={var1}&price={payout}',
    'cost',
  ),
  source(
    'rollerads',
    'RollerAds',
    [
      ['Click ID', 'clickid', '{clickid}'],
      ['Zone', 'zoneid', '{zoneid}'],
      ['Campaign', 'campaignid', '{campaignid}'],
      ['Creative', 'creativeid', '{creativeid}'],
      ['Device', 'device', '{device}'],
      ['Cost', 'cost', '{cost}'],
    ],
    'https://trk.roller.ad/conversion/aid/YOUR_ACCOUNT/YOUR_TRACKING_KEY?click_id={var1}',
    'cost',
  ),
  source(
    'snapchat',
    'Snapchat Ads',
    [
      ['Click ID', 'sc_click_id', '{{click_id}}'],
      ['Campaign', 'campaign_id', '{{campaign.id}}'],
      ['Ad set', 'adset_id', '{{adSet.id}}'],
      ['Ad', 'ad_id', '{{ad.id}}'],
    ],
    // Snapchat takes conversions through its Conversions API.
    '',
  ),
  source(
    'taboola',
    'Taboola',
    [
      ['Click ID', 'click_id', '{click_id}'],
      ['Site', 'site', '{site}'],
      ['Site ID', 'site_id', '{site_id}'],
      ['Campaign', 'campaign_id', '{campaign_id}'],
      ['Item', 'campaign_item_id', '{campaign_item_id}'],
      ['Platform', 'platform', '{platform}'],
      ['Cost', 'cpc', '{cpc}'],
    ],
    'https://trc.taboola.com/actions-handler/log/3/s2s-action?click-id={var1}&name=YOUR_EVENT&revenue={payout}',
    'cpc',
  ),
  source(
    'tiktok',
    'TikTok Ads',
    [
      ['Click ID (ttclid)', 'ttclid', '__CALLBACK_PARAM__'],
      ['Campaign', 'campaign_id', '__CAMPAIGN_ID__'],
      ['Ad group', 'adgroup_id', '__AID__'],
      ['Ad', 'ad_id', '__CID__'],
      ['Placement', 'placement', '__PLACEMENT__'],
    ],
    // TikTok takes conversions through its Events API.
    '',
  ),
  source(
    'trafficstars',
    'TrafficStars',
    [
      ['Click ID', 'click_id', '{click_id}'],
      ['Ad spot', 'adspot_id', '{adspot_id}'],
      ['Campaign', 'campaign_id', '{campaign_id}'],
      ['Creative', 'creative_id', '{creative_id}'],
      ['Format', 'format', '{format}'],
      ['Cost', 'cost', '{cost}'],
    ],
    'https://tsyndicate.com/api/v1/cpa/action?key=YOUR_KEY&clickid={var1}&value={payout}',
    'cost',
  ),
  source(
    'zeropark',
    'Zeropark',
    [
      ['Click ID', 'cid', '{cid}'],
      ['Target', 'target', '{target}'],
      ['Source', 'source', '{source}'],
      ['Campaign', 'campaign_id', '{campaign_id}'],
      ['Country', 'geo', '{geo}'],
      ['Keyword', 'keyword', '{keyword}'],
      ['Cost', 'cost', '{visit_cost}'],
    ],
    'https://postback.zeroredirect1.com/zppostback/YOUR_KEY?cid={var1}&payout={payout}',
    'cost',
  ),
];

function network(
  key: string,
  name: string,
  offerUrlParams: string,
  macros: { click_id: string; payout: string; status: string; txid: string },
): AffiliateNetworkTemplate {
  return { key, form: { name, offer_url_params: offerUrlParams, postback_params: macros } };
}

/** Alphabetical, as the select lists them. */
export const AFFILIATE_NETWORK_TEMPLATES: readonly AffiliateNetworkTemplate[] = [
  network('3snet', '3SNet', 'sub1={clickid}', {
    click_id: 'sub1',
    payout: 'sum',
    status: 'status',
    txid: 'transactionid',
  }),
  network('adcombo', 'AdCombo', 'subacc={clickid}', {
    click_id: 'subacc',
    payout: 'revenue',
    status: 'status',
    txid: 'trans_id',
  }),
  network('admitad', 'Admitad', 'subid={clickid}', {
    click_id: 'subid',
    payout: 'payment_sum',
    status: 'payment_status',
    txid: 'order_id',
  }),
  network('affise', 'Affise (networks on Affise)', 'sub1={clickid}', {
    click_id: 'sub1',
    payout: 'sum',
    status: 'status',
    txid: 'transactionid',
  }),
  network('cake', 'CAKE (networks on CAKE)', 's2={clickid}', {
    click_id: '#s2#',
    payout: '#price#',
    status: '',
    txid: '#tid#',
  }),
  network('clickdealer', 'ClickDealer', 's2={clickid}', {
    click_id: '#s2#',
    payout: '#price#',
    status: '',
    txid: '#tid#',
  }),
  network('cpalead', 'CPAlead', 'subid={clickid}', {
    click_id: 'subid',
    payout: 'payout',
    status: '',
    txid: 'lead_id',
  }),
  network('cpamatica', 'Cpamatica', 'click_id={clickid}', {
    click_id: 'click_id',
    payout: 'payout',
    status: 'status',
    txid: 'transaction_id',
  }),
  network('crakrevenue', 'CrakRevenue', 'aff_sub={clickid}', {
    click_id: 'aff_sub',
    payout: 'payout',
    status: '',
    txid: 'transaction_id',
  }),
  network('dr-cash', 'Dr.Cash', 'sub1={clickid}', {
    click_id: 'sub1',
    payout: 'payout',
    status: 'status',
    txid: 'uuid',
  }),
  network('everad', 'Everad', 'sid5={clickid}', { click_id: 'sid5', payout: 'payout', status: 'status', txid: '' }),
  network('everflow', 'Everflow (networks on Everflow)', 'sub1={clickid}', {
    click_id: 'sub1',
    payout: 'payout_amount',
    status: '',
    txid: 'transaction_id',
  }),
  network('kma', 'KMA.biz', 'data1={clickid}', { click_id: 'data1', payout: 'sum', status: 'status', txid: 'orderid' }),
  network('leads-su', 'Leads.su', 'aff_sub={clickid}', {
    click_id: 'aff_sub',
    payout: 'payout',
    status: 'status',
    txid: '',
  }),
  network('leads-tech', 'Leads.tech', 'sub6={clickid}', {
    click_id: 'sub6',
    payout: 'sum',
    status: 'status',
    txid: '',
  }),
  network('maxbounty', 'MaxBounty', 's1={clickid}', {
    click_id: '#S1#',
    payout: '#RATE#',
    status: '',
    txid: '#LEADID#',
  }),
  network('mylead', 'MyLead', 'ml_sub1={clickid}', {
    click_id: 'ml_sub1',
    payout: 'payout',
    status: 'status',
    txid: 'transaction_id',
  }),
  network('shakes', 'Shakes.pro', 'sub1={clickid}', {
    click_id: 'sub1',
    payout: 'payout',
    status: 'status',
    txid: 'order_id',
  }),
  network('terraleads', 'Terra Leads', 'sub_id={clickid}', {
    click_id: 'sub_id',
    payout: 'payout',
    status: 'status',
    txid: 'lead_id',
  }),
  network('tune', 'TUNE / HasOffers (networks on TUNE)', 'aff_sub={clickid}', {
    click_id: 'aff_sub',
    payout: 'payout',
    status: '',
    txid: 'transaction_id',
  }),
];
