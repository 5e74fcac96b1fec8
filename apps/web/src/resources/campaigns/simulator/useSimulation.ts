import type { SimulationAnswer } from '@switchyard/domain';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../api/client';

export type CampaignKind = 'tracker' | 'api';

/**
 * `POST /api/tracker/campaigns/:id/simulate` (a visitor) or `/api/campaigns/:id/simulate`
 * (a lead). Nothing is recorded and no cap is taken, so it is a mutation only because it posts.
 */
export function useSimulation(kind: CampaignKind, campaignId: string, onAnswer?: (answer: SimulationAnswer) => void) {
  const base = kind === 'tracker' ? 'tracker/campaigns' : 'campaigns';
  return useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      api<SimulationAnswer>(`${base}/${encodeURIComponent(campaignId)}/simulate`, { method: 'POST', body }),
    onSuccess: onAnswer,
  });
}
