import { createContext, useContext } from 'react';
import type { ReportController } from './useReportController';

export const ReportContext = createContext<ReportController | null>(null);

/** The reports screen's state and actions, for the parts of the screen. */
export function useReportContext(): ReportController {
  const controller = useContext(ReportContext);
  if (!controller) throw new Error('useReportContext needs a ReportContext provider (ReportsPage)');
  return controller;
}
