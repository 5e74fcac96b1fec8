import type { ResourceDefinition } from '@switchyard/domain';
import { type FormEvent, useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../api/client';
import { useSaveRecord } from '../../api/useSaveRecord';
import { showNotice } from '../feedback/showNotice';
import { useServerMessage } from '../feedback/useServerMessage';
import { listReturnPath } from '../list/listReturnPath';
import { emptyValueOf } from './elementRules';
import type { FormElement, FormValues } from './types';
import { elementOfPath, validateForm } from './validateForm';

export interface ResourceFormOptions {
  /** Where a new record leads: its edit screen (default) or the list. */
  afterCreate?: 'edit' | 'list';
}

export function initialValues(elements: readonly FormElement[], record?: Record<string, unknown>): FormValues {
  const values: FormValues = {};
  for (const element of elements) {
    const fromRecord = record?.[element.name];
    values[element.name] = fromRecord ?? element.value ?? emptyValueOf(element);
  }
  return values;
}

/**
 * The state of a create or edit form (headless; the view is `ResourceForm`): values, client validation
 * with the domain schema (`form`, or `updateForm` on edit), the server's 400 field errors, saving and
 * what follows it (§2.6, §5.1).
 */
export function useResourceForm(
  definition: ResourceDefinition,
  elements: readonly FormElement[],
  record?: Record<string, unknown>,
  options: ResourceFormOptions = {},
) {
  const { t } = useTranslation();
  const translate = useServerMessage();
  const navigate = useNavigate();
  const save = useSaveRecord(definition);
  const id = record?.[definition.idField] as string | number | undefined;
  const mode: 'create' | 'edit' = record ? 'edit' : 'create';
  const schema = mode === 'edit' ? (definition.updateForm ?? definition.form) : definition.form;

  const [values, setValues] = useState<FormValues>(() => initialValues(elements, record));
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const valuesRef = useRef(values);
  valuesRef.current = values;

  const minValueMessage = useCallback((min: number) => t('resources:form.minValue', { min }), [t]);
  const validation = useMemo(
    () => validateForm(elements, values, schema, minValueMessage),
    [elements, values, schema, minValueMessage],
  );

  // Errors show from the first submit on; after that they follow every change.
  const errors = useMemo(() => {
    const shown: Record<string, string> = submitted ? { ...validation.errors } : {};
    for (const [name, message] of Object.entries(serverErrors)) shown[name] ??= message;
    return Object.fromEntries(Object.entries(shown).map(([name, message]) => [name, translate(message)]));
  }, [submitted, validation.errors, serverErrors, translate]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: setValue hands itself to the element's onChange.
  const setValue = useCallback(
    (name: string, value: unknown) => {
      const next = { ...valuesRef.current, [name]: value };
      valuesRef.current = next;
      setValues(next);
      setServerErrors((current) => {
        if (!(name in current)) return current;
        const { [name]: _cleared, ...rest } = current;
        return rest;
      });
      elements.find((element) => element.name === name)?.onChange?.(value, { values: next, setValue });
    },
    [elements],
  );

  const showSaveError = (error: Error) => {
    if (error instanceof ApiError && error.status === 400) {
      const fieldErrors: Record<string, string> = {};
      const unplaced: string[] = [];
      for (const [path, message] of Object.entries(error.fieldErrors())) {
        const name = elementOfPath(elements, path);
        if (name && !fieldErrors[name]) fieldErrors[name] = message;
        else if (!name) unplaced.push(translate(message));
      }
      setServerErrors(fieldErrors);
      if (unplaced.length > 0 || Object.keys(fieldErrors).length === 0) {
        setFormError([translate(error.message), ...unplaced].join(' '));
      }
      return;
    }
    setFormError(translate(error.message));
  };

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    setSubmitted(true);
    setFormError(null);
    setServerErrors({});
    if (Object.keys(validation.errors).length > 0) return;
    if (validation.otherErrors.length > 0) {
      setFormError(validation.otherErrors.map(translate).join(' '));
      return;
    }
    save.mutate(
      { id, body: validation.body },
      {
        onSuccess: (saved) => {
          setSubmitted(false);
          if (mode === 'edit') {
            showNotice({ message: t('resources:form.saved') });
            return;
          }
          showNotice({ message: t('resources:form.created') });
          const newId = (saved as Record<string, unknown> | null)?.[definition.idField];
          const route = definition.route ?? '';
          navigate(
            options.afterCreate !== 'list' && newId !== undefined
              ? `${route}/edit/${encodeURIComponent(String(newId))}`
              : listReturnPath(definition),
            { replace: true },
          );
        },
        onError: showSaveError,
      },
    );
  };

  return {
    definition,
    elements,
    mode,
    id,
    values,
    setValue,
    errors,
    /** True after a submit attempt: fields without an error then read "Looks good!" (§2.6). */
    submitted,
    formError,
    isSaving: save.isPending,
    submit,
    cancelPath: listReturnPath(definition),
  };
}

export type ResourceFormController = ReturnType<typeof useResourceForm>;
