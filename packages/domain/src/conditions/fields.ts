// §3.9: the fields a condition rule can test, with their control and operations.
import { COMPARATORS, IN_OPERATIONS, type LeafType, VARS_OPERATIONS } from './types.js';
import { WEEKDAYS } from './visitor-values.js';

export const DEVICES = ['desktop', 'tablet', 'mobile'] as const;
export const PLATFORMS = ['linux', 'windows', 'mac', 'ios', 'android', 'bsd', 'chromeos'] as const;
/** §3.9: lookup keys of vars rules. */
export const VARS_KEYS = [
  'subaff',
  'email_source',
  'step',
  'utm_content',
  'utm_medium',
  'utm_source',
  ...Array.from({ length: 10 }, (_, index) => `var${index + 1}`),
] as const;

/** Browser and bot names a rule can match (the names the UA parser and bot detector report). */
export const BROWSERS = [
  'Chrome',
  'Chrome Mobile',
  'Chrome WebView',
  'Chrome Headless',
  'Chromium',
  'Safari',
  'Mobile Safari',
  'Firefox',
  'Firefox Mobile',
  'Firefox Focus',
  'Firefox Reality',
  'Edge',
  'Edge Mobile',
  'IE',
  'IEMobile',
  'Opera',
  'Opera Mini',
  'Opera Mobi',
  'Opera Touch',
  'Opera GX',
  'Opera Coast',
  'Samsung Internet',
  'UCBrowser',
  'UC Mini',
  'Yandex',
  'Yandex Mobile',
  'Brave',
  'Vivaldi',
  'DuckDuckGo',
  'Silk',
  'MIUI Browser',
  'Huawei Browser',
  'Oculus Browser',
  'Puffin',
  'QQBrowser',
  'QQBrowser Mini',
  'QQ',
  'Baidu',
  'Baidu Box App',
  'Sogou Explorer',
  'Sogou Mobile',
  '2345Explorer',
  '360 Browser',
  'LBBROWSER',
  'Maxthon',
  'Quark',
  'WeChat',
  'Weibo',
  'Alipay',
  'DingTalk',
  'Facebook',
  'Instagram',
  'Line',
  'KakaoTalk',
  'KakaoStory',
  'Snapchat',
  'TikTok',
  'Twitter',
  'LinkedIn',
  'Pinterest',
  'Telegram',
  'WhatsApp',
  'Viber',
  'Klarna',
  'GSA',
  'Google Search',
  'Android Browser',
  'Dolphin',
  'Konqueror',
  'Epiphany',
  'GNOME Web',
  'Midori',
  'Falkon',
  'SeaMonkey',
  'Pale Moon',
  'Waterfox',
  'Iceweasel',
  'IceCat',
  'Basilisk',
  'K-Meleon',
  'Lunascape',
  'Avant',
  'Iron',
  'Comodo Dragon',
  'Sleipnir',
  'Otter',
  'Qutebrowser',
  'Lynx',
  'w3m',
  'Links',
  'NetFront',
  'Obigo',
  'Tizen Browser',
  'Whale',
  'Naver',
  'Avast Secure Browser',
  'AVG Secure Browser',
  'Ecosia',
  'Ghostery',
  'Mullvad Browser',
  'Tor Browser',
  'Sailfish Browser',
  'PlayStation',
  'Nintendo Browser',
  'Smart TV',
  'Kindle',
  'BlackBerry',
  'Bolt',
  'Dorado',
  'Flock',
  'GoBrowser',
  'Jasmine',
  'Polaris',
  'Skyfire',
  'Tesla',
  'Electron',
  'Atom',
  'HeyTap',
  'Vivo Browser',
  'Oppo Browser',
  'Realme Browser',
  'Phoenix',
  'Kiwi',
  'Cốc Cốc',
  'Aloha',
  // Bots and tools
  'Google Bot',
  'Googlebot-Image',
  'Google AdsBot',
  'Google Mediapartners',
  'Google Read Aloud',
  'Bing Bot',
  'BingPreview',
  'Yahoo Slurp',
  'DuckDuckBot',
  'Baidu Spider',
  'Yandex Bot',
  'Sogou Spider',
  'Exabot',
  'Facebook External Hit',
  'Facebot',
  'Twitterbot',
  'LinkedInBot',
  'Pinterestbot',
  'Slackbot',
  'Discordbot',
  'TelegramBot',
  'WhatsApp Bot',
  'Applebot',
  'AhrefsBot',
  'SemrushBot',
  'MJ12bot',
  'DotBot',
  'PetalBot',
  'Bytespider',
  'GPTBot',
  'ClaudeBot',
  'CCBot',
  'PerplexityBot',
  'Amazonbot',
  'archive.org_bot',
  'UptimeRobot',
  'Pingdom',
  'HeadlessChrome',
  'PhantomJS',
  'Selenium',
  'Puppeteer',
  'Playwright',
  'cURL',
  'Wget',
  'Python Requests',
  'Python urllib',
  'Go HTTP Client',
  'Java',
  'Apache HttpClient',
  'OkHttp',
  'Node Fetch',
  'axios',
  'PostmanRuntime',
  'Insomnia',
  'libwww-perl',
  'Scrapy',
] as const;

