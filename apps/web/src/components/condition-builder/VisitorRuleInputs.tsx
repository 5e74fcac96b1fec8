// The regions' names and codes, which this screen checks or shows (see vite.config.ts).
import '@switchyard/domain/region-data';
// The value controls of the visitor fields (region, language, weekday, true/false fields and the
// free lists of city, asn, isp, referrer and ip).
import { Chip, Group, rem, Select, Text } from '@mantine/core';
import { conditionValueProblem, LANGUAGE_CODES, REGIONS, WEEKDAYS } from '@switchyard/domain';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useTimezoneOptions } from '../../api/useTimezoneOptions';
import { useConditionBuilderContext } from './ConditionBuilderContext';
import { type RuleInputProps, useRuleLabel } from './RuleValueInput';
import { ValueListInput, type ValueOption } from './ValueListInput';

const listOf = (values: unknown): string[] => (Array.isArray(values) ? values.map(String) : []);

/** Options with any chosen value the list lacks, so a stored value is never hidden. */
function withChosen(options: ValueOption[], chosen: readonly string[]): ValueOption[] {
  const known = new Set(options.map((option) => option.value));
  return [...options, ...chosen.filter((value) => !known.has(value)).map((value) => ({ value, label: value }))];
}

/** Names of countries or languages in the interface language; null where the browser has none. */
function useDisplayNames(type: 'region' | 'language'): Intl.DisplayNames | null {
  const { i18n } = useTranslation();
  return useMemo(() => {
    try {
      return new Intl.DisplayNames([i18n.language], { type, fallback: 'none' });
    } catch {
      return null;
    }
  }, [i18n.language, type]);
}

/** A value list of options; a long one shows the first matches of what is typed. */
function OptionValues({ rule, update, options, limit }: RuleInputProps & { options: ValueOption[]; limit?: number }) {
  const { disabled } = useConditionBuilderContext();
  const labelProps = useRuleLabel()('values');
  const values = listOf(rule.values);
  return (
    <ValueListInput
      name={labelProps['aria-label']}
      label={labelProps.label}
      values={values}
      options={withChosen(options, values)}
      onChange={(next) => update({ ...rule, values: next })}
      disabled={disabled}
      limit={limit}
    />
  );
}

/**
 * region: ISO 3166-2 regions labelled with their country, found by typing any part of the label, their
 * English name too where it differs ("Bayern (Bavaria), Germany (DE-BY)").
 */
export function RegionValues(props: RuleInputProps) {
  const countries = useDisplayNames('region');
  const options = useMemo(
    () =>
      REGIONS.map((region) => {
        const country = countries?.of(region.country) ?? region.country;
        const code = region.value.includes(':') ? region.country : region.value;
        const name = region.english ? `${region.name} (${region.english})` : region.name;
        return { value: region.value, label: `${name}, ${country} (${code})` };
      }),
    [countries],
  );
  return <OptionValues {...props} options={options} limit={100} />;
}

/** language: ISO 639-1 codes named in the interface language. */
export function LanguageValues(props: RuleInputProps) {
  const languages = useDisplayNames('language');
  const options = useMemo(
    () => LANGUAGE_CODES.map((code) => ({ value: code, label: `${languages?.of(code) ?? code} (${code})` })),
    [languages],
  );
  return <OptionValues {...props} options={options} />;
}

/** Fields whose values are technical text, read left to right in any language. */
const LTR_FIELDS = new Set(['ip', 'asn', 'referrer']);

/** city, asn, isp, referrer, ip: typed values, with what to type and the first value the field refuses. */
export function TypedValues({ rule, update }: RuleInputProps) {
  const { t } = useTranslation();
  const { disabled } = useConditionBuilderContext();
  const labelProps = useRuleLabel()('values');
  const values = listOf(rule.values);
  const problem = conditionValueProblem({
    type: 'InCondition',
    data: { Var: rule.var, Operation: 'IN', Values: values },
  });
  return (
    <ValueListInput
      name={labelProps['aria-label']}
      label={labelProps.label}
      values={values}
      onChange={(next) => update({ ...rule, values: next })}
      disabled={disabled}
      placeholder={t(`controls:conditionBuilder.placeholders.${rule.var}`, { defaultValue: '' }) || undefined}
      error={problem ? t('controls:conditionBuilder.invalidValue', { value: problem.value }) : undefined}
      ltr={LTR_FIELDS.has(rule.var)}
    />
  );
}

/** weekday: the days, Monday first, and the zone they are read in. */
export function WeekdayValue({ rule, update }: RuleInputProps) {
  const { t } = useTranslation();
  const { disabled, labelsEnabled } = useConditionBuilderContext();
  const label = useRuleLabel();
  const timezones = useTimezoneOptions();
  const days = listOf(rule.values);
  const zone = rule.timezone || 'UTC';
  const zones = withChosen(
    timezones.map((option) => ({ value: String(option.value), label: option.label })),
    [zone],
  );
  const daysName = t('controls:conditionBuilder.days');
  return (
    <Group gap="xs" align="flex-end" wrap="wrap" style={{ flex: '1 1 20rem' }}>
      <div>
        {labelsEnabled && (
          <Text size="sm" fw={500} mb={4}>
            {daysName}
          </Text>
        )}
        <Chip.Group
          multiple
          value={days}
          // Kept in week order, whatever order they were picked in.
          onChange={(next) => update({ ...rule, values: WEEKDAYS.filter((day) => next.includes(day)) })}
        >
          <Group gap={4} role="group" aria-label={daysName} wrap="wrap">
            {WEEKDAYS.map((day) => (
              <Chip key={day} value={day} size="xs" disabled={disabled}>
                {t(`controls:conditionBuilder.weekdays.${day}`)}
              </Chip>
            ))}
          </Group>
        </Chip.Group>
      </div>
      <Select
        {...label('timezone')}
        data={zones}
        value={zone}
        onChange={(timezone) => update({ ...rule, timezone: timezone ?? 'UTC' })}
        searchable
        allowDeselect={false}
        nothingFoundMessage={t('resources:form.noResults')}
        disabled={disabled}
        miw={rem(180)}
        style={{ flex: '1 1 12rem' }}
      />
    </Group>
  );
}

/** isUnique, isBot: yes or no. */
export function TrueFalseValue({ rule, update }: RuleInputProps) {
  const { t } = useTranslation();
  const { disabled } = useConditionBuilderContext();
  const labelProps = useRuleLabel()('value');
  const chosen = typeof rule.values === 'string' && rule.values !== '' ? rule.values : null;
  return (
    <Select
      {...labelProps}
      data={[
        { value: 'true', label: t('controls:conditionBuilder.yes') },
        { value: 'false', label: t('controls:conditionBuilder.no') },
      ]}
      value={chosen}
      onChange={(value) => update({ ...rule, values: value ?? '' })}
      allowDeselect={false}
      placeholder={t('controls:conditionBuilder.choose')}
      disabled={disabled}
      w={rem(150)}
    />
  );
}
