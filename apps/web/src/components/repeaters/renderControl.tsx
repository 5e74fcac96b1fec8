// Test helper: renders a form control inside the app's providers with its value held in state.
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { type ComponentType, type ReactNode, useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import i18n from '../../i18n';
import { theme } from '../../shared/theme';
import type { FormControlProps, FormElement } from '../form/types';

export interface RenderControlOptions {
  element?: Partial<FormElement>;
  disabled?: boolean;
  queryClient?: QueryClient;
  /** The element's own error and the messages inside its value, as the form hands them over. */
  error?: ReactNode;
  fieldErrors?: Record<string, string>;
}

/** Renders `Control` with `initial` as its value; `values()` lists every value it stored, `last()` the latest. */
export function renderControl(
  Control: ComponentType<FormControlProps>,
  initial: unknown,
  options: RenderControlOptions = {},
) {
  const stored: unknown[] = [];
  const element: FormElement = { name: 'field', type: 'test', ...options.element };
  const client = options.queryClient ?? new QueryClient({ defaultOptions: { queries: { retry: false } } });

  function Harness() {
    const [value, setValue] = useState(initial);
    return (
      <Control
        element={element}
        value={value}
        onChange={(next) => {
          stored.push(next);
          setValue(next);
        }}
        label="Field"
        error={options.error}
        fieldErrors={options.fieldErrors}
        required={false}
        disabled={options.disabled ?? false}
      />
    );
  }

  const view = render(
    <MantineProvider theme={theme} env="test">
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={client}>
          <Harness />
        </QueryClientProvider>
      </I18nextProvider>
    </MantineProvider>,
  );
  return { ...view, values: () => stored, last: () => stored.at(-1) };
}
