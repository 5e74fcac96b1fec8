import { MultiSelect, rem, TagsInput } from '@mantine/core';
import { SCROLLABLE_VALUES_ABOVE } from '@switchyard/domain';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { keepEnterInField } from '../form/keepEnterInField';
import { BulkInsertDialog } from './BulkInsertDialog';
import { useBulkPaste } from './useBulkPaste';

export interface ValueOption {
  value: string;
  label: string;
}

interface ValueListInputProps {
  values: readonly string[];
  onChange: (values: string[]) => void;
  /** Offered values (countries, devices…); without them any typed value is taken. */
  options?: readonly ValueOption[];
  /** Accessible name; shown as the label too when `label` is set. */
  name: string;
  label?: ReactNode;
  disabled: boolean;
  /** What to type, for free values (`10.0.0.0/8`); the generic hint otherwise. */
  placeholder?: string;
  /** A problem with the values, shown under the input. */
  error?: ReactNode;
  /** Options shown at once: a long list (regions) is searched rather than rendered whole. */
  limit?: number;
  /** Values written left to right whatever the page's direction (addresses, domains): `2001:db8::/32`. */
  ltr?: boolean;
}

// §2.7, §9: more than 4 values make the list scroll instead of growing the row.
const scrollable = { pillsList: { maxHeight: rem(88), overflowY: 'auto' as const } };

const ltrPills = { pill: { direction: 'ltr' as const } };

const appendNew = (values: readonly string[], added: readonly string[]) => [
  ...values,
  ...added.filter((value, index) => !values.includes(value) && added.indexOf(value) === index),
];

/** The value list of a rule: a multi-select of `options`, or free values; a bulk paste asks first (§4). */
export function ValueListInput(props: ValueListInputProps) {
  const { values, onChange, options, name, label, disabled, placeholder, error, limit, ltr } = props;
  const { t } = useTranslation();
  const bulk = useBulkPaste();
  const [search, setSearch] = useState('');
  const many = values.length > SCROLLABLE_VALUES_ABOVE;

  const find = (text: string) => {
    const wanted = text.trim().toLowerCase();
    return options?.find((option) => option.value.toLowerCase() === wanted || option.label.toLowerCase() === wanted)
      ?.value;
  };
  const skipped = options && bulk.paste ? bulk.paste.chunks.filter((chunk) => find(chunk) === undefined) : [];

  const addMultiple = (chunks: string[]) => {
    const added = options ? chunks.map(find).filter((value): value is string => value !== undefined) : chunks;
    onChange(appendNew(values, added));
    bulk.close();
  };
  const addSingle = (text: string) => {
    bulk.close();
    if (!options) {
      onChange(appendNew(values, [text]));
      return;
    }
    const value = find(text);
    // Not an option: leave the text in the search box, as a plain paste would.
    if (value === undefined) setSearch(text);
    else onChange(appendNew(values, [value]));
  };

  const shared = {
    label,
    'aria-label': name,
    value: [...values],
    onChange: (next: string[]) => onChange(next),
    disabled,
    error,
    // In Arabic an IPv6 range would otherwise read `db8::/32:2001`.
    styles: { ...(many ? scrollable : {}), ...(ltr ? ltrPills : {}) },
    mod: { scrollable: many },
    size: 'sm' as const,
    miw: rem(200),
    style: { flex: '1 1 16rem' },
  };

  return (
    <>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a layout-less wrapper of the input's own events */}
      <div onPasteCapture={bulk.onPasteCapture} onKeyDown={keepEnterInField} style={{ display: 'contents' }}>
        {options ? (
          <MultiSelect
            {...shared}
            data={options.map((option) => ({ value: option.value, label: option.label }))}
            searchable
            searchValue={search}
            onSearchChange={setSearch}
            nothingFoundMessage={t('resources:form.noResults')}
            placeholder={values.length === 0 ? t('controls:conditionBuilder.choose') : undefined}
            hidePickedOptions
            limit={limit}
          />
        ) : (
          <TagsInput
            {...shared}
            placeholder={values.length === 0 ? (placeholder ?? t('controls:conditionBuilder.typeValues')) : undefined}
          />
        )}
      </div>
      <BulkInsertDialog
        paste={bulk.paste}
        skipped={skipped}
        onMultiple={addMultiple}
        onSingle={addSingle}
        onCancel={bulk.close}
      />
    </>
  );
}
