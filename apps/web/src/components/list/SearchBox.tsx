import { CloseButton, TextInput, type TextInputProps } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';

export const SEARCH_DEBOUNCE_MS = 300;

export interface SearchBoxProps {
  /** The search in force (from the URL). */
  search: string;
  /** Called with the trimmed text after a short pause in typing. */
  onSearch: (search: string) => void;
  /** Shown as the field's label, or given as its accessible name only. */
  label: string;
  visibleLabel?: boolean;
  placeholder: string;
  clearLabel: string;
  w?: TextInputProps['w'];
}

/** A search field for a URL-kept search: lists, reports and the postback log share it. */
export function SearchBox({ search, onSearch, label, visibleLabel, placeholder, clearLabel, w }: SearchBoxProps) {
  const [typed, setTyped] = useState(search);
  const commit = useDebouncedCallback((value: string) => onSearch(value.trim()), SEARCH_DEBOUNCE_MS);

  // Follow the URL when it changes from elsewhere (back button, "Clear search", a drill-down).
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
      {...(visibleLabel ? { label } : { 'aria-label': label })}
      placeholder={placeholder}
      leftSection={<IconSearch size={16} aria-hidden />}
      rightSection={typed ? <CloseButton size="sm" aria-label={clearLabel} onClick={() => change('')} /> : null}
      value={typed}
      onChange={(event) => change(event.currentTarget.value)}
      w={w ?? { base: '100%', sm: 320 }}
    />
  );
}
