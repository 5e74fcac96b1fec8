import { MultiSelect, Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { FormControlProps } from '../types';

type OptionValue = string | number;

/** A searchable select of `options`, one value or many (`multiple`); "No results found" when nothing matches (§2.6). */
export function SelectControl({
  element,
  value,
  onChange,
  label,
  description,
  placeholder,
  error,
  required,
  disabled,
}: FormControlProps) {
  const { t } = useTranslation();
  const data = (element.options ?? []).map((option) => ({
    value: option.value,
    label: option.label,
    disabled: option.disabled,
  }));
  const shared = {
    name: element.name,
    label,
    description,
    placeholder,
    error,
    required,
    disabled,
    data,
    searchable: true,
    nothingFoundMessage: t('resources:form.noResults'),
    clearable: element.allowEmpty,
    ...element.input,
  };
  if (element.multiple) {
    return (
      <MultiSelect<OptionValue>
        {...shared}
        value={Array.isArray(value) ? (value as OptionValue[]) : []}
        onChange={(chosen) => onChange(chosen)}
      />
    );
  }
  return (
    <Select<OptionValue>
      {...shared}
      allowDeselect={element.allowEmpty ?? false}
      value={value === undefined || value === '' ? null : (value as OptionValue | null)}
      onChange={(chosen) => onChange(chosen)}
    />
  );
}
