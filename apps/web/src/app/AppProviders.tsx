import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './notifications.css';
// After Mantine's styles: the layout's rules (§2.4's sidebar and top bar styles) must win over Mantine's
// own at equal specificity, or a dark sidebar gets Mantine's white background under its light text.
import './layout/layout.css';
import { DirectionProvider, MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { NOTIFICATION_TIMEOUT_MS } from '@switchyard/domain';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { CreateFormsContext } from '../components/form/createForms';
import i18n, { directionOf } from '../i18n';
import { createFormOf } from '../resources';
import { readableColorsResolver } from '../shared/readableColors';
import { theme } from '../shared/theme';
import { AuthProvider } from './auth/AuthProvider';
import { CloseButtonNames } from './CloseButtonNames';
import { createQueryClient } from './queryClient';
import { LayoutSettingsProvider } from './settings/LayoutSettingsProvider';

export function AppProviders({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <DirectionProvider initialDirection={directionOf(i18n.language)}>
      <MantineProvider theme={theme} cssVariablesResolver={readableColorsResolver}>
        <I18nextProvider i18n={i18n}>
          <CloseButtonNames>
            <QueryClientProvider client={client}>
              <ModalsProvider>
                <Notifications
                  position="top-right"
                  autoClose={NOTIFICATION_TIMEOUT_MS}
                  containerWidth={380}
                  limit={10}
                  classNames={{ root: 'sy-notifications', notification: 'sy-notice' }}
                />
                <AuthProvider>
                  <LayoutSettingsProvider>
                    <CreateFormsContext.Provider value={createFormOf}>{children}</CreateFormsContext.Provider>
                  </LayoutSettingsProvider>
                </AuthProvider>
              </ModalsProvider>
            </QueryClientProvider>
          </CloseButtonNames>
        </I18nextProvider>
      </MantineProvider>
    </DirectionProvider>
  );
}
