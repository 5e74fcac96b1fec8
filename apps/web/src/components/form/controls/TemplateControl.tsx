import { Select, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { COPY_BUTTON_WIDTH, CopyValueButton } from '../../copy/CopyValueButton';
import type { FormControlProps } from '../types';

/**
 * `template`: "Start from a template". Choosing one calls the element's `onChange`, which fills
 * the form; the operator can change anything after. An option's `description` is the template's postback
 * URL, shown with Copy once chosen. The value itself is not part of the record (the schema drops it).
 */
export function TemplateControl({
  element,
  value,
  onChange,
  label,
  description,
  placeholder,
  disabled,
}: FormControlProps) {
  const { t } = useTranslation();
  const options = element.options ?? [];
  const chosen = options.find((option) => String(option.value) === String(value ?? ''));
  const postbackUrl = chosen?.description ?? '';
  return (
    <Stack gap="xs">
      <Select
        name={element.name}
        label={label}
        description={description}
        placeholder={placeholder}
        data={options.map((option) => ({ value: String(option.value), label: option.label }))}
        value={chosen ? String(chosen.value) : null}
        onChange={(key) => onChange(key ?? '')}
        searchable
        nothingFoundMessage={t('resources:form.noResults')}
        disabled={disabled}
      />
      {chosen && postbackUrl !== '' && (
        <TextInput
          label={t('resources:templates.postbackUrl', { name: chosen.label })}
          description={t('resources:templates.postbackUrlHint')}
          value={postbackUrl}
          readOnly
          dir="ltr"
          rightSectionWidth={COPY_BUTTON_WIDTH}
          rightSection={<CopyValueButton value={postbackUrl} />}
        />
      )}
    </Stack>
  );
}
