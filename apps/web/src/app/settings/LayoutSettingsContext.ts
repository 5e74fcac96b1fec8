import { createContext } from 'react';
import type { LayoutSettings } from './layoutSettings';

export interface LayoutSettingsContextValue {
  settings: LayoutSettings;
  update(change: Partial<LayoutSettings>): void;
  /** Whether the settings panel is open. */
  panelOpened: boolean;
  openPanel(): void;
  closePanel(): void;
}

export const LayoutSettingsContext = createContext<LayoutSettingsContextValue | null>(null);
