import { createContext, useContext } from 'react';
import type { PostbackLogParamsController } from './usePostbackLogParams';

export interface PostbackLogContextValue {
  params: PostbackLogParamsController;
  /** How often the shown tab refetches; false while auto-refresh is paused. */
  refreshMs: number | false;
  autoRefresh: boolean;
  setAutoRefresh: (on: boolean) => void;
}

export const PostbackLogContext = createContext<PostbackLogContextValue | null>(null);

export function usePostbackLogContext(): PostbackLogContextValue {
  const context = useContext(PostbackLogContext);
  if (!context) throw new Error('usePostbackLogContext needs a PostbackLogContext.Provider');
  return context;
}
