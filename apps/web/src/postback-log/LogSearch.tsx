import { CloseButton, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SEARCH_DEBOUNCE_MS } from '../components/list/ListSearch';
import { usePostbackLogContext } from './PostbackLogContext';

/** The id search of the shown tab: typing updates `?search=` after a short pause. */
export function LogSearch({ placeholder }: { placeholder: string }) {
  const { t } = useTranslation('postbacks');
  const { params } = usePostbackLogContext();
  const { search, setSearch } = params;
  const [typed, setTyped] = useState(search);
  const commit = useDebouncedCallback((value: string) => setSearch(value.trim()), SEARCH_DEBOUNCE_MS);

  // Follow the URL when it changes from elsewhere (back button, "Clear filters", another tab).
  useEffect(() => {
    setTyped((current) => (current.trim() === search ? current : search));
  }, [search]);

  const change = (value: string) => {
    setTyped(value);
    commit(value);
  };

  return (
    <TextInput
      type="search"
      aria-label={t('filters.search')}
      placeholder={placeholder}
      leftSection={<IconSearch size={16} aria-hidden />}
      rightSection={
        typed ? <CloseButton size="sm" aria-label={t('filters.clearSearch')} onClick={() => change('')} /> : null
      }
      value={typed}
      onChange={(event) => change(event.currentTarget.value)}
      w={{ base: '100%', sm: 320 }}
    />
  );
}
