import { Group, NumberInput, Select, Stack, Switch } from '@mantine/core';
import {
  DEFAULT_OPTIMIZE_FLOOR_PERCENT,
  DEFAULT_OPTIMIZE_MIN_CLICKS,
  DEFAULT_OPTIMIZE_WINDOW_DAYS,
  OPTIMIZE_METRICS,
  OPTIMIZE_TARGETS,
  type OptimizeMetric,
  type OptimizeTarget,
} from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { usePathGroupsContext } from './PathGroupsContext';
import type { PathGroup } from './pathGroupRows';

const key = (name: string) => `optimization:${name}`;

/** A group's "tune weights automatically" switch and, when on, what it tunes for and how cautiously. */
export function OptimizeFields({
  group,
  update,
  fieldErrors,
}: {
  group: PathGroup;
  update: (group: PathGroup) => void;
  fieldErrors?: Record<string, string>;
}) {
  const { t } = useTranslation();
  const { flowType, disabled } = usePathGroupsContext();
  const on = group.optimize === 'on';
  // A message on a setting shows even while tuning is off, under the setting it names.
  const shown = on || Object.keys(fieldErrors ?? {}).some((field) => field.startsWith('optimize_'));
  const number = (value: string | number, fallback: number) => (typeof value === 'number' ? value : fallback);
  return (
    <Stack gap="xs">
      <Switch
        size="sm"
        label={t(key('section'))}
        description={t(key('sectionHint'))}
        checked={on}
        onChange={(event) => update({ ...group, optimize: event.currentTarget.checked ? 'on' : 'off' })}
        disabled={disabled}
        error={fieldErrors?.optimize}
      />
      {shown && (
        <Group gap="sm" align="flex-start" wrap="wrap">
          <Select
            size="xs"
            label={t(key('metric'))}
            data={OPTIMIZE_METRICS.map((metric) => ({ value: metric, label: t(key(`metrics.${metric}`)) }))}
            value={group.optimize_metric ?? 'cr'}
            onChange={(metric) => metric && update({ ...group, optimize_metric: metric as OptimizeMetric })}
            allowDeselect={false}
            error={fieldErrors?.optimize_metric}
            disabled={disabled}
          />
          {flowType === 'tracker' && (
            <Select
              size="xs"
              label={t(key('target'))}
              data={OPTIMIZE_TARGETS.map((target) => ({ value: target, label: t(key(`targets.${target}`)) }))}
              value={group.optimize_target ?? 'paths'}
              onChange={(target) => target && update({ ...group, optimize_target: target as OptimizeTarget })}
              allowDeselect={false}
              error={fieldErrors?.optimize_target}
              disabled={disabled}
            />
          )}
          <NumberInput
            size="xs"
            label={t(key('floor'))}
            value={group.optimize_floor ?? DEFAULT_OPTIMIZE_FLOOR_PERCENT}
            onChange={(value) => update({ ...group, optimize_floor: number(value, DEFAULT_OPTIMIZE_FLOOR_PERCENT) })}
            min={0}
            max={30}
            error={fieldErrors?.optimize_floor}
            disabled={disabled}
            w={150}
          />
          <NumberInput
            size="xs"
            label={t(key('minClicks'))}
            value={group.optimize_min_clicks ?? DEFAULT_OPTIMIZE_MIN_CLICKS}
            onChange={(value) => update({ ...group, optimize_min_clicks: number(value, DEFAULT_OPTIMIZE_MIN_CLICKS) })}
            min={1}
            allowDecimal={false}
            error={fieldErrors?.optimize_min_clicks}
            disabled={disabled}
            w={170}
          />
          <NumberInput
            size="xs"
            label={t(key('windowDays'))}
            value={group.optimize_window_days ?? DEFAULT_OPTIMIZE_WINDOW_DAYS}
            onChange={(value) =>
              update({ ...group, optimize_window_days: number(value, DEFAULT_OPTIMIZE_WINDOW_DAYS) })
            }
            min={1}
            max={90}
            allowDecimal={false}
            error={fieldErrors?.optimize_window_days}
            disabled={disabled}
            w={170}
          />
        </Group>
      )}
    </Stack>
  );
}
