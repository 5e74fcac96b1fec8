import { isbot } from 'isbot';
import { LRUCache } from 'lru-cache';
import { UAParser } from 'ua-parser-js';

/** What routing reads from a User-Agent header (§3.9 device, platform, browser; the bot flag). */
export interface UserAgentTraits {
  device: 'desktop' | 'tablet' | 'mobile';
  platform: string | undefined;
  browser: string | undefined;
  /** Major versions (osVersion and browserVersion); undefined when the agent names none. */
  osVersion: number | undefined;
  browserVersion: number | undefined;
  bot: boolean;
}

// ua-parser's OS names → §3.9 platforms.
const PLATFORMS: Record<string, string> = {
  Windows: 'windows',
  'Windows Phone': 'windows',
  'Windows Mobile': 'windows',
  'Mac OS': 'mac',
  macOS: 'mac',
  iOS: 'ios',
  iPadOS: 'ios',
  Android: 'android',
  'Android-x86': 'android',
  HarmonyOS: 'android',
  'Chromium OS': 'chromeos',
  'Chrome OS': 'chromeos',
  FreeBSD: 'bsd',
  OpenBSD: 'bsd',
  NetBSD: 'bsd',
  DragonFly: 'bsd',
  Linux: 'linux',
  Ubuntu: 'linux',
  Debian: 'linux',
  Fedora: 'linux',
  'Red Hat': 'linux',
  SUSE: 'linux',
  Mint: 'linux',
  Arch: 'linux',
  CentOS: 'linux',
  Gentoo: 'linux',
  Slackware: 'linux',
  Kubuntu: 'linux',
  Xubuntu: 'linux',
  Lubuntu: 'linux',
  Mandriva: 'linux',
  Manjaro: 'linux',
};

// ua-parser's browser names where §3.9's list spells them differently.
const BROWSER_NAMES: Record<string, string> = {
  'Samsung Browser': 'Samsung Internet',
  'Chrome Headless': 'Chrome Headless',
  'Mobile Chrome': 'Chrome Mobile',
  'Mobile Firefox': 'Firefox Mobile',
  'Opera Mobi': 'Opera Mobi',
  'Android Browser': 'Android Browser',
  UCBrowser: 'UCBrowser',
  'Huawei Browser': 'Huawei Browser',
  Yandex: 'Yandex',
  Edge: 'Edge',
};

// Bots and tools by a token of their User-Agent → §3.9's names for them.
const BOT_NAMES: readonly [RegExp, string][] = [
  [/googlebot-image/i, 'Googlebot-Image'],
  [/adsbot-google/i, 'Google AdsBot'],
  [/mediapartners-google/i, 'Google Mediapartners'],
  [/googlebot/i, 'Google Bot'],
  [/bingpreview/i, 'BingPreview'],
  [/bingbot/i, 'Bing Bot'],
  [/yahoo! slurp/i, 'Yahoo Slurp'],
  [/duckduckbot/i, 'DuckDuckBot'],
  [/baiduspider/i, 'Baidu Spider'],
  [/yandexbot/i, 'Yandex Bot'],
  [/facebookexternalhit/i, 'Facebook External Hit'],
  [/facebot/i, 'Facebot'],
  [/twitterbot/i, 'Twitterbot'],
  [/linkedinbot/i, 'LinkedInBot'],
  [/slackbot/i, 'Slackbot'],
  [/discordbot/i, 'Discordbot'],
  [/telegrambot/i, 'TelegramBot'],
  [/applebot/i, 'Applebot'],
  [/ahrefsbot/i, 'AhrefsBot'],
  [/semrushbot/i, 'SemrushBot'],
  [/petalbot/i, 'PetalBot'],
  [/bytespider/i, 'Bytespider'],
  [/gptbot/i, 'GPTBot'],
  [/claudebot/i, 'ClaudeBot'],
  [/ccbot/i, 'CCBot'],
  [/perplexitybot/i, 'PerplexityBot'],
  [/amazonbot/i, 'Amazonbot'],
  [/uptimerobot/i, 'UptimeRobot'],
  [/headlesschrome/i, 'HeadlessChrome'],
  [/phantomjs/i, 'PhantomJS'],
  [/^curl\//i, 'cURL'],
  [/^wget\//i, 'Wget'],
  [/python-requests/i, 'Python Requests'],
  [/python-urllib/i, 'Python urllib'],
  [/^go-http-client/i, 'Go HTTP Client'],
  [/okhttp/i, 'OkHttp'],
  [/^node-fetch/i, 'Node Fetch'],
  [/^axios/i, 'axios'],
  [/postmanruntime/i, 'PostmanRuntime'],
  [/^insomnia/i, 'Insomnia'],
  [/libwww-perl/i, 'libwww-perl'],
  [/scrapy/i, 'Scrapy'],
  [/apache-httpclient/i, 'Apache HttpClient'],
  [/^java\//i, 'Java'],
];

function botName(userAgent: string): string | undefined {
  for (const [pattern, name] of BOT_NAMES) if (pattern.test(userAgent)) return name;
  return undefined;
}

export function describeUserAgent(userAgent: string): UserAgentTraits {
  const result = new UAParser(userAgent).getResult();
  const type = result.device.type;
  const device = type === 'mobile' || type === 'wearable' ? 'mobile' : type === 'tablet' ? 'tablet' : 'desktop';
  const platform = result.os.name ? PLATFORMS[result.os.name] : undefined;
  const bot = userAgent === '' || isbot(userAgent);
  const parsedBrowser = result.browser.name ? (BROWSER_NAMES[result.browser.name] ?? result.browser.name) : undefined;
  const browser = (bot ? botName(userAgent) : undefined) ?? parsedBrowser ?? botName(userAgent);
  return {
    device,
    platform,
    browser,
    osVersion: majorVersion(result.os.version),
    browserVersion: majorVersion(result.browser.major ?? result.browser.version),
    bot,
  };
}

/** The leading whole number of a version (`17.4.1` → 17, `10_15_7` → 10); undefined for none. */
export function majorVersion(version: string | undefined): number | undefined {
  const match = version ? /^\d{1,6}/.exec(version) : null;
  return match ? Number(match[0]) : undefined;
}

const CACHE_SIZE = 10_000;
/** What the kept agents may take at most: their text and about what a verdict takes beside it. */
const CACHE_BYTES = 16 * 1024 * 1024;
const ENTRY_OVERHEAD = 300;

/**
 * describeUserAgent with the most recently used answers kept: a campaign's traffic repeats a few thousand
 * agents, and parsing one costs tens of µs. Least recently used ones go first (a Zipf-spread agent that
 * returns stays); the bytes are bounded too, since an agent is whatever text the visitor sent.
 */
export class UserAgentCache {
  private readonly entries = new LRUCache<string, UserAgentTraits>({
    max: CACHE_SIZE,
    maxSize: CACHE_BYTES,
    sizeCalculation: (_traits, agent) => agent.length + ENTRY_OVERHEAD,
  });

  describe(userAgent: string): UserAgentTraits {
    const cached = this.entries.get(userAgent);
    if (cached) return cached;
    const traits = describeUserAgent(userAgent);
    this.entries.set(userAgent, traits);
    return traits;
  }
}
