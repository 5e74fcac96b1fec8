// The built-in monitors. Each round finds what is wrong now, per workspace: a capped offer whose traffic
// goes to its backup, an offer or lander URL that fails, an active campaign without clicks for an hour
// (one that had clicks the day before, read from the report layer), outbound postbacks failing above 10 %, and the event writer
// falling behind. A problem found anew opens an incident and notifies once; one no longer found closes
// it, so the next time it happens it notifies again. Runs on one node at a time (tuner's lease pattern).
import {
  MONITORS,
  type Monitor,
  ZOfferForm,
  ZReportQuery,
  ZTrackerLanderForm,
  ZTrackerOfferForm,
} from '@switchyard/domain';
import { type Kysely, sql } from 'kysely';
import { sendOutbound } from '../http/outbound-request.js';
import type { TargetOptions } from '../http/outbound-targets.js';
import type { ReportRunner } from '../reports/runner.js';
import type { Database } from '../store/schema.js';
import { scopeCondition } from '../store/scope.js';
import type { TrafficEngine } from '../traffic/engine.js';
import type { Notifier } from './notifier.js';

const HOUR_MS = 3_600_000;
/** Outbound postbacks failing above this share of the last hour's (with at least MIN_POSTBACKS) alert. */
const FAILURE_RATE = 0.1;
const MIN_POSTBACKS = 10;
/** Events answered but not yet stored above this many: the writer is behind. */
const WRITER_BEHIND_EVENTS = 50_000;
const URL_TIMEOUT_MS = 10_000;

export interface Finding {
  workspaceId: number;
  monitor: Monitor;
  subject: string;
  title: string;
  body: string;
  link: string | null;
  values: Record<string, unknown>;
}

export interface MonitorOptions extends TargetOptions {
  now?: () => Date;
}

type OfferRow = { kind: string; external_id: string; name: string; body: string; workspace_id: number | null };

