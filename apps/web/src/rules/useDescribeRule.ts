import { getResource, type Rule } from '@switchyard/domain';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { lookupOptionOf, useLookupRecords } from '../api/useLookup';
import { initialValues } from './ruleValues';
import { useRuleLabels } from './useRuleLabels';

const campaigns = getResource('tracker-campaigns');
const sources = getResource('traffic-sources');
/** Intl's names of the window's units: it says "1 day" and "2 days" in each language. */
const UNITS = { minutes: 'minute', hours: 'hour', days: 'day' } as const;
/** Comparisons read the same in every language. */
const SYMBOLS = { '>': '>', '>=': '≥', '<': '<', '<=': '≤', '=': '=' } as const;

/** Short texts for the list: what a rule watches, when it acts and what it does. */
export function useDescribeRule(rules: readonly Rule[]) {
  const { t, i18n } = useTranslation('rules');
  const labels = useRuleLabels();
  const campaignRecords = useLookupRecords(campaigns, {
    enabled: rules.some((rule) => rule.scope.kind === 'campaign'),
  });
  const sourceRecords = useLookupRecords(sources, {
    enabled: rules.some((rule) => rule.scope.kind === 'traffic_source'),
  });
  return useMemo(() => {
    const names = new Map<string, string>();
    for (const record of campaignRecords) {
      const option = lookupOptionOf(campaigns, record);
      names.set(`campaign:${option.value}`, option.label);
    }
    for (const record of sourceRecords) {
      const option = lookupOptionOf(sources, record);
      names.set(`traffic_source:${option.value}`, option.label);
    }
    const number = new Intl.NumberFormat(i18n.language);
    const list = new Intl.ListFormat(i18n.language, { type: 'conjunction' });
    return {
      scope: (rule: Rule) =>
        rule.scope.kind === 'workspace'
          ? t('scopes.workspace')
          : `${t(`scopes.${rule.scope.kind}`)}: ${names.get(`${rule.scope.kind}:${rule.scope.id}`) ?? rule.scope.id}`,
      watches: (rule: Rule) => {
        const { window, windowUnit } = initialValues(rule);
        return t('list.watches', {
          group: labels.group(rule.group_by),
          window: new Intl.NumberFormat(i18n.language, {
            style: 'unit',
            unit: UNITS[windowUnit],
            unitDisplay: 'long',
          }).format(Number(window)),
        });
      },
      conditions: (rule: Rule) =>
        list.format(
          rule.conditions.map(
            (condition) =>
              `${labels.metric(condition.metric)} ${SYMBOLS[condition.operator]} ${number.format(condition.value)}`,
          ),
        ),
      actions: (rule: Rule) =>
        list.format(
          rule.actions.map((action) =>
            action.type === 'set_weight'
              ? t('list.setWeight', { weight: action.weight })
              : action.type === 'webhook'
                ? `${t('actions.webhook')} (${safeHost(action.url)})`
                : t(`actions.${action.type}`),
          ),
        ),
    };
  }, [campaignRecords, sourceRecords, labels, t, i18n.language]);
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
