import { Button, Group, NumberInput, SimpleGrid, Stack, Text } from '@mantine/core';
import { DEFAULT_EMAIL_WEIGHTS } from '@switchyard/domain';
import { IconAdjustments, IconRestore } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { wrapperProps } from '../form/fieldProps';
import type { FormControlProps } from '../form/types';
import { RepeaterField } from './RepeaterField';
import { rowErrors } from './rowErrors';
import { useLocalRows } from './useLocalRows';

/** One default email weight (§3.1 lookup: key, name, weight). */
export interface DefaultEmailWeight {
  key: string;
  name: string;
  weight: number;
}

interface EmailWeightRow {
  key: string;
  name: string;
  /** '' while the operator retypes it; stored as 0. */
  weight: number | '';
}

function storedWeights(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Every default provider in its order, then any other stored key; weights from the value, else the default. */
export function emailWeightRows(value: unknown, defaults: readonly DefaultEmailWeight[]): EmailWeightRow[] {
  const stored = storedWeights(value);
  const weightOf = (key: string, fallback: number) => {
    const weight = stored[key];
    return typeof weight === 'number' && Number.isFinite(weight) ? weight : fallback;
  };
  const known = new Set(defaults.map((entry) => entry.key));
  return [
    ...defaults.map((entry) => ({ key: entry.key, name: entry.name, weight: weightOf(entry.key, entry.weight) })),
    ...Object.keys(stored)
      .filter((key) => !known.has(key))
      .map((key) => ({ key, name: key, weight: weightOf(key, 0) })),
  ];
}

function weightsFromRows(rows: readonly EmailWeightRow[]): Record<string, number> {
  return Object.fromEntries(rows.map((row) => [row.key, row.weight === '' ? 0 : row.weight]));
}

export interface EmailWeightsRepeaterProps extends FormControlProps {
  /** The default weights (§7.4 default-email-weights); the built-in list unless given. */
  defaults?: readonly DefaultEmailWeight[];
}

/**
 * `email-weights-repeater`: `{ [provider key]: integer weight }` (§3.7). Empty means the defaults are
 * used; "Customize Email Weights" reveals one weight per provider, whose keys cannot be changed. A
 * message on a stored key (`gmail`) shows under that provider's weight.
 */
export function EmailWeightsRepeater(props: EmailWeightsRepeaterProps) {
  const { element, value, onChange, error, fieldErrors, disabled, defaults = DEFAULT_EMAIL_WEIGHTS } = props;
  const { t } = useTranslation();
  const [rows, setRows] = useLocalRows(
    value,
    onChange,
    (stored) => emailWeightRows(stored, defaults),
    weightsFromRows,
    defaults,
  );
  const [customizing, setCustomizing] = useState(false);
  const isCustomized = Object.keys(storedWeights(value)).length > 0;
  const shown = customizing || isCustomized;
  const errors = rowErrors(error, fieldErrors, (path) => {
    const row = shown ? rows.findIndex((entry) => entry.key === path) : -1;
    return row < 0 ? undefined : { row, field: '' };
  });
  const providerName = (row: EmailWeightRow) =>
    row.key === 'other' ? t('controls:repeaters.emailWeights.other') : row.name;

  const setWeight = (index: number, weight: number | '') =>
    setRows(rows.map((row, at) => (at === index ? { ...row, weight } : row)));

  const resetToDefaults = () => {
    setCustomizing(false);
    onChange({});
  };

  return (
    <RepeaterField {...wrapperProps(props)} error={errors.error}>
      {shown ? (
        <Stack gap="xs">
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="xs" verticalSpacing="xs">
            {rows.map((row, index) => (
              <NumberInput
                key={row.key}
                size="xs"
                label={providerName(row)}
                aria-label={t('controls:repeaters.emailWeights.weight', { provider: providerName(row) })}
                data-testid={`${element.name}-${row.key}`}
                value={row.weight}
                min={0}
                step={1}
                allowDecimal={false}
                allowNegative={false}
                disabled={disabled}
                error={errors.at(index)}
                onChange={(next) => setWeight(index, next === '' ? '' : Math.max(0, Math.trunc(Number(next))))}
                onBlur={() => row.weight === '' && setWeight(index, 0)}
              />
            ))}
          </SimpleGrid>
          {!disabled && (
            <Group>
              <Button
                variant="subtle"
                size="xs"
                color="gray"
                leftSection={<IconRestore size={14} aria-hidden />}
                onClick={resetToDefaults}
              >
                {t('controls:repeaters.emailWeights.useDefaults')}
              </Button>
            </Group>
          )}
        </Stack>
      ) : (
        <Group gap="sm">
          <Text size="sm" c="dimmed">
            {t('controls:repeaters.emailWeights.defaultsInUse')}
          </Text>
          {!disabled && (
            <Button
              variant="light"
              size="xs"
              leftSection={<IconAdjustments size={14} aria-hidden />}
              onClick={() => setCustomizing(true)}
            >
              {t('controls:repeaters.emailWeights.customize')}
            </Button>
          )}
        </Group>
      )}
    </RepeaterField>
  );
}
