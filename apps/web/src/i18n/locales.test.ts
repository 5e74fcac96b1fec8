import { LANGUAGES } from '@switchyard/domain';
import { describe, expect, it } from 'vitest';

// Every namespace file of every locale, found on disk so a new namespace is checked too.
const files = import.meta.glob<Record<string, unknown>>('./locales/*/*.json', { eager: true, import: 'default' });

/** Texts that are the same word in other languages (brand and loan words); keep this list short. */
const SAME_AS_ENGLISH = new Set([
  'Switchyard',
  'Email',
  'OK',
  'API',
  // The Domain Name System, named so in every language.
  'DNS',
  'Segments',
  'Notifications',
  'General',
  'Vertical',
  'Horizontal',
  // Spanish for no.
  'No',
  // Loan words of the trade in French and Spanish (the live view names each event's kind).
  'Conversion',
  'Postback',
  // A language's name (the JavaScript redirect mode).
  'JavaScript',
  // Names of services, and a loan word of the web (notification channels).
  'Telegram',
  'Slack',
  'Webhook',
  'URL',
  'E-mail',
]);

const ONLY_PLACEHOLDERS = /^(?:\s*{{\s*[\w.]+\s*}}\s*)+$/;

function flatten(value: unknown, prefix = ''): Map<string, string> {
  const entries = new Map<string, string>();
  if (typeof value === 'string') {
    entries.set(prefix, value);
    return entries;
  }
  if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      for (const [path, text] of flatten(child, prefix ? `${prefix}.${key}` : key)) entries.set(path, text);
    }
  }
  return entries;
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/{{\s*([\w.]+)\s*}}/g)].map((match) => match[1] ?? '').sort();
}

const namespaces = [...new Set(Object.keys(files).map((path) => path.split('/')[3]))];

describe('locale files', () => {
  it('exist for every language and namespace', () => {
    expect(namespaces).toEqual(expect.arrayContaining(['common.json', 'resources.json']));
    for (const language of LANGUAGES) {
      for (const namespace of namespaces) {
        expect(files[`./locales/${language}/${namespace}`], `${language}/${namespace}`).toBeDefined();
      }
    }
  });

  for (const namespace of namespaces) {
    const english = flatten(files[`./locales/en/${namespace}`]);

    for (const language of LANGUAGES.filter((code) => code !== 'en')) {
      describe(`${language}/${namespace}`, () => {
        const translated = flatten(files[`./locales/${language}/${namespace}`]);

        it('has exactly the English keys', () => {
          expect([...translated.keys()].sort()).toEqual([...english.keys()].sort());
        });

        it('translates every text', () => {
          const untranslated = [...english].filter(
            // A text made only of placeholders ("{{field}} {{operation}} {{values}}") has no words to translate.
            ([key, text]) =>
              translated.get(key) === text && !SAME_AS_ENGLISH.has(text) && !ONLY_PLACEHOLDERS.test(text),
          );
          expect(untranslated).toEqual([]);
        });

        it('keeps the placeholders of every text', () => {
          for (const [key, text] of english) {
            expect(placeholders(translated.get(key) ?? ''), key).toEqual(placeholders(text));
          }
        });

        it('has no empty text', () => {
          expect([...translated].filter(([, text]) => !text.trim())).toEqual([]);
        });
      });
    }
  }
});
