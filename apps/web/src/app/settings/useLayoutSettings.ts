import { use } from 'react';
import { LayoutSettingsContext, type LayoutSettingsContextValue } from './LayoutSettingsContext';

export function useLayoutSettings(): LayoutSettingsContextValue {
  const value = use(LayoutSettingsContext);
  if (!value) throw new Error('useLayoutSettings must be used inside <LayoutSettingsProvider>');
  return value;
}
