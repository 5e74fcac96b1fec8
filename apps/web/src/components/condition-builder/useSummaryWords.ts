import type { Comparator, SummaryWords } from '@switchyard/domain';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

const COMPARATOR_KEYS: Record<Comparator, string> = {
  '>': 'gt',
  '>=': 'gte',
  '<': 'lt',
  '<=': 'lte',
  '==': 'eq',
  '!=': 'ne',
};
const OPERATION_KEYS = { contains: 'contains', 'starts with': 'startsWith', 'ends with': 'endsWith' } as const;

/** The words of condition summaries in the interface language, lists joined the language's way. */
export function useSummaryWords(): SummaryWords {
  const { t, i18n } = useTranslation('summaries');
  const language = i18n.language;
  return useMemo(() => {
    const and = new Intl.ListFormat(language, { type: 'conjunction' });
    const or = new Intl.ListFormat(language, { type: 'disjunction' });
    return {
      everyone: t('controls:conditionBuilder.allCondition'),
      field: (variable) => t(`controls:conditionBuilder.fields.${variable}`, { defaultValue: variable }),
      is: (field, values) => t('condition.is', { field, values }),
      isNot: (field, values) => t('condition.isNot', { field, values }),
      matches: (field, operation, values) =>
        t('condition.matches', {
          field,
          values,
          operation: t(`controls:conditionBuilder.operations.${OPERATION_KEYS[operation]}`),
        }),
      compare: (field, comparator, value) =>
        t('condition.compare', {
          field,
          value,
          comparator: t(`controls:conditionBuilder.comparators.${COMPARATOR_KEYS[comparator]}`),
        }),
      between: (field, start, end, timezone) => t('condition.between', { field, start, end, timezone }),
      not: (text) => t('condition.not', { text }),
      all: (parts) => and.format(parts),
      any: (parts) => or.format(parts),
    };
  }, [t, language]);
}
