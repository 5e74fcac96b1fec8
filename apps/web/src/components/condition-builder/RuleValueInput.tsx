import '@mantine/dates/styles.css';
import { Group, NumberInput, rem, Select, TextInput } from '@mantine/core';
import { TimePicker } from '@mantine/dates';
import {
  COMPARATORS,
  type Comparator,
  type ConditionField,
  campaigns,
  parseCompareValue,
  type RuleValues,
  trackerCampaigns,
} from '@switchyard/domain';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useCountryOptions } from '../../api/useCountryOptions';
import { useLookup } from '../../api/useLookup';
import { useSegmentLookup } from '../../api/useSegmentLookup';
import { useTimezoneOptions } from '../../api/useTimezoneOptions';
import type { BuilderRule } from './builderTree';
import { useConditionBuilderContext } from './ConditionBuilderContext';
import { COMPARATOR_KEYS, PLATFORM_NAMES } from './ruleFields';
import { ValueListInput, type ValueOption } from './ValueListInput';
import { LanguageValues, RegionValues, TrueFalseValue, TypedValues, WeekdayValue } from './VisitorRuleInputs';

export interface RuleInputProps {
  rule: BuilderRule;
  field: ConditionField;
  update: (rule: BuilderRule) => void;
}

/** Label text shown when labels are enabled; the same text always names the input for assistive technology. */
export function useRuleLabel() {
  const { t } = useTranslation();
  const { labelsEnabled } = useConditionBuilderContext();
  return (key: string) => {
    const text = t(`controls:conditionBuilder.${key}`);
    return { 'aria-label': text, label: labelsEnabled ? text : undefined };
  };
}

const listOf = (values: unknown): string[] => (Array.isArray(values) ? values.map(String) : []);

/** Options with any chosen value the list lacks (an archived campaign, a lookup that failed), so none is hidden. */
function withChosen(options: ValueOption[], chosen: readonly string[]): ValueOption[] {
  const known = new Set(options.map((option) => option.value));
  return [...options, ...chosen.filter((value) => !known.has(value)).map((value) => ({ value, label: value }))];
}

function CountryValues({ rule, update }: RuleInputProps) {
  const countries = useCountryOptions();
  const labelProps = useRuleLabel()('values');
  const values = listOf(rule.values);
  const options = useMemo(
    () => countries.map((country) => ({ value: String(country.value), label: `${country.label} (${country.value})` })),
    [countries],
  );
  const { disabled } = useConditionBuilderContext();
  return (
    <ValueListInput
      name={labelProps['aria-label']}
      label={labelProps.label}
      values={values}
      options={withChosen(options, values)}
      onChange={(next) => update({ ...rule, values: next })}
      disabled={disabled}
    />
  );
}

function BuiltInValues({ rule, field, update }: RuleInputProps) {
  const { t } = useTranslation();
  const { disabled } = useConditionBuilderContext();
  const labelProps = useRuleLabel()('values');
  const values = listOf(rule.values);
  const builtIn = Array.isArray(field.options) ? (field.options as readonly string[]) : [];
  const label = (value: string) => {
    if (field.var === 'device') return t(`controls:conditionBuilder.devices.${value}`, { defaultValue: value });
    if (field.var === 'platform') return PLATFORM_NAMES[value] ?? value;
    return value;
  };
  const options = builtIn.map((value) => ({ value, label: label(value) }));
  return (
    <ValueListInput
      name={labelProps['aria-label']}
      label={labelProps.label}
      values={values}
      options={withChosen(options, values)}
      onChange={(next) => update({ ...rule, values: next })}
      disabled={disabled}
    />
  );
}

function FreeValues({ rule, update }: RuleInputProps) {
  const { disabled } = useConditionBuilderContext();
  const labelProps = useRuleLabel()('values');
  return (
    <ValueListInput
      name={labelProps['aria-label']}
      label={labelProps.label}
      values={listOf(rule.values)}
      onChange={(next) => update({ ...rule, values: next })}
      disabled={disabled}
    />
  );
}

/** §3.9 campaignId: one campaign, from the api or the tracker campaigns by the builder's data type. */
function CampaignValue({ rule, update }: RuleInputProps) {
  const { t } = useTranslation();
  const { flowType, disabled } = useConditionBuilderContext();
  const lookup = useLookup(flowType === 'tracker' ? trackerCampaigns : campaigns);
  const labelProps = useRuleLabel()('campaign');
  const chosen = typeof rule.values === 'string' ? rule.values : '';
  const options = withChosen(
    lookup.map((option) => ({ value: String(option.value), label: option.label })),
    chosen ? [chosen] : [],
  );
  return (
    <Select
      {...labelProps}
      data={options}
      value={chosen || null}
      onChange={(value) => update({ ...rule, values: value ?? '' })}
      searchable
      allowDeselect={false}
      nothingFoundMessage={t('resources:form.noResults')}
      placeholder={t('controls:conditionBuilder.choose')}
      disabled={disabled}
      miw={rem(200)}
      style={{ flex: '1 1 16rem' }}
    />
  );
}

/**
 * §3.9 segmentId: one segment of the builder's data type, never the current segment nor one of its own
 * `segments_chain`. A stored rule naming several segments keeps them all (a multi-select then).
 */
