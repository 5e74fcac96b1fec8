import {
  type Icon,
  IconAffiliate,
  IconAntenna,
  IconArrowsSplit,
  IconArrowsSplit2,
  IconBolt,
  IconBriefcase,
  IconChartPie,
  IconCoins,
  IconFilter,
  IconHistory,
  IconLayoutDashboard,
  IconLivePhoto,
  IconPlaneArrival,
  IconReportAnalytics,
  IconShieldCheck,
  IconSpeakerphone,
  IconTag,
  IconTargetArrow,
  IconTicket,
  IconUsers,
  IconWebhook,
} from '@tabler/icons-react';

/** The icon of each menu entry, by its label key. */
const MENU_ICONS: Record<string, Icon> = {
  'menu.dashboard': IconLayoutDashboard,
  'menu.flows': IconArrowsSplit,
  'menu.segments': IconChartPie,
  'menu.campaigns': IconSpeakerphone,
  'menu.offers': IconTag,
  'menu.tracker-flows': IconArrowsSplit2,
  'menu.tracker-segments': IconFilter,
  'menu.tracker-campaigns': IconTargetArrow,
  'menu.tracker-offers': IconTicket,
  'menu.tracker-landers': IconPlaneArrival,
  'menu.reports': IconReportAnalytics,
  'menu.live': IconLivePhoto,
  'menu.traffic-sources': IconAntenna,
  'menu.affiliate-networks': IconAffiliate,
  'menu.events': IconBolt,
  'menu.postback-events': IconWebhook,
  'menu.workspaces': IconBriefcase,
  'menu.currency-rates': IconCoins,
  'menu.users': IconUsers,
  'menu.bot-protection': IconShieldCheck,
  'menu.history': IconHistory,
};

export function menuIcon(labelKey: string): Icon {
  return MENU_ICONS[labelKey] ?? IconLayoutDashboard;
}
