import { Radio, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { wrapperProps } from '../fieldProps';
import type { FormControlProps } from '../types';

/**
 * `radio-with-info`: one choice among `options`, each shown with its label and description (texts as
 * given). Value: the chosen option's value (string or number), null when none. Says "No options
 * available" when it has none (§2.6).
 */
export function RadioWithInfoControl(props: FormControlProps) {
  const { element, value, onChange, disabled } = props;
  const { t } = useTranslation();
  const options = element.options ?? [];
  return (
    <Radio.Group
      name={element.name}
      {...wrapperProps(props)}
      value={value === null || value === undefined || value === '' ? null : String(value)}
      onChange={(chosen) => onChange(options.find((option) => String(option.value) === chosen)?.value ?? chosen)}
      {...element.input}
    >
      {options.length === 0 ? (
        <Text size="sm" c="dimmed" mt="xs">
          {t('controls:controls.radio.noOptions')}
        </Text>
      ) : (
        <Stack gap="sm" mt="xs">
          {options.map((option) => (
            <Radio
              key={String(option.value)}
              value={String(option.value)}
              label={option.label}
              description={option.description}
              disabled={disabled || option.disabled}
            />
          ))}
        </Stack>
      )}
    </Radio.Group>
  );
}
