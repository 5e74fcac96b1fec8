import { Group, Select, Text, TextInput } from '@mantine/core';
import { getResource, RULE_SCOPE_KINDS, type RuleGroup } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { lookupOptionOf, useLookupRecords } from '../api/useLookup';
import { type RuleValues, WINDOW_UNITS, type WindowUnit } from './ruleValues';
import { useRuleLabels } from './useRuleLabels';

const campaigns = getResource('tracker-campaigns');
const sources = getResource('traffic-sources');

interface Props {
  values: RuleValues;
  set: <K extends keyof RuleValues>(key: K, value: RuleValues[K]) => void;
  error: (path: string) => string | undefined;
}

/** What a rule watches: its scope (the workspace, a campaign or a source), what one row is, and over what window. */
export function ScopeFields({ values, set, error }: Props) {
  const { t } = useTranslation('rules');
  const labels = useRuleLabels();
  const kind = values.scopeKind;
  const definition = kind === 'campaign' ? campaigns : sources;
  const records = useLookupRecords(definition, { enabled: kind !== 'workspace' });
  const options = records.map((record) => {
    const option = lookupOptionOf(definition, record);
    return { value: String(option.value), label: option.label };
  });
  return (
    <>
      <Group gap="sm" align="flex-start" wrap="wrap">
        <Select
          label={t('form.scope')}
          data={RULE_SCOPE_KINDS.map((scope) => ({ value: scope, label: t(`scopes.${scope}`) }))}
          value={kind}
          onChange={(scope) => {
            if (!scope) return;
            set('scopeKind', scope as RuleValues['scopeKind']);
            set('scopeId', '');
          }}
          allowDeselect={false}
          w={220}
          error={error('scope.kind')}
        />
        {kind !== 'workspace' && (
          <Select
            label={kind === 'campaign' ? t('scopes.campaign') : t('scopes.traffic_source')}
            data={options}
            value={values.scopeId || null}
            onChange={(id) => set('scopeId', id ?? '')}
            searchable
            required
            miw={220}
            style={{ flex: 1 }}
            error={error('scope.id')}
          />
        )}
      </Group>
      <Group gap="sm" align="flex-start" wrap="wrap">
        <Select
          label={t('form.groupBy')}
          data={labels.groupOptions}
          value={values.group_by}
          onChange={(group) => group && set('group_by', group as RuleGroup)}
          allowDeselect={false}
          searchable
          w={220}
          error={error('group_by')}
        />
        <TextInput
          label={t('form.window')}
          inputMode="numeric"
          value={values.window}
          onChange={(event) => set('window', event.currentTarget.value)}
          w={140}
          error={error('window')}
        />
        <Select
          label={t('form.windowUnit')}
          data={WINDOW_UNITS.map((unit) => ({ value: unit, label: t(`units.${unit}`) }))}
          value={values.windowUnit}
          onChange={(unit) => unit && set('windowUnit', unit as WindowUnit)}
          allowDeselect={false}
          w={120}
        />
      </Group>
      <Text size="xs" c="dimmed">
        {t('form.watchHint')}
      </Text>
    </>
  );
}
