import type { ResourceDefinition } from '@switchyard/domain';
import { type FormEvent, useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../api/client';
import { useSaveRecord } from '../../api/useSaveRecord';
import { notify } from '../../shared/notify';
import { showNotice } from '../feedback/showNotice';
import { useServerMessage } from '../feedback/useServerMessage';
import { listReturnPath } from '../list/listReturnPath';
import { emptyValueOf } from './elementRules';
import { useIncompleteRules } from './incompleteRules';
import { saveNoticesOf, showSaveNotices } from './showSaveNotices';
import type { FormElement, FormValues } from './types';
import { addError, changedAt, type NestedErrors, placeOfPath, validateForm } from './validateForm';
import { valueAtPath } from './valuePaths';

export interface ResourceFormOptions {
  /**
   * Where a new record leads: its edit screen (default) or the list; or nowhere, handed to a function
   * (a record created in a drawer beside an unsaved form).
   */
  afterCreate?: 'edit' | 'list' | ((saved: Record<string, unknown>) => void);
}

export function initialValues(elements: readonly FormElement[], record?: Record<string, unknown>): FormValues {
  const values: FormValues = {};
  for (const element of elements) {
    const fromRecord = record ? valueAtPath(record, element.name) : undefined;
    values[element.name] = fromRecord ?? element.value ?? emptyValueOf(element);
  }
  return values;
}

/** The server's 400 field errors (§5.1): on elements themselves, and on paths inside them. */
interface ServerFieldErrors {
  errors: Record<string, string>;
  fieldErrors: NestedErrors;
}

const NO_SERVER_ERRORS: ServerFieldErrors = { errors: {}, fieldErrors: {} };

/**
 * A server error goes once its field is edited: the element's own at any change of it, one inside it
 * (`parameters.1.name`) when what its path points at changed.
 */
function clearEdited(current: ServerFieldErrors, name: string, before: unknown, after: unknown): ServerFieldErrors {
  const inside = Object.entries(current.fieldErrors[name] ?? {});
  const kept = inside.filter(([path]) => !changedAt(before, after, path));
  if (!(name in current.errors) && kept.length === inside.length) return current;
  const { [name]: _cleared, ...errors } = current.errors;
  const { [name]: _inside, ...fieldErrors } = current.fieldErrors;
  if (kept.length > 0) fieldErrors[name] = Object.fromEntries(kept);
  return { errors, fieldErrors };
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
  const { t, i18n } = useTranslation();
  const translate = useServerMessage();
  const navigate = useNavigate();
  const save = useSaveRecord(definition);
  const id = record?.[definition.idField] as string | number | undefined;
  const mode: 'create' | 'edit' = record ? 'edit' : 'create';
  const schema = mode === 'edit' ? (definition.updateForm ?? definition.form) : definition.form;

  const [values, setValues] = useState<FormValues>(() => initialValues(elements, record));
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<ServerFieldErrors>(NO_SERVER_ERRORS);
  const [formError, setFormError] = useState<string | null>(null);
  const valuesRef = useRef(values);
  valuesRef.current = values;

  // Changes not saved yet (leaving asks): the values differ from those loaded or last saved.
  // Until the person first types or clicks in the form, what controls settle on their own (an editor's
  // markup, a lookup's default) is taken as loaded, not as a change.
  const savedText = useRef(JSON.stringify(values));
  const touched = useRef(false);
  const leaving = useRef(false);
  const touch = useCallback(() => {
    touched.current = true;
  }, []);

  // The fields the person changed: only those read "Looks good!", not every field left alone.
  const [edited, setEdited] = useState<ReadonlySet<string>>(() => new Set());
  const markEdited = useCallback((name: string) => {
    if (!touched.current) return;
    setEdited((current) => (current.has(name) ? current : new Set(current).add(name)));
  }, []);
  const incompleteRules = useIncompleteRules();
  // A rule added and left incomplete is work that leaving would lose too, though the values hold none of it.
  const hasChanges = useCallback(
    () =>
      touched.current &&
      !leaving.current &&
      (JSON.stringify(valuesRef.current) !== savedText.current || incompleteRules.collect().fields.length > 0),
    [incompleteRules],
  );

  const minValueMessage = useCallback((min: number) => t('resources:form.minValue', { min }), [t]);
  const validation = useMemo(
    () => validateForm(elements, values, schema, minValueMessage),
    [elements, values, schema, minValueMessage],
  );

  // Errors show from the first submit on; after that they follow every change.
  const errors = useMemo(() => {
    const shown: Record<string, string> = submitted ? { ...validation.errors } : {};
    for (const [name, message] of Object.entries(serverErrors.errors)) shown[name] ??= message;
    return Object.fromEntries(Object.entries(shown).map(([name, message]) => [name, translate(message)]));
  }, [submitted, validation.errors, serverErrors, translate]);

  // The same for paths inside elements (a repeater's rows), per element and translated the same way.
  const fieldErrors = useMemo(() => {
    const shown: NestedErrors = {};
    const add = (source: NestedErrors) => {
      for (const [name, inside] of Object.entries(source)) {
        const into = shown[name] ?? {};
        shown[name] = into;
        for (const [path, message] of Object.entries(inside)) into[path] ??= message;
      }
    };
    if (submitted) add(validation.fieldErrors);
    add(serverErrors.fieldErrors);
    return Object.fromEntries(
      Object.entries(shown).map(([name, inside]) => [
        name,
        Object.fromEntries(Object.entries(inside).map(([path, message]) => [path, translate(message)])),
      ]),
    ) as NestedErrors;
  }, [submitted, validation.fieldErrors, serverErrors, translate]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: setValue hands itself to the element's onChange.
  const setValue = useCallback(
    (name: string, value: unknown) => {
      const previous = valuesRef.current[name];
      const next = { ...valuesRef.current, [name]: value };
      valuesRef.current = next;
      if (!touched.current) savedText.current = JSON.stringify(next);
      setValues(next);
      setServerErrors((current) => clearEdited(current, name, previous, value));
      elements.find((element) => element.name === name)?.onChange?.(value, { values: next, setValue });
    },
    [elements],
  );

  const showSaveError = (error: Error) => {
    if (error instanceof ApiError && error.status === 400) {
      const placed: ServerFieldErrors = { errors: {}, fieldErrors: {} };
      const unplaced: string[] = [];
      for (const [path, message] of Object.entries(error.fieldErrors())) {
        const place = placeOfPath(elements, path);
        if (place) addError(placed.errors, placed.fieldErrors, place, message);
        else unplaced.push(translate(message));
      }
      setServerErrors(placed);
      const anyPlaced = Object.keys(placed.errors).length > 0 || Object.keys(placed.fieldErrors).length > 0;
      if (unplaced.length > 0 || !anyPlaced) {
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
    setServerErrors(NO_SERVER_ERRORS);
    if (Object.keys(validation.errors).length > 0 || Object.keys(validation.fieldErrors).length > 0) return;
    if (validation.otherErrors.length > 0) {
      setFormError(validation.otherErrors.map(translate).join(' '));
      return;
    }
    // §5.4: rules left incomplete are not stored; whoever saved is told which.
    const dropped = incompleteRules.collect();
    const tellDropped = () => {
      if (dropped.fields.length === 0) return;
      const names = dropped.fields.map((field) =>
        t(`controls:conditionBuilder.fields.${field}`, { defaultValue: field }),
      );
      notify({
        type: 'warning',
        timeout: 0,
        title: t('resources:form.incompleteRulesTitle'),
        message: t('resources:form.incompleteRules', { rules: new Intl.ListFormat(i18n.language).format(names) }),
      });
      dropped.settle();
    };
    save.mutate(
      { id, body: validation.body },
      {
        onSuccess: (saved) => {
          setSubmitted(false);
          setEdited(new Set());
          tellDropped();
          if (mode === 'edit') {
            showNotice({ message: t('resources:form.saved') });
            showSaveNotices(saved, t);
            // What the server removed leaves the form too, or the next save would send it again.
            for (const { field } of saveNoticesOf(saved)) setValue(field, (saved as Record<string, unknown>)[field]);
            savedText.current = JSON.stringify(valuesRef.current);
            return;
          }
          showNotice({ message: t('resources:form.created') });
          showSaveNotices(saved, t);
          if (typeof options.afterCreate === 'function') {
            leaving.current = true;
            options.afterCreate((saved ?? {}) as Record<string, unknown>);
            return;
          }
          const newId = (saved as Record<string, unknown> | null)?.[definition.idField];
          const route = definition.route ?? '';
          // The edit screen a new record lands on knows it was just created (a tracker campaign shows its URL).
          const toEdit = options.afterCreate !== 'list' && newId !== undefined;
          leaving.current = true;
          navigate(toEdit ? `${route}/edit/${encodeURIComponent(String(newId))}` : listReturnPath(definition), {
            replace: true,
            state: toEdit ? { created: true } : undefined,
          });
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
    /**
     * Messages inside elements, per element name and keyed by the path inside it (`0.ts_parameter`);
     * controls that show them under their own inputs get them as `fieldErrors` (§2.6).
     */
    fieldErrors,
    /** True after a submit attempt: fields the person edited that have no error then read "Looks good!" (§2.6). */
    submitted,
    /** The names of the fields the person changed since the form was loaded or last saved. */
    edited,
    /** Called by a field's own control when the person changes it. */
    markEdited,
    formError,
    isSaving: save.isPending,
    submit,
    cancelPath: listReturnPath(definition),
    /** Whether there are changes not saved (an incomplete rule too); asked when someone leaves the form. */
    hasChanges,
    /** Called on the person's first key, pointer or paste in the form: from then on changes are theirs. */
    touch,
    /** Where the form's condition builders say which of their rules a save would drop (§5.4). */
    incompleteRules: incompleteRules.registry,
  };
}

export type ResourceFormController = ReturnType<typeof useResourceForm>;
