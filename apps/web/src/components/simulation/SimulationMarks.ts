import type { SimulationAnswer } from '@switchyard/domain';
import { createContext, useContext } from 'react';

/**
 * The last simulation of a flow editor, so its path groups and condition builders mark what
 * said yes or no where they are edited, until cleared.
 */
export interface SimulationMarks {
  answer: SimulationAnswer;
  clear: () => void;
}

export const SimulationMarksContext = createContext<SimulationMarks | null>(null);

export function useSimulationMarks(): SimulationMarks | null {
  return useContext(SimulationMarksContext);
}

/** Whether routing tested the group's condition for this visitor (a group after the match was not). */
export function wasTested(group: SimulationAnswer['groups'][number]): boolean {
  return group.skipped_reason === undefined || group.skipped_reason === 'no_route';
}
