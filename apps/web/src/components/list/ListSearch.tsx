import { CloseButton, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useResourceListContext } from './ResourceListContext';

export const SEARCH_DEBOUNCE_MS = 300;

/** The search box: typing updates `?search=` after a short pause and goes back to page 1. */
export function ListSearch() {
  const { t } = useTranslation();
  const { params } = useResourceListContext();
  const { search, setSearch } = params;
  const [typed, setTyped] = useState(search);
  const commit = useDebouncedCallback((value: string) => setSearch(value.trim()), SEARCH_DEBOUNCE_MS);

  // Follow the URL when it changes from elsewhere (back button, "Clear search").
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
      aria-label={t('resources:list.search')}
      placeholder={t('resources:list.searchPlaceholder')}
      leftSection={<IconSearch size={16} aria-hidden />}
      rightSection={
        typed ? <CloseButton size="sm" aria-label={t('resources:list.clearSearch')} onClick={() => change('')} /> : null
      }
      value={typed}
      onChange={(event) => change(event.currentTarget.value)}
      w={{ base: '100%', sm: 320 }}
    />
  );
}
