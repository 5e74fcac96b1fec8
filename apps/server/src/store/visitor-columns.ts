// What routing now reads off a visitor, stored with each click and lead so that reports group
// and filter by it (region, city, network, language, referrer, versions) and so that a bot verdict is
// never made without a trace of why.

/** The columns both event tables gain, with their SQL types. */
export const VISITOR_COLUMNS = [
  ['region', 'text'],
  ['city', 'text'],
  ['asn', 'bigint'],
  ['isp', 'text'],
  ['language', 'text'],
  ['referrer_domain', 'text'],
  ['os_version', 'integer'],
  ['browser_version', 'integer'],
  ['bot_reason', 'text'],
] as const;
