import { DEFAULT_LANGUAGE, LANGUAGES, type Language, RTL_LANGUAGES } from '@switchyard/domain';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import enCommon from './locales/en/common.json';

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
  'summaries',
  'optimization',
  'alerts',
  'delivery',
  'domains',
  'rules',
  'imports',
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
 * English common texts (the login page's, and every language's fallback) are in the first download;
 * every other namespace and language is its own file, fetched when needed: `loadScreenTexts` before the
 * dashboard's screens show, the chosen language's before the app renders (main.tsx).
 */
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
    resources: { en: { common: enCommon } },
    partialBundledLanguages: true,
    lng: storedLanguage(),
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    ns: ['common'],
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });

export default i18n;

/** Every namespace in the interface language (and English, the fallback): what the screens read. */
export function loadScreenTexts(): Promise<void> {
  return i18n.loadNamespaces([...NAMESPACES]);
}
