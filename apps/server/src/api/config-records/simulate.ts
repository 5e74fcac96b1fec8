// "Where would this visitor go, and why": a visitor (or, for an API campaign, a lead) routed
// through the campaign as it is live, answered with every group's traced condition, the decision, its
// chances and caps. For whoever may see the campaign, in the workspace it belongs to.
import { type SimulationAnswer, ZSimulatedLead, ZSimulatedVisitor } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { workspaceOf } from '../../auth/workspace.js';
import { NotFoundError } from '../../errors.js';
import { authorize } from '../../http/guard.js';
import { parseInput } from '../../http/parse.js';
import type { TrafficEngine } from '../../traffic/engine.js';

type CampaignParams = { Params: { id: string } };

export function simulateRoutes(app: FastifyInstance, engine: TrafficEngine): void {
  app.post<CampaignParams>('/tracker/campaigns/:id/simulate', async (request): Promise<SimulationAnswer> => {
    const actor = authorize(request, 'tracker', 'campaign', 'get');
    const visitor = parseInput(ZSimulatedVisitor, request.body);
    const answer = await engine.simulate('tracker', request.params.id, workspaceOf(actor), visitor);
    // Another workspace's campaign is not found, as an unknown or archived one.
    if (!answer) throw new NotFoundError();
    return answer;
  });

  app.post<CampaignParams>('/campaigns/:id/simulate', async (request): Promise<SimulationAnswer> => {
    const actor = authorize(request, 'api', 'campaign', 'get');
    const lead = parseInput(ZSimulatedLead, request.body);
    const answer = await engine.simulate('api', request.params.id, workspaceOf(actor), lead);
    if (!answer) throw new NotFoundError();
    return answer;
  });
}