function SegmentValue({ rule, update }: RuleInputProps) {
  const { t } = useTranslation();
  const { flowType, disabled, excludeSegments } = useConditionBuilderContext();
  const lookup = useSegmentLookup(flowType === 'tracker' ? 'tracker-segments' : 'segments');
  const labelProps = useRuleLabel()('segment');
  const values = listOf(rule.values);
  const options = withChosen(
    lookup
      .filter((segment) => !excludeSegments.includes(segment.value))
      .map((segment) => ({ value: segment.value, label: segment.label })),
    values,
  );
  if (values.length > 1) {
    return (
      <ValueListInput
        name={labelProps['aria-label']}
        label={labelProps.label}
        values={values}
        options={options}
        onChange={(next) => update({ ...rule, values: next })}
        disabled={disabled}
      />
    );
  }
  return (
    <Select
      {...labelProps}
      data={options}
      value={values[0] ?? null}
      onChange={(value) => update({ ...rule, values: value ? [value] : [] })}
      searchable
      allowDeselect={false}
      nothingFoundMessage={t('resources:form.noResults')}
      placeholder={t('controls:conditionBuilder.choose')}
      disabled={disabled}
      miw={rem(200)}
      style={{ flex: '1 1 16rem' }}
    />
  );
}

function EqualText({ rule, update }: RuleInputProps) {
  const { disabled } = useConditionBuilderContext();
  const labelProps = useRuleLabel()('value');
  return (
    <TextInput
      {...labelProps}
      value={typeof rule.values === 'string' ? rule.values : ''}
      onChange={(event) => update({ ...rule, values: event.currentTarget.value })}
      disabled={disabled}
      style={{ flex: '1 1 16rem' }}
    />
  );
}

type Between = RuleValues['BetweenCondition'];

/** §3.9 timeOfDay: Start and End (hours and minutes, HH:mm) and the timezone they are read in. */
function TimeOfDayValue({ rule, update }: RuleInputProps) {
  const { t } = useTranslation();
  const { disabled } = useConditionBuilderContext();
  const timezones = useTimezoneOptions();
  const label = useRuleLabel();
  const values = (rule.values ?? {}) as Partial<Between>;
  const between: Between = { Start: values.Start ?? '', End: values.End ?? '', Timezone: values.Timezone ?? 'UTC' };
  const set = (patch: Partial<Between>) => update({ ...rule, values: { ...between, ...patch } });
  const zones = withChosen(
    timezones.map((zone) => ({ value: String(zone.value), label: zone.label })),
    between.Timezone ? [between.Timezone] : [],
  );
  const time = (which: 'start' | 'end', value: string, onChange: (value: string) => void) => {
    const text = t(`controls:conditionBuilder.${which}`);
    return (
      <TimePicker
        label={label(which).label}
        aria-label={text}
        value={value}
        onChange={onChange}
        format="24h"
        hoursInputLabel={t(`controls:conditionBuilder.${which}Hours`)}
        minutesInputLabel={t(`controls:conditionBuilder.${which}Minutes`)}
        disabled={disabled}
        clearable={false}
        dir="ltr"
      />
    );
  };
  return (
    <Group gap="xs" align="flex-end" wrap="wrap" style={{ flex: '1 1 20rem' }}>
      {time('start', between.Start, (Start) => set({ Start }))}
      {time('end', between.End, (End) => set({ End }))}
      <Select
        {...label('timezone')}
        data={zones}
        value={between.Timezone || null}
        onChange={(Timezone) => set({ Timezone: Timezone ?? 'UTC' })}
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

type Compare = RuleValues['CompareIntCondition'];

/** §3.9 numeric comparisons; §5.3: what is not a number is blanked, numbers are kept as integers. */
function CompareValue({ rule, update }: RuleInputProps) {
  const { t } = useTranslation();
  const { disabled } = useConditionBuilderContext();
  const label = useRuleLabel();
  const values = (rule.values ?? {}) as Partial<Compare>;
  const compare: Compare = { Value: values.Value ?? '', Comparator: values.Comparator ?? '>' };
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap" style={{ flex: '1 1 16rem' }}>
      <Select
        {...label('comparator')}
        data={COMPARATORS.map((comparator) => ({
          value: comparator,
          label: t(`controls:conditionBuilder.comparators.${COMPARATOR_KEYS[comparator]}`),
        }))}
        value={compare.Comparator}
        onChange={(comparator) =>
          comparator && update({ ...rule, values: { ...compare, Comparator: comparator as Comparator } })
        }
        allowDeselect={false}
        disabled={disabled}
        w={rem(190)}
      />
      <NumberInput
        {...label('number')}
        value={compare.Value}
        onChange={(value) => update({ ...rule, values: { ...compare, Value: parseCompareValue(value) } })}
        allowDecimal={false}
        disabled={disabled}
        style={{ flex: '1 1 6rem' }}
      />
    </Group>
  );
}

/** The value control of a rule by its field (§3.9). */
export function RuleValueInput(props: RuleInputProps) {
  const { field, rule } = props;
  switch (rule.condition) {
    case 'InCondition':
      if (field.options === 'countries') return <CountryValues {...props} />;
      if (field.options === 'regions') return <RegionValues {...props} />;
      if (field.options === 'languages') return <LanguageValues {...props} />;
      if (field.control === 'weekday') return <WeekdayValue {...props} />;
      if (Array.isArray(field.options)) return <BuiltInValues {...props} />;
      return <TypedValues {...props} />;
    case 'EqualCondition':
      if (field.control === 'boolean') return <TrueFalseValue {...props} />;
      return field.options === 'campaigns' ? <CampaignValue {...props} /> : <EqualText {...props} />;
    case 'SegmentCondition':
      return <SegmentValue {...props} />;
    case 'VarsCondition':
      return <FreeValues {...props} />;
    case 'BetweenCondition':
      return <TimeOfDayValue {...props} />;
    case 'CompareIntCondition':
      return <CompareValue {...props} />;
  }
}
