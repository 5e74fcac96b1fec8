// Test helper: one form control inside the providers it needs (Mantine, notifications, i18n, queries).
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ComponentType, ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { vi } from 'vitest';
import i18n from '../../../i18n';
import type { FormControlProps, FormElement } from '../types';

export function ControlProviders({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const client = queryClient ?? new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return (
    <MantineProvider env="test">
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={client}>
          <Notifications />
          {children}
        </QueryClientProvider>
      </I18nextProvider>
    </MantineProvider>
  );
}

export function renderControl(
  Control: ComponentType<FormControlProps>,
  element: FormElement,
  props: Partial<FormControlProps> = {},
) {
  const onChange = vi.fn();
  const view = render(
    <ControlProviders>
      <Control
        element={element}
        value={element.value}
        onChange={onChange}
        label={element.label}
        required={false}
        disabled={false}
        {...props}
      />
    </ControlProviders>,
  );
  return { ...view, onChange };
}
