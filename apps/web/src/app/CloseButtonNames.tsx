import { MantineThemeProvider, Modal, Notification } from '@mantine/core';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Every dialog's and notice's close button (an icon alone) named "Close" in the user's language: without
 * a name a screen reader announces only "button" (WCAG 4.1.2, axe's `button-name`). Set once here, in the
 * theme, so dialogs and notices added later are named too.
 */
export function CloseButtonNames({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const label = t('notify.close');
  const theme = useMemo(() => {
    const closeButtonProps = { 'aria-label': label };
    return {
      components: {
        Modal: Modal.extend({ defaultProps: { closeButtonProps } }),
        Notification: Notification.extend({ defaultProps: { closeButtonProps } }),
      },
    };
  }, [label]);
  return <MantineThemeProvider theme={theme}>{children}</MantineThemeProvider>;
}
