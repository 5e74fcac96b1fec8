import { Group, Select } from '@mantine/core';
import { OUTBOUND_STATES, type OutboundState } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { LogSearch } from './LogSearch';
import { usePostbackLogContext } from './PostbackLogContext';

/** Search by click id or conversion id, and the state. */
export function OutboundFilters() {
  const { t } = useTranslation('postbacks');
  const { params } = usePostbackLogContext();
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <LogSearch placeholder={t('filters.outboundSearch')} />
      <Select
        label={t('filters.state')}
        placeholder={t('filters.allStates')}
        data={OUTBOUND_STATES.map((state) => ({ value: state, label: t(`states.${state}`) }))}
        value={params.state ?? null}
        onChange={(value) => params.setState((value as OutboundState | null) ?? undefined)}
        clearable
        w={{ base: '100%', xs: 200 }}
      />
    </Group>
  );
}
