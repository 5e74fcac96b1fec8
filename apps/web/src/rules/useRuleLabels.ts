import { REPORT_METRICS, RULE_GROUPS, type RuleGroup } from '@switchyard/domain';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useCustomMetrics } from '../reports/useCustomMetrics';

/** The report's names of metrics and groups (namespace `reports`), with the workspace's custom metrics. */
export function useRuleLabels() {
  const { t } = useTranslation('reports');
  const custom = useCustomMetrics().data;
  return useMemo(() => {
    const customNames = new Map((custom ?? []).map((metric) => [metric.key, metric.name]));
    const metric = (key: string): string =>
      customNames.get(key) ?? ((REPORT_METRICS as readonly string[]).includes(key) ? t(`metrics.${key}`) : key);
    const group = (key: RuleGroup): string => {
      const number = /^var(\d+)$/.exec(key)?.[1];
      return number ? t('groups.var', { number }) : t(`groups.${key}`);
    };
    return {
      metric,
      group,
      metricOptions: [
        ...REPORT_METRICS.map((key) => ({ value: key, label: metric(key) })),
        ...[...customNames].map(([key, name]) => ({ value: key, label: name })),
      ],
      groupOptions: RULE_GROUPS.map((key) => ({ value: key, label: group(key) })),
    };
  }, [custom, t]);
}
