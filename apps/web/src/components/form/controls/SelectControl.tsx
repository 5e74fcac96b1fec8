import { MultiSelect, Select } from '@mantine/core';
import { getResource } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { CreateWhenEmpty } from '../CreateWhenEmpty';
import { fieldProps } from '../fieldProps';
import type { FormControlProps } from '../types';

type OptionValue = string | number;

/**
 * A searchable select of `options`, one value or many (`multiple`); "No results found" when nothing matches
 * (§2.6). With `createWhenEmpty`, an empty list links to creating the first record.
 */
export function SelectControl(props: FormControlProps) {
  const { element, value, onChange } = props;
  const { t } = useTranslation();
  const data = (element.options ?? []).map((option) => ({
    value: option.value,
    label: option.label,
    disabled: option.disabled,
  }));
  const shared = {
    ...fieldProps(props),
    data,
    searchable: true,
    nothingFoundMessage: t('resources:form.noResults'),
    clearable: element.allowEmpty,
    ...element.input,
  };
  if (element.multiple) {
    const chosen = Array.isArray(value) ? (value as OptionValue[]) : [];
    return (
      <MultiSelect<OptionValue>
        {...shared}
        // The placeholder says what no choice means ("Every country"): once something is chosen it is untrue.
        placeholder={chosen.length === 0 ? shared.placeholder : undefined}
        value={chosen}
        onChange={(next) => onChange(next)}
      />
    );
  }
  const select = (
    <Select<OptionValue>
      {...shared}
      allowDeselect={element.allowEmpty ?? false}
      value={value === undefined || value === '' ? null : (value as OptionValue | null)}
      onChange={(chosen) => onChange(chosen)}
    />
  );
  const { createWhenEmpty } = element;
  if (!createWhenEmpty) return select;
  // One tree whether or not the list is empty: the select keeps its state when the options arrive.
  return (
    <div>
      {select}
      {data.length === 0 && (
        <CreateWhenEmpty
          resource={createWhenEmpty}
          // The record made in the drawer is the choice.
          onCreated={(saved) => {
            const id = saved[getResource(createWhenEmpty).lookup.value];
            if (typeof id === 'string' || typeof id === 'number') onChange(id);
          }}
        />
      )}
    </div>
  );
}
