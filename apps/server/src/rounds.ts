// The instance's rounds on a timer, each on one node at a time (a lease): weights that tune themselves,
// the built-in monitors and the operators' rules. Each timer stops in an onClose hook added here, so the
// rounds stop where the caller stands in the close order (onClose hooks run last-added first).
import { getResource, OPTIMIZE_INTERVAL_MS } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import { Monitors } from './alerts/monitors.js';
import type { Notifier } from './alerts/notifier.js';
import { type ConfigChangeListener, ConfigRecordsService } from './api/config-records/service.js';
import type { Config } from './config.js';
import { everyUnderLease, LOCKS, RULES_INTERVAL_MS } from './jobs/lease.js';
import { WeightTuner } from './optimization/tuner.js';
import type { ReportRunner } from './reports/runner.js';
import { RuleEngine } from './rules/engine.js';
import type { Store } from './store/database.js';
import type { TrafficEngine } from './traffic/engine.js';

export interface RoundParts {
  store: Store;
  config: Config;
  reports: ReportRunner;
  notifier: Notifier;
  engine: TrafficEngine;
  onConfigChange: ConfigChangeListener;
  /** Wraps a round that runs in one process of this node only (under a primary on SQLite). */
  singleton: (round: () => Promise<unknown>) => () => Promise<unknown>;
}

export function startRounds(
  app: FastifyInstance,
  { store, config, reports, notifier, engine, onConfigChange, singleton }: RoundParts,
): { tuner: WeightTuner; rules: RuleEngine } {
  const every = (lock: number, round: () => Promise<unknown>, intervalMs: number, failed: string) =>
    app.addHook(
      'onClose',
      everyUnderLease(store.db, !store.sqlite, lock, round, intervalMs, (error) =>
        app.log.warn({ err: error }, failed),
      ),
    );

  // Weights that tune themselves: recomputed every few minutes on one node, read by routing at each compile.
  const tuner = new WeightTuner(store.db, reports, onConfigChange);
  every(
    LOCKS.tuner,
    singleton(() => tuner.runOnce()),
    OPTIMIZE_INTERVAL_MS,
    'live weights not recomputed; the previous ones stay in force',
  );

  // The built-in monitors: every minute (by default), the offer and lander URLs every 15th time.
  const monitors = new Monitors(store.db, engine, notifier, reports, {
    allowPrivateTargets: config.allowPrivateTargets,
  });
  let monitorRounds = 0;
  every(
    LOCKS.monitors,
    singleton(() => monitors.runOnce({ urls: monitorRounds++ % 15 === 0 })),
    config.monitorIntervalMs,
    'monitors not run',
  );

  // Rules: every minute, on one node, each rule whose schedule slot has come; its changes go through the
  // flows' and campaigns' own service, as a person's would.
  const ruleServices = {
    flows: new ConfigRecordsService(store.db, getResource('tracker-flows'), onConfigChange),
    campaigns: new ConfigRecordsService(store.db, getResource('tracker-campaigns'), onConfigChange),
  };
  const rules = new RuleEngine(store.db, reports, notifier, ruleServices, {
    allowPrivateTargets: config.allowPrivateTargets,
  });
  every(LOCKS.rules, () => rules.runOnce(), RULES_INTERVAL_MS, 'rules not run');
  return { tuner, rules };
}
