import { type ReactNode, useCallback, useLayoutEffect, useMemo, useState } from 'react';
import { LayoutSettingsContext, type LayoutSettingsContextValue } from './LayoutSettingsContext';
import { applyLayoutSettings, type LayoutSettings, readLayoutSettings, storeLayoutSettings } from './layoutSettings';

export function LayoutSettingsProvider({ children }: { children: ReactNode }) {
  const [settings, setSettings] = useState(readLayoutSettings);
  const [panelOpened, setPanelOpened] = useState(false);

  useLayoutEffect(() => applyLayoutSettings(settings), [settings]);

  const update = useCallback((change: Partial<LayoutSettings>) => {
    setSettings((current) => {
      const next = { ...current, ...change };
      storeLayoutSettings(next);
      return next;
    });
  }, []);
  const openPanel = useCallback(() => setPanelOpened(true), []);
  const closePanel = useCallback(() => setPanelOpened(false), []);

  const value = useMemo<LayoutSettingsContextValue>(
    () => ({ settings, update, panelOpened, openPanel, closePanel }),
    [settings, update, panelOpened, openPanel, closePanel],
  );
  return <LayoutSettingsContext value={value}>{children}</LayoutSettingsContext>;
}
