import { DEFAULT_LANGUAGE, LANGUAGES, type Language, RTL_LANGUAGES } from '@switchyard/domain';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import arAlerts from './locales/ar/alerts.json';
import arCommon from './locales/ar/common.json';
import arControls from './locales/ar/controls.json';
import arEvents from './locales/ar/events.json';
import arHistory from './locales/ar/history.json';
import arOptimization from './locales/ar/optimization.json';
import arPostbacks from './locales/ar/postbacks.json';
import arReports from './locales/ar/reports.json';
import arResources from './locales/ar/resources.json';
import enAlerts from './locales/en/alerts.json';
import enCommon from './locales/en/common.json';
import enControls from './locales/en/controls.json';
import enEvents from './locales/en/events.json';
import enHistory from './locales/en/history.json';
import enOptimization from './locales/en/optimization.json';
import enPostbacks from './locales/en/postbacks.json';
import enReports from './locales/en/reports.json';
import enResources from './locales/en/resources.json';
import esAlerts from './locales/es/alerts.json';
import esCommon from './locales/es/common.json';
import esControls from './locales/es/controls.json';
import esEvents from './locales/es/events.json';
import esHistory from './locales/es/history.json';
import esOptimization from './locales/es/optimization.json';
import esPostbacks from './locales/es/postbacks.json';
import esReports from './locales/es/reports.json';
import esResources from './locales/es/resources.json';
import frAlerts from './locales/fr/alerts.json';
import frCommon from './locales/fr/common.json';
import frControls from './locales/fr/controls.json';
import frEvents from './locales/fr/events.json';
import frHistory from './locales/fr/history.json';
import frOptimization from './locales/fr/optimization.json';
import frPostbacks from './locales/fr/postbacks.json';
import frReports from './locales/fr/reports.json';
import frResources from './locales/fr/resources.json';
import zhAlerts from './locales/zh/alerts.json';
import zhCommon from './locales/zh/common.json';
import zhControls from './locales/zh/controls.json';
import zhEvents from './locales/zh/events.json';
import zhHistory from './locales/zh/history.json';
import zhOptimization from './locales/zh/optimization.json';
import zhPostbacks from './locales/zh/postbacks.json';
import zhReports from './locales/zh/reports.json';
import zhResources from './locales/zh/resources.json';

export const LANGUAGE_STORAGE_KEY = 'switchyard.language';
export const NAMESPACES = [
  'common',
  'resources',
  'controls',
  'reports',
  'postbacks',
  'events',
  'history',
  'optimization',
  'alerts',
] as const;

/** Each language is offered under its own name, the same in every interface language. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  fr: 'Français',
  es: 'Español',
  zh: '中文',
  ar: 'العربية',
};

export const LOCALES = {
  en: {
    common: enCommon,
    resources: enResources,
    controls: enControls,
    reports: enReports,
    postbacks: enPostbacks,
    events: enEvents,
    optimization: enOptimization,
    alerts: enAlerts,
    history: enHistory,
  },
  fr: {
    common: frCommon,
    resources: frResources,
    controls: frControls,
    reports: frReports,
    postbacks: frPostbacks,
    events: frEvents,
    optimization: frOptimization,
    alerts: frAlerts,
    history: frHistory,
  },
  es: {
    common: esCommon,
    resources: esResources,
    controls: esControls,
    reports: esReports,
    postbacks: esPostbacks,
    events: esEvents,
    optimization: esOptimization,
    alerts: esAlerts,
    history: esHistory,
  },
  zh: {
    common: zhCommon,
    resources: zhResources,
    controls: zhControls,
    reports: zhReports,
    postbacks: zhPostbacks,
    events: zhEvents,
    optimization: zhOptimization,
    alerts: zhAlerts,
    history: zhHistory,
  },
  ar: {
    common: arCommon,
    resources: arResources,
    controls: arControls,
    reports: arReports,
    postbacks: arPostbacks,
    events: arEvents,
    optimization: arOptimization,
    alerts: arAlerts,
    history: arHistory,
  },
} satisfies Record<Language, Record<(typeof NAMESPACES)[number], object>>;

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

export function storedLanguage(): Language {
  try {
    const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(stored) ? stored : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

export function directionOf(language: string): 'ltr' | 'rtl' {
  return (RTL_LANGUAGES as readonly string[]).includes(language) ? 'rtl' : 'ltr';
}

/** `<html lang dir>` follow the interface language; Mantine's DirectionProvider watches `dir`. */
function applyToDocument(language: string): void {
  document.documentElement.lang = language;
  document.documentElement.dir = directionOf(language);
}

export async function changeLanguage(language: Language): Promise<void> {
  localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  await i18n.changeLanguage(language);
}

i18n.on('languageChanged', applyToDocument);

void i18n.use(initReactI18next).init({
  resources: LOCALES,
  lng: storedLanguage(),
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  ns: [...NAMESPACES],
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

export default i18n;
