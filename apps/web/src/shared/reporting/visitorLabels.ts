import type { ReportGroup } from '@switchyard/domain';
import type { TFunction } from 'i18next';

// Readable labels of the groups whose values are codes (the server labels them with the code
// itself): the bot verdict and its reason, weekdays, regions, networks and languages.

/** A Monday (2024-01-01) to name each weekday by, in UTC. */
const MONDAY = Date.UTC(2024, 0, 1);
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

function displayNames(language: string, type: 'region' | 'language'): Intl.DisplayNames | null {
  try {
    return new Intl.DisplayNames([language], { type, fallback: 'none' });
  } catch {
    return null;
  }
}

/** `(group, value)` → a label in the interface language, or null where the value says it best as sent. */
export function visitorValueLabels(t: TFunction, language: string) {
  const weekday = new Intl.DateTimeFormat(language, { weekday: 'long', timeZone: 'UTC' });
  const countries = displayNames(language, 'region');
  const languages = displayNames(language, 'language');
  const country = (code: string) => countries?.of(code.toUpperCase()) ?? code;
  const name = (names: Intl.DisplayNames | null, code: string) => {
    try {
      return names?.of(code);
    } catch {
      // A code Intl refuses (not BCP 47) is shown as sent.
      return undefined;
    }
  };

  return (group: ReportGroup, value: string): string | null => {
    switch (group) {
      case 'bot':
        return value === 'true' || value === 'false' ? t(`reports:botValues.${value}`) : null;
      case 'bot_reason':
        return t(`reports:botReasons.${value}`, { defaultValue: value });
      case 'weekday': {
        const index = WEEKDAYS.indexOf(value as (typeof WEEKDAYS)[number]);
        return index < 0 ? null : weekday.format(new Date(MONDAY + index * 86_400_000));
      }
      case 'region': {
        // `US-CA` (ISO 3166-2), or `CC:Name` for a region without a code: the country says where it is.
        const coded = /^([A-Za-z]{2})-\w+$/.exec(value);
        if (coded?.[1]) return `${value} (${country(coded[1])})`;
        const named = /^([A-Za-z]{2}):(.+)$/.exec(value);
        return named?.[1] && named[2] ? `${named[2]} (${country(named[1])})` : null;
      }
      case 'asn':
        return /^\d+$/.test(value) ? `AS${value}` : null;
      case 'language': {
        const shown = name(languages, value);
        return shown && shown !== value ? `${shown} (${value})` : null;
      }
      default:
        return null;
    }
  };
}