export class Monitors {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: Pick<TrafficEngine, 'capTaken' | 'eventsWaiting'>,
    private readonly notifier: Pick<Notifier, 'notify'>,
    private readonly reports: Pick<ReportRunner, 'run'>,
    private readonly options: MonitorOptions,
  ) {}

  /** One round: `urls` also fetches every offer and lander URL (slower, so less often). */
  async runOnce({ urls = false }: { urls?: boolean } = {}): Promise<Finding[]> {
    const findings = [
      ...(await this.capsReached()),
      ...(await this.campaignsWithoutClicks()),
      ...(await this.postbacksFailing()),
      ...(await this.writerBehind()),
    ];
    if (urls) findings.push(...(await this.urlsDown()));
    const checked = new Set<Monitor>(urls ? MONITORS : MONITORS.filter((monitor) => monitor !== 'url_down'));
    return this.settle(findings, checked);
  }

  /** Opens and notifies what is new, closes what is well again; answers the findings notified. */
  private async settle(findings: Finding[], checked: ReadonlySet<Monitor>): Promise<Finding[]> {
    const off = await this.disabled();
    const now = (this.options.now?.() ?? new Date()).toISOString();
    const open = await this.db
      .selectFrom('monitor_incidents')
      .select(['id', 'workspace_id', 'monitor', 'subject'])
      .where('closed_at', 'is', null)
      .where(scopeCondition({ instance: true }, 'workspace_id'))
      .execute();
    const key = (workspace: number, monitor: string, subject: string) => `${workspace}\u0000${monitor}\u0000${subject}`;
    const openKeys = new Map(
      open.map((row) => [key(Number(row.workspace_id), row.monitor, row.subject), Number(row.id)]),
    );
    const found = new Set<string>();
    const notified: Finding[] = [];
    for (const finding of findings) {
      if (off.has(`${finding.workspaceId}\u0000${finding.monitor}`)) continue;
      const at = key(finding.workspaceId, finding.monitor, finding.subject);
      found.add(at);
      if (openKeys.has(at)) continue;
      await this.db
        .insertInto('monitor_incidents')
        .values({
          workspace_id: finding.workspaceId,
          monitor: finding.monitor,
          subject: finding.subject,
          opened_at: now,
          closed_at: null,
        })
        .execute();
      await this.notifier.notify(finding.workspaceId, {
        kind: finding.monitor,
        title: finding.title,
        body: finding.body,
        link: finding.link,
        values: finding.values,
      });
      notified.push(finding);
    }
    for (const row of open) {
      if (!checked.has(row.monitor as Monitor)) continue;
      if (found.has(key(Number(row.workspace_id), row.monitor, row.subject))) continue;
      await this.db
        .updateTable('monitor_incidents')
        .set({ closed_at: now })
        .where('id', '=', row.id)
        .where(scopeCondition({ instance: true }, 'workspace_id'))
        .execute();
    }
    return notified;
  }

  private async disabled(): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('workspace_monitors')
      .select(['workspace_id', 'monitor'])
      .where('enabled', '=', 0)
      .where(scopeCondition({ instance: true }, 'workspace_id'))
      .execute();
    return new Set(rows.map((row) => `${row.workspace_id}\u0000${row.monitor}`));
  }

  private offers(kinds: readonly string[]): Promise<OfferRow[]> {
    return this.db
      .selectFrom('config_records')
      .select(['kind', 'external_id', 'name', 'body', 'workspace_id'])
      .where('kind', 'in', [...kinds])
      .where('status', '=', 'active')
      .where(scopeCondition({ instance: true }, 'workspace_id'))
      .execute();
  }

  private async capsReached(): Promise<Finding[]> {
    const findings: Finding[] = [];
    for (const row of await this.offers(['tracker-offers', 'offers'])) {
      if (row.workspace_id === null) continue;
      const form = (row.kind === 'offers' ? ZOfferForm : ZTrackerOfferForm).safeParse({
        ...parseJson(row.body),
        name: row.name,
      });
      if (!form.success || form.data.daily_cap <= 0) continue;
      const taken = await this.engine.capTaken(
        row.kind === 'offers' ? 'api' : 'tracker',
        row.external_id,
        form.data.cap_timezone,
      );
      if (taken < form.data.daily_cap) continue;
      const backup = form.data.backup_offer_external_id;
      findings.push({
        workspaceId: row.workspace_id,
        monitor: 'cap_reached',
        subject: `${row.external_id}:${new Date().toISOString().slice(0, 10)}`,
        title: `Cap reached: ${row.name}`,
        body: backup
          ? `Offer "${row.name}" reached its daily cap of ${form.data.daily_cap}; its traffic now goes to its backup offer.`
          : `Offer "${row.name}" reached its daily cap of ${form.data.daily_cap}; its traffic now goes to the next offer of its path.`,
        link: `/${row.kind === 'offers' ? 'admin/offers' : 'tracker/offers'}/edit/${row.external_id}`,
        values: { offer: row.external_id, offer_name: row.name, daily_cap: form.data.daily_cap, taken },
      });
    }
    return findings;
  }

  /**
   * From the report layer (rollups, in the report engine's process: never a scan of the clicks on the
   * event loop that answers them), each campaign's clicks by hour over the last day.
   */
  private async campaignsWithoutClicks(): Promise<Finding[]> {
    const now = this.options.now?.() ?? new Date();
    const quietSince = Math.floor((now.getTime() - HOUR_MS) / HOUR_MS) * HOUR_MS;
    const dayBefore = now.getTime() - 25 * HOUR_MS;
    const active = new Map(
      (await this.offers(['tracker-campaigns'])).map((campaign) => [campaign.external_id, campaign.name]),
    );
    if (active.size === 0) return [];
    const query = ZReportQuery.parse({
      group_by: ['campaign', 'day', 'hour'],
      date_from: new Date(dayBefore).toISOString().slice(0, 10),
      date_to: now.toISOString().slice(0, 10),
      limit: 0,
      // Traffic that stopped is what this tells: bots' clicks are traffic too.
      include_bots: true,
    });
    const findings: Finding[] = [];
    for (const workspace of await this.db.selectFrom('workspaces').select('id').execute()) {
      const report = await this.reports.run(query, { workspaceId: Number(workspace.id) });
      const last = new Map<string, number>();
      for (const row of report.list) {
        const hour = Date.parse(`${row.day}T${row.hour}:00:00Z`);
        const campaign = String(row.campaign);
        if (Number(row.clicks) > 0 && hour >= dayBefore - HOUR_MS)
          last.set(campaign, Math.max(last.get(campaign) ?? 0, hour));
      }
      for (const [campaign, hour] of last) {
        const name = active.get(campaign);
        if (name === undefined || hour >= quietSince) continue;
        const since = new Date(hour + HOUR_MS).toISOString();
        findings.push({
          workspaceId: Number(workspace.id),
          monitor: 'no_clicks',
          subject: campaign,
          title: `No clicks for an hour: ${name}`,
          body: `Campaign "${name}" had clicks in the day before, but none since ${since}.`,
          link: `/tracker/campaigns/edit/${campaign}`,
          values: { campaign, campaign_name: name, no_clicks_since: since },
        });
      }
    }
    return findings;
  }

  private async postbacksFailing(): Promise<Finding[]> {
    const now = this.options.now?.() ?? new Date();
    const since = new Date(now.getTime() - HOUR_MS).toISOString();
    const rows = await this.db
      .selectFrom('outbound_postbacks as o')
      .innerJoin('conversions as c', 'c.conversion_id', 'o.conversion_id')
      .select([
        'c.workspace_id',
        sql<number>`count(*)`.as('total'),
        sql<number>`sum(case when o.state = 'failed' or (o.state = 'pending' and o.attempts > 0) then 1 else 0 end)`.as(
          'failing',
        ),
      ])
      .where('o.created_at', '>=', since)
      .where(scopeCondition({ instance: true }, 'c.workspace_id'))
      .groupBy('c.workspace_id')
      .execute();
    return rows.flatMap((row): Finding[] => {
      const total = Number(row.total);
      const failing = Number(row.failing);
      if (row.workspace_id === null || total < MIN_POSTBACKS || failing / total <= FAILURE_RATE) return [];
      const percent = Math.round((failing / total) * 100);
      return [
        {
          workspaceId: Number(row.workspace_id),
          monitor: 'postback_failures',
          subject: '',
          title: `Postbacks to traffic sources failing: ${percent} %`,
          body: `${failing} of the ${total} postbacks owed to traffic sources in the last hour failed or are being retried.`,
          link: '/admin/postback-log',
          values: { failing, total, rate: failing / total },
        },
      ];
    });
  }

  private async writerBehind(): Promise<Finding[]> {
    const waiting = this.engine.eventsWaiting;
    if (waiting <= WRITER_BEHIND_EVENTS) return [];
    const workspaces = await this.db.selectFrom('workspaces').select('id').execute();
    return workspaces.map((workspace) => ({
      workspaceId: Number(workspace.id),
      monitor: 'writer_behind' as const,
      subject: '',
      title: 'Events are waiting to be stored',
      body: `${waiting} answered events wait in the journal for the database: it is slower than the traffic. Nothing is lost; reports lag behind.`,
      link: null,
      values: { waiting },
    }));
  }

  private async urlsDown(): Promise<Finding[]> {
    const findings: Finding[] = [];
    // A lander with hosted files is served here; its old URL is no longer where visitors go.
    const hosted = new Set(
      (
        await this.db
          .selectFrom('lander_files')
          .select('lander_external_id')
          .distinct()
          .where(scopeCondition({ instance: true }, 'workspace_id'))
          .execute()
      ).map((row) => row.lander_external_id),
    );
    for (const row of await this.offers(['tracker-offers', 'offers', 'tracker-landers'])) {
      if (row.workspace_id === null) continue;
      if (row.kind === 'tracker-landers' && hosted.has(row.external_id)) continue;
      const form = (row.kind === 'tracker-landers' ? ZTrackerLanderForm : ZTrackerOfferForm).safeParse({
        ...parseJson(row.body),
        name: row.name,
      });
      if (!form.success) continue;
      // Macros are the visitor's values: checked without them.
      const url = form.data.url.replace(/\{[^}]*\}/g, '');
      const result = await sendOutbound(url, {
        timeoutMs: URL_TIMEOUT_MS,
        allowPrivateTargets: this.options.allowPrivateTargets,
        ...(this.options.resolve ? { resolve: this.options.resolve } : {}),
      });
      const problem =
        result.kind === 'answered'
          ? result.answer.status >= 400
            ? `HTTP ${result.answer.status}`
            : null
          : result.kind === 'refused'
            ? result.reason
            : result.error;
      if (!problem) continue;
      const what = row.kind === 'tracker-landers' ? 'Lander' : 'Offer';
      findings.push({
        workspaceId: row.workspace_id,
        monitor: 'url_down',
        subject: `${row.kind}:${row.external_id}`,
        title: `${what} URL fails: ${row.name}`,
        body: `${what} "${row.name}" (${url}) answered: ${problem}.`,
        link: `/${row.kind === 'offers' ? 'admin/offers' : row.kind === 'tracker-landers' ? 'tracker/landers' : 'tracker/offers'}/edit/${row.external_id}`,
        values: { record: row.external_id, name: row.name, url, problem },
      });
    }
    return findings;
  }
}

function parseJson(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