export type ConditionControl =
  | 'multi-select'
  | 'select'
  | 'single-select'
  | 'text'
  | 'between'
  | 'number'
  | 'weekday'
  | 'boolean';

export interface ConditionField {
  var: string;
  condition: LeafType;
  control: ConditionControl;
  operations: readonly string[];
  /** Built-in options, or the lookup the builder loads them from. */
  options?: readonly string[] | 'countries' | 'campaigns' | 'segments' | 'regions' | 'languages';
}

/** Isp and referrer match by part too; the other list fields whole. */
const ISP_OPERATIONS = ['IN', 'NOT IN', 'contains'] as const;
const TRUE_FALSE = ['true', 'false'] as const;

/**
 * §3.9, in the order the builder offers them; the visitor fields stand next to their kin (region after
 * country, versions after platform and browser). None is lead-only: clicks and leads carry them all.
 */
export const CONDITION_FIELDS: readonly ConditionField[] = [
  {
    var: 'countryCode',
    condition: 'InCondition',
    control: 'multi-select',
    operations: IN_OPERATIONS,
    options: 'countries',
  },
  {
    var: 'region',
    condition: 'InCondition',
    control: 'multi-select',
    operations: IN_OPERATIONS,
    options: 'regions',
  },
  { var: 'city', condition: 'InCondition', control: 'text', operations: IN_OPERATIONS },
  {
    var: 'language',
    condition: 'InCondition',
    control: 'multi-select',
    operations: IN_OPERATIONS,
    options: 'languages',
  },
  { var: 'device', condition: 'InCondition', control: 'select', operations: IN_OPERATIONS, options: DEVICES },
  { var: 'platform', condition: 'InCondition', control: 'select', operations: IN_OPERATIONS, options: PLATFORMS },
  { var: 'osVersion', condition: 'CompareIntCondition', control: 'number', operations: COMPARATORS },
  { var: 'browser', condition: 'InCondition', control: 'select', operations: IN_OPERATIONS, options: BROWSERS },
  { var: 'browserVersion', condition: 'CompareIntCondition', control: 'number', operations: COMPARATORS },
  { var: 'ip', condition: 'InCondition', control: 'text', operations: IN_OPERATIONS },
  { var: 'asn', condition: 'InCondition', control: 'text', operations: IN_OPERATIONS },
  { var: 'isp', condition: 'InCondition', control: 'text', operations: ISP_OPERATIONS },
  { var: 'referrer', condition: 'InCondition', control: 'text', operations: VARS_OPERATIONS },
  { var: 'isBot', condition: 'EqualCondition', control: 'boolean', operations: [], options: TRUE_FALSE },
  { var: 'isUnique', condition: 'EqualCondition', control: 'boolean', operations: [], options: TRUE_FALSE },
  { var: 'campaignId', condition: 'EqualCondition', control: 'single-select', operations: [], options: 'campaigns' },
  {
    var: 'segmentId',
    condition: 'SegmentCondition',
    control: 'single-select',
    operations: IN_OPERATIONS,
    options: 'segments',
  },
  { var: 'vars', condition: 'VarsCondition', control: 'text', operations: VARS_OPERATIONS },
  { var: 'timeOfDay', condition: 'BetweenCondition', control: 'between', operations: [] },
  { var: 'weekday', condition: 'InCondition', control: 'weekday', operations: IN_OPERATIONS, options: WEEKDAYS },
  { var: 'regsCount', condition: 'CompareIntCondition', control: 'number', operations: COMPARATORS },
  { var: 'payoutsCount', condition: 'CompareIntCondition', control: 'number', operations: COMPARATORS },
  { var: 'emailRate', condition: 'CompareIntCondition', control: 'number', operations: COMPARATORS },
  { var: 'age', condition: 'CompareIntCondition', control: 'number', operations: COMPARATORS },
];

/**
 * Fields only an API lead carries (its registrations, payouts, email and age): a tracker click has none of
 * them, so a tracker rule on one could never match (tracker screens show tracker fields only).
 */
export const LEAD_ONLY_CONDITION_FIELDS: readonly string[] = ['regsCount', 'payoutsCount', 'emailRate', 'age'];

/**
 * The fields offered, restricted by `availableRules` (§3.9) when given; on the tracker side without the
 * lead-only fields.
 */
export function availableConditionFields(
  availableRules?: readonly string[],
  side: 'api' | 'tracker' = 'api',
): ConditionField[] {
  return CONDITION_FIELDS.filter(
    (field) =>
      (!availableRules || availableRules.includes(field.var)) &&
      (side === 'api' || !LEAD_ONLY_CONDITION_FIELDS.includes(field.var)),
  );
}
