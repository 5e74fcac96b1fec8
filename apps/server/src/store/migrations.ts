import type { Migration, MigrationProvider } from 'kysely';
import type { DatabaseDialect } from '../config.js';
import { foundationMigration } from './migrations/0001-foundation.js';
import { configRecordsMigration } from './migrations/0002-config-records.js';
import { accountsMigration } from './migrations/0003-accounts.js';
import { trackerEventsMigration } from './migrations/0004-tracker-events.js';
import { conversionsMigration } from './migrations/0005-conversions.js';
import { reportRollupsMigration } from './migrations/0006-report-rollups.js';
import { postbackLogIndexesMigration } from './migrations/0007-postback-log-indexes.js';
import { conversionStatesMigration } from './migrations/0008-conversion-states.js';
import { workspaceScopeMigration } from './migrations/0009-workspace-scope.js';
import { moneyPermissionMigration } from './migrations/0010-money-permission.js';
import { customMetricsMigration } from './migrations/0011-custom-metrics.js';
import { costModelsMigration } from './migrations/0012-cost-models.js';
import { reportViewsMigration } from './migrations/0013-report-views.js';
import { payoutSourcesMigration } from './migrations/0014-payout-sources.js';
import { apiTokensMigration } from './migrations/0015-api-tokens.js';
import { historyMigration } from './migrations/0016-history.js';
import { visitorColumnsMigration } from './migrations/0017-visitor-columns.js';
import { clickCostChangesMigration } from './migrations/0018-click-cost-changes.js';
import { clickCostChangesByClickMigration } from './migrations/0019-click-cost-changes-by-click.js';
import { conversionChangesMigration } from './migrations/0020-conversion-changes.js';
import { clickOriginalCostMigration } from './migrations/0021-click-original-cost.js';
import { clickCostChangesUnindexedMigration } from './migrations/0022-click-cost-changes-unindexed.js';
import { eventWorkspacesMigration } from './migrations/0023-event-workspaces.js';
import { domainsMigration } from './migrations/0027-domains.js';
import { campaignClickTokensMigration } from './migrations/0030-campaign-click-tokens.js';
import { liveWeightsMigration } from './migrations/0034-live-weights.js';
import { alertsMigration } from './migrations/0035-alerts.js';
import { monitorsMigration } from './migrations/0036-monitors.js';
import { rulesMigration } from './migrations/0037-rules.js';
import { historyAuthorMigration } from './migrations/0038-history-author.js';
import { rollupBotsMigration } from './migrations/0039-rollup-bots.js';
import { lpClicksMigration } from './migrations/0040-lp-clicks.js';
import { landerFilesMigration } from './migrations/0041-lander-files.js';
import { importsMigration } from './migrations/0042-imports.js';
import { oldLinksMigration } from './migrations/0043-old-links.js';
import { columnarCodesMigration } from './migrations/0044-columnar-codes.js';

// One list of migrations for both dialects; the few differences go through `dialect`. Each is a frozen
// file of its own under migrations/ that imports nothing but Kysely: a later change to live code never
// changes what an old migration does. Append new migrations at the end with the next number; never edit
// one that has shipped.

export function migrations(dialect: DatabaseDialect): Record<string, Migration> {
  return {
    '0001_foundation': foundationMigration(dialect),
    '0002_config_records': configRecordsMigration(dialect),
    '0003_accounts': accountsMigration(dialect),
    '0004_tracker_events': trackerEventsMigration(dialect),
    '0005_conversions': conversionsMigration(dialect),
    '0006_report_rollups': reportRollupsMigration(dialect),
    '0007_postback_log_indexes': postbackLogIndexesMigration(),
    '0008_conversion_states': conversionStatesMigration(dialect),
    '0009_workspace_scope': workspaceScopeMigration(),
    '0010_money_permission': moneyPermissionMigration(),
    '0011_custom_metrics': customMetricsMigration(dialect),
    '0012_cost_models': costModelsMigration(dialect),
    '0013_report_views': reportViewsMigration(dialect),
    '0014_payout_sources': payoutSourcesMigration(),
    '0015_api_tokens': apiTokensMigration(dialect),
    '0016_history': historyMigration(dialect),
    '0017_visitor_columns': visitorColumnsMigration(),
    '0018_click_cost_changes': clickCostChangesMigration(dialect),
    '0019_click_cost_changes_by_click': clickCostChangesByClickMigration(),
    '0020_conversion_changes': conversionChangesMigration(dialect),
    '0021_click_original_cost': clickOriginalCostMigration(dialect),
    '0022_click_cost_changes_unindexed': clickCostChangesUnindexedMigration(dialect),
    '0023_event_workspaces': eventWorkspacesMigration(dialect),
    '0027_domains': domainsMigration(dialect),
    '0030_campaign_click_tokens': campaignClickTokensMigration(dialect),
    '0034_live_weights': liveWeightsMigration(),
    '0035_alerts': alertsMigration(dialect),
    '0036_monitors': monitorsMigration(dialect),
    '0037_rules': rulesMigration(dialect),
    '0038_history_author': historyAuthorMigration(),
    '0039_rollup_bots': rollupBotsMigration(dialect),
    '0040_lp_clicks': lpClicksMigration(dialect),
    '0041_lander_files': landerFilesMigration(dialect),
    '0042_imports': importsMigration(dialect),
    '0043_old_links': oldLinksMigration(dialect),
    '0044_columnar_codes': columnarCodesMigration(dialect),
  };
}

export class InCodeMigrationProvider implements MigrationProvider {
  constructor(private readonly dialect: DatabaseDialect) {}

  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve(migrations(this.dialect));
  }
}
