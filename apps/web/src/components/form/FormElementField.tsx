import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isRequired } from './elementRules';
import { FORM_CONTROLS, WITHOUT_SUCCESS_TEXT } from './formControls';
import { useResourceFormContext } from './ResourceFormContext';
import type { FormElement } from './types';

/** One element of a generic form: its control by kind, its error in red under it, or "Looks good!". */
export function FormElementField({ element }: { element: FormElement }) {
  const { t } = useTranslation();
  const { values, setValue, errors, submitted, isSaving } = useResourceFormContext();
  const Control = FORM_CONTROLS[element.type];
  if (!Control) throw new Error(`No control for form element type "${element.type}"`);
  const error = errors[element.name];
  const showSuccess = submitted && !error && !WITHOUT_SUCCESS_TEXT.has(element.type);
  const text = (key: string | undefined) => (key ? t(key) : undefined);

  return (
    <div>
      <Control
        element={element}
        value={values[element.name]}
        onChange={(value) => setValue(element.name, value)}
        label={text(element.label)}
        description={text(element.labelDescription)}
        placeholder={text(element.placeholder)}
        error={error}
        required={isRequired(element)}
        disabled={Boolean(element.disabled) || isSaving}
      />
      {showSuccess && (
        <Text size="xs" c="teal.7" mt={4}>
          {t('resources:form.looksGood')}
        </Text>
      )}
    </div>
  );
}
