import { CloseButton, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SEARCH_DEBOUNCE_MS } from '../components/list/ListSearch';
import { useReportContext } from './ReportContext';

/** Searches the rows' names; typing updates `?search=` after a short pause, replacing the history entry. */
export function ReportSearch() {
  const { t } = useTranslation('reports');
  const { params, update } = useReportContext();
  const [typed, setTyped] = useState(params.search);
  const commit = useDebouncedCallback(
    (value: string) => update({ search: value.trim() }, { replace: true }),
    SEARCH_DEBOUNCE_MS,
  );

  // Follow the URL when it changes from elsewhere (back button, a drill-down).
  useEffect(() => {
    setTyped((current) => (current.trim() === params.search ? current : params.search));
  }, [params.search]);

  const change = (value: string) => {
    setTyped(value);
    commit(value);
  };

  return (
    <TextInput
      type="search"
      label={t('toolbar.search')}
      placeholder={t('toolbar.searchPlaceholder')}
      leftSection={<IconSearch size={16} aria-hidden />}
      rightSection={
        typed ? <CloseButton size="sm" aria-label={t('toolbar.clearSearch')} onClick={() => change('')} /> : null
      }
      value={typed}
      onChange={(event) => change(event.currentTarget.value)}
      w={{ base: '100%', xs: 240 }}
    />
  );
}
