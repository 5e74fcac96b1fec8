// The regions' names and codes, which this screen checks or shows (see vite.config.ts).
import '@switchyard/domain/region-data';
import { Alert, Stack } from '@mantine/core';
import type { ResourceDefinition } from '@switchyard/domain';
import { IconAlertCircle } from '@tabler/icons-react';
import { FormActions } from './FormActions';
import { FormElementField } from './FormElementField';
import { IncompleteRulesContext } from './incompleteRules';
import { LeaveGuard } from './LeaveGuard';
import { ResourceFormContext } from './ResourceFormContext';
import type { FormElement } from './types';
import { type ResourceFormOptions, useResourceForm } from './useResourceForm';

export interface ResourceFormProps extends ResourceFormOptions {
  definition: ResourceDefinition;
  elements: readonly FormElement[];
  /** The record being edited; absent on create. */
  record?: Record<string, unknown>;
}

/** A create or edit form built from form elements (§2.6). */
export function ResourceForm({ definition, elements, record, afterCreate }: ResourceFormProps) {
  const form = useResourceForm(definition, elements, record, { afterCreate });
  return (
    <ResourceFormContext.Provider value={form}>
      <IncompleteRulesContext.Provider value={form.incompleteRules}>
        <LeaveGuard hasChanges={form.hasChanges} />
        <form
          onSubmit={form.submit}
          noValidate
          onKeyDownCapture={form.touch}
          onPointerDownCapture={form.touch}
          onPasteCapture={form.touch}
          onDropCapture={form.touch}
        >
          <Stack gap="md">
            {form.formError && (
              <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />} role="alert">
                {form.formError}
              </Alert>
            )}
            {elements.map((element) => (
              <FormElementField key={element.name} element={element} />
            ))}
            <FormActions />
          </Stack>
        </form>
      </IncompleteRulesContext.Provider>
    </ResourceFormContext.Provider>
  );
}
