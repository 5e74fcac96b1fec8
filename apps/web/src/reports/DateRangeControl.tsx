import '@mantine/dates/styles.css';
import 'dayjs/locale/ar';
import 'dayjs/locale/es';
import 'dayjs/locale/fr';
import 'dayjs/locale/zh-cn';
import { Group, Kbd, Select } from '@mantine/core';
import { DatePickerInput, type DatesRangeValue } from '@mantine/dates';
import type { Language } from '@switchyard/domain';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isLanguage } from '../i18n';
import {
  DATE_PRESET_SHORTCUTS,
  DATE_PRESETS,
  type DatePreset,
  type DateRangeChoice,
  presetOf,
} from '../shared/reporting/dateRanges';
import { useReportContext } from './ReportContext';
import { useDatePresetShortcuts } from './useDatePresetShortcuts';

const CHOICES: readonly DateRangeChoice[] = [...DATE_PRESETS, 'custom'];

/** The calendar's month and weekday names come from dayjs, whose Chinese is `zh-cn`. */
const CALENDAR_LOCALES: Record<Language, string> = { en: 'en', fr: 'fr', es: 'es', zh: 'zh-cn', ar: 'ar' };

function isPreset(choice: string): choice is DatePreset {
  return choice in DATE_PRESET_SHORTCUTS;
}

/**
 * A preset period, or two days picked in the calendar (picking the days of a preset selects that preset).
 * Each preset has a digit key (shown beside it in the list), pressed outside any field.
 */
export function DateRangeControl() {
  const { t, i18n } = useTranslation('reports');
  const { params, update, range } = useReportContext();
  // The calendar's first click picks only the start; the report changes once both ends are picked.
  const [picked, setPicked] = useState<DatesRangeValue<string>>([range.from, range.to]);
  useEffect(() => setPicked([range.from, range.to]), [range.from, range.to]);

  const choose = (choice: DateRangeChoice) => {
    if (choice === 'custom') update({ choice, custom: range });
    else update({ choice, custom: undefined });
  };
  useDatePresetShortcuts((preset) => update({ choice: preset, custom: undefined }));
  const pick = (value: DatesRangeValue<string>) => {
    setPicked(value);
    const [from, to] = value;
    if (!from || !to) return;
    const preset = presetOf({ from, to }, params.timezone);
    update(preset ? { choice: preset, custom: undefined } : { choice: 'custom', custom: { from, to } });
  };

  return (
    <>
      <Select
        label={t('toolbar.range')}
        data={CHOICES.map((choice) => ({ value: choice, label: t(`presets.${choice}`) }))}
        renderOption={({ option }) => (
          <Group justify="space-between" wrap="nowrap" w="100%" gap="sm">
            <span>{option.label}</span>
            {isPreset(option.value) && (
              <Kbd size="xs" title={t('presets.shortcut', { key: DATE_PRESET_SHORTCUTS[option.value] })} aria-hidden>
                {DATE_PRESET_SHORTCUTS[option.value]}
              </Kbd>
            )}
          </Group>
        )}
        description={t('presets.shortcutsHint')}
        maxDropdownHeight={320}
        value={params.choice}
        onChange={(value) => value && choose(value as DateRangeChoice)}
        allowDeselect={false}
        w={{ base: '100%', xs: 190 }}
      />
      <DatePickerInput
        type="range"
        label={t('toolbar.dates')}
        value={picked}
        onChange={pick}
        locale={CALENDAR_LOCALES[isLanguage(i18n.language) ? i18n.language : 'en']}
        valueFormat="YYYY-MM-DD"
        allowSingleDateInRange
        w={{ base: '100%', xs: 250 }}
      />
    </>
  );
}
