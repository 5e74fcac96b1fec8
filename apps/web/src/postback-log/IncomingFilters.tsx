import { Group, Select } from '@mantine/core';
import { POSTBACK_OUTCOMES, type PostbackOutcome } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { DayInput } from '../components/form/DayInput';
import { LogSearch } from './LogSearch';
import { usePostbackLogContext } from './PostbackLogContext';

/** Search by click id or txid, the outcome, and the days (both included, Y-m-d as everywhere). */
export function IncomingFilters() {
  const { t } = useTranslation('postbacks');
  const { params } = usePostbackLogContext();
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <LogSearch placeholder={t('filters.incomingSearch')} />
      <Select
        label={t('filters.outcome')}
        placeholder={t('filters.allOutcomes')}
        data={POSTBACK_OUTCOMES.map((outcome) => ({
          value: outcome,
          // Recorded postbacks include those whose event does not count as a conversion.
          label: outcome === 'converted' ? t('filters.recordedOutcome') : t(`outcomes.${outcome}`),
        }))}
        value={params.outcome ?? null}
        onChange={(value) => params.setOutcome((value as PostbackOutcome | null) ?? undefined)}
        clearable
        w={{ base: '100%', xs: 200 }}
      />
      {/* The two days stay side by side on a phone. */}
      <Group gap="sm" wrap="nowrap" w={{ base: '100%', xs: 'auto' }}>
        <DayInput
          label={t('filters.from')}
          value={params.from}
          max={params.to}
          onChange={(day) => params.setDays(day, params.to)}
          clearable
          flex={1}
          miw={0}
          w={{ xs: 170 }}
        />
        <DayInput
          label={t('filters.to')}
          value={params.to}
          min={params.from}
          onChange={(day) => params.setDays(params.from, day)}
          clearable
          flex={1}
          miw={0}
          w={{ xs: 170 }}
        />
      </Group>
    </Group>
  );
}
