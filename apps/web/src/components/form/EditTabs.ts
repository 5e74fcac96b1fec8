import { createContext, useContext } from 'react';

/** Lets a tab of an edit screen bring another forward (the flow's Simulate tab shows its marks on the form). */
export const EditTabsContext = createContext<{ show: (tab: string) => void } | null>(null);

export function useEditTabs() {
  return useContext(EditTabsContext);
}
