import { Button, Group, Modal, Text } from '@mantine/core';
import { useContext, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { UNSAFE_DataRouterContext, useBlocker } from 'react-router';

export interface LeaveGuardProps {
  /** Asked when someone leaves: true while the form holds changes not saved. */
  hasChanges: () => boolean;
}

/** The in-app half: react-router's blocker, asked in a dialog (only a data router can block). */
function RouteLeaveGuard({ hasChanges }: LeaveGuardProps) {
  const { t } = useTranslation();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      hasChanges() &&
      (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );
  const blocked = blocker.state === 'blocked';
  return (
    <Modal
      opened={blocked}
      onClose={() => blocker.reset?.()}
      title={t('resources:form.leaveTitle')}
      centered
      withinPortal
    >
      <Text size="sm">{t('resources:form.leaveText')}</Text>
      <Group justify="flex-end" gap="sm" mt="md">
        <Button variant="default" onClick={() => blocker.reset?.()} data-autofocus>
          {t('resources:form.leaveStay')}
        </Button>
        <Button color="red" onClick={() => blocker.proceed?.()}>
          {t('resources:form.leaveDiscard')}
        </Button>
      </Group>
    </Modal>
  );
}

/**
 * Leaving a changed form asks first: inside the app a dialog (react-router's blocker), and the
 * browser's own question when the tab is closed or reloaded (`beforeunload`).
 */
export function LeaveGuard({ hasChanges }: LeaveGuardProps) {
  const dataRouter = useContext(UNSAFE_DataRouterContext);

  useEffect(() => {
    const ask = (event: BeforeUnloadEvent) => {
      if (!hasChanges()) return;
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [hasChanges]);

  return dataRouter ? <RouteLeaveGuard hasChanges={hasChanges} /> : null;
}
