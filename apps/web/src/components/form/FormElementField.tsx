import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isRequired } from './elementRules';
import { FORM_CONTROLS, PLACES_FIELD_ERRORS, WITHOUT_SUCCESS_TEXT } from './formControls';
import { useResourceFormContext } from './ResourceFormContext';
import type { FormElement } from './types';

/**
 * One element of a generic form: its control by kind, its error in red under it, or "Looks good!". Errors
 * inside the value go to the inputs they belong to where the control can place them (§2.6, §5.1).
 */
export function FormElementField({ element }: { element: FormElement }) {
  const { t } = useTranslation();
  const { values, setValue, errors, fieldErrors, submitted, edited, markEdited, isSaving } = useResourceFormContext();
  const Control = FORM_CONTROLS[element.type];
  if (!Control) {
    // A kind without a registered control is a programming error; say so without taking the screen down.
    console.error(`No control for form element type "${element.type}"`);
    return null;
  }
  const inside = fieldErrors[element.name];
  const placesInside = PLACES_FIELD_ERRORS.has(element.type);
  const error = errors[element.name] ?? (placesInside || !inside ? undefined : Object.values(inside)[0]);
  // "Looks good!" only for a field the person edited, not for every field left as it was.
  const showSuccess =
    submitted && edited.has(element.name) && !error && !inside && !WITHOUT_SUCCESS_TEXT.has(element.type);
  const text = (key: string | undefined) => (key ? t(key) : undefined);

  return (
    <div>
      <Control
        element={element}
        value={values[element.name]}
        onChange={(value) => {
          setValue(element.name, value);
          markEdited(element.name);
        }}
        label={text(element.label)}
        description={text(element.labelDescription)}
        placeholder={text(element.placeholder)}
        error={error}
        fieldErrors={placesInside ? inside : undefined}
        required={isRequired(element)}
        disabled={Boolean(element.disabled) || isSaving}
      />
      {showSuccess && (
        <Text size="xs" c="teal" mt={4}>
          {t('resources:form.looksGood')}
        </Text>
      )}
    </div>
  );
}
