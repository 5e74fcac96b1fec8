import { DEFAULT_LANGUAGE, LANGUAGES, type Language, RTL_LANGUAGES } from '@switchyard/domain';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import enCommon from './locales/en/common.json';
import enControls from './locales/en/controls.json';
import enEvents from './locales/en/events.json';
import enHistory from './locales/en/history.json';
import enPostbacks from './locales/en/postbacks.json';
import enReportLayout from './locales/en/reportLayout.json';
import enReports from './locales/en/reports.json';
import enResources from './locales/en/resources.json';

export const LANGUAGE_STORAGE_KEY = 'switchyard.language';
export const NAMESPACES = [
  'common',
  'resources',
  'controls',
  'reports',
  'postbacks',
  'events',
  'history',
  'reportLayout',
] as const;

/** Each language is offered under its own name, the same in every interface language. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  fr: 'Français',
  es: 'Español',
  zh: '中文',
  ar: 'العربية',
};

/**
 * English is in the first download (it is the fallback of every other language); each other language is
 * its own files, fetched when it is chosen, so the first load does not carry five languages' texts.
 */
const ENGLISH = {
  common: enCommon,
  resources: enResources,
  controls: enControls,
  reports: enReports,
  postbacks: enPostbacks,
  events: enEvents,
  history: enHistory,
  reportLayout: enReportLayout,
} satisfies Record<(typeof NAMESPACES)[number], object>;

const LOADERS = import.meta.glob<Record<string, unknown>>('./locales/*/*.json', { import: 'default' });

/** An i18next backend that reads a language's namespace from its own chunk. */
const lazyLocales = {
  type: 'backend' as const,
  init() {},
  read(language: string, namespace: string, callback: (error: unknown, data: Record<string, unknown> | null) => void) {
    const load = LOADERS[`./locales/${language}/${namespace}.json`];
    if (!load) {
      callback(null, {});
      return;
    }
    load().then(
      (data) => callback(null, data),
      (error: unknown) => callback(error, null),
    );
  },
};

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

/** Settles once the stored language's texts are in: the dashboard renders after it (see main.tsx). */
export const i18nReady: Promise<unknown> = i18n
  .use(lazyLocales)
  .use(initReactI18next)
  .init({
    resources: { en: ENGLISH },
    partialBundledLanguages: true,
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
