import type { ColumnDefinitionBuilder, CreateTableBuilder, Kysely, Migration, MigrationProvider } from 'kysely';
import type { DatabaseDialect } from '../config.js';
import { alertsMigration, monitorsMigration } from './alerts.js';
import { apiTokensMigration } from './api-tokens.js';
import {
  clickCostChangesByClickMigration,
  clickCostChangesMigration,
  clickCostChangesUnindexedMigration,
  clickOriginalCostMigration,
} from './click-cost-changes.js';
import { campaignClickTokensMigration } from './click-tokens.js';
import { conversionChangesMigration } from './conversion-changes.js';
import { conversionStatesMigration } from './conversion-states.js';
import { conversionsMigration } from './conversions.js';
import { costModelsMigration } from './cost-models.js';
import { customMetricsMigration } from './custom-metrics.js';
import { domainsMigration } from './domains.js';
import { eventWorkspacesMigration } from './event-workspaces.js';
import { historyMigration } from './history.js';
import { importsMigration } from './imports.js';
import { landerFilesMigration } from './lander-files.js';
import { liveWeightsMigration } from './live-weights.js';
import { moneyPermissionMigration } from './money-permission.js';
import { oldLinksMigration } from './old-links.js';
import { payoutSourcesMigration } from './payout-sources.js';
import { postbackLogIndexesMigration } from './postback-log-indexes.js';
import { lpClicksMigration, reportRollupsMigration, rollupBotsMigration } from './report-rollups.js';
import { reportViewsMigration } from './report-views.js';
import { historyAuthorMigration, rulesMigration } from './rules.js';
import { trackerEventsMigration } from './tracker-events.js';
import { visitorColumnsMigration } from './visitor-columns.js';
import { workspaceScopeMigration } from './workspace-scope.js';

// One list of migrations for both dialects; the few differences go through `dialect`.
// Append new migrations at the end with the next number; never edit one that has shipped.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as typed today.
type AnyDb = Kysely<any>;
type AnyTable = CreateTableBuilder<string, string>;

function withId(table: AnyTable, dialect: DatabaseDialect): AnyTable {
  return table.addColumn('id', 'integer', (column: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? column.generatedByDefaultAsIdentity().primaryKey() : column.primaryKey().autoIncrement(),
  );
}

function withRecordColumns(table: AnyTable): AnyTable {
  return table
    .addColumn('status', 'text', (column) => column.notNull().defaultTo('active'))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull());
}

function foundation(dialect: DatabaseDialect): Migration {
  return {
    async up(db: AnyDb) {
      await withRecordColumns(
        withId(db.schema.createTable('workspaces'), dialect).addColumn('name', 'text', (column) => column.notNull()),
      ).execute();

      await withRecordColumns(
        withId(db.schema.createTable('roles'), dialect)
          .addColumn('name', 'text', (column) => column.notNull())
          .addColumn('permissions', 'text', (column) => column.notNull().defaultTo('[]')),
      ).execute();

      await withRecordColumns(
        withId(db.schema.createTable('users'), dialect)
          .addColumn('name', 'text', (column) => column.notNull())
          .addColumn('email', 'text', (column) => column.notNull().unique())
          .addColumn('password_hash', 'text', (column) => column.notNull())
          .addColumn('active', 'integer', (column) => column.notNull().defaultTo(1))
          .addColumn('email_verified', 'integer', (column) => column.notNull().defaultTo(0))
          .addColumn('permissions', 'text', (column) => column.notNull().defaultTo('[]'))
          .addColumn('invited_by', 'integer', (column) => column.references('users.id').onDelete('set null')),
      ).execute();

      await db.schema
        .createTable('user_roles')
        .addColumn('user_id', 'integer', (column) => column.notNull().references('users.id').onDelete('cascade'))
        .addColumn('role_id', 'integer', (column) => column.notNull().references('roles.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('user_roles_pk', ['user_id', 'role_id'])
        .execute();

      await db.schema
        .createTable('user_workspaces')
        .addColumn('user_id', 'integer', (column) => column.notNull().references('users.id').onDelete('cascade'))
        .addColumn('workspace_id', 'integer', (column) =>
          column.notNull().references('workspaces.id').onDelete('cascade'),
        )
        .addPrimaryKeyConstraint('user_workspaces_pk', ['user_id', 'workspace_id'])
        .execute();

      await withId(db.schema.createTable('sessions'), dialect)
        .addColumn('token_hash', 'text', (column) => column.notNull().unique())
        .addColumn('user_id', 'integer', (column) => column.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('last_used_at', 'text', (column) => column.notNull())
        .addColumn('expires_at', 'text', (column) => column.notNull())
        .addColumn('ip', 'text')
        .addColumn('user_agent', 'text')
        .execute();
      await db.schema.createIndex('sessions_user_id_idx').on('sessions').column('user_id').execute();
      await db.schema.createIndex('user_roles_role_id_idx').on('user_roles').column('role_id').execute();
      await db.schema
        .createIndex('user_workspaces_workspace_id_idx')
        .on('user_workspaces')
        .column('workspace_id')
        .execute();
    },
  };
}

/**
 * Config entities (offers, flows, campaigns, …): one table, a row per record with the columns lists
 * filter and sort on, and the rest of the record as JSON text in `body`.
 */
function configRecords(dialect: DatabaseDialect): Migration {
  return {
    async up(db: AnyDb) {
      await withRecordColumns(
        withId(db.schema.createTable('config_records'), dialect)
          .addColumn('kind', 'text', (column) => column.notNull())
          .addColumn('external_id', 'text', (column) => column.notNull())
          .addColumn('workspace_id', 'integer', (column) => column.references('workspaces.id').onDelete('set null'))
          .addColumn('name', 'text', (column) => column.notNull())
          .addColumn('body', 'text', (column) => column.notNull().defaultTo('{}'))
          .addUniqueConstraint('config_records_kind_external_id_key', ['kind', 'external_id']),
      ).execute();
      await db.schema
        .createIndex('config_records_kind_status_idx')
        .on('config_records')
        .columns(['kind', 'status'])
        .execute();
      await db.schema
        .createIndex('config_records_workspace_id_idx')
        .on('config_records')
        .column('workspace_id')
        .execute();
    },
  };
}

/**
 * Accounts: invitations, single-use links (email verification, password reset), server
 * settings, and per-user language and pending email confirmation.
 */
function accounts(dialect: DatabaseDialect): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable('users').addColumn('language', 'text').execute();
      await db.schema
        .alterTable('users')
        .addColumn('needs_verification', 'integer', (column) => column.notNull().defaultTo(0))
        .execute();

      await withId(db.schema.createTable('invitations'), dialect)
        .addColumn('token_hash', 'text', (column) => column.notNull().unique())
        .addColumn('email', 'text', (column) => column.notNull())
        .addColumn('name', 'text', (column) => column.notNull().defaultTo(''))
        .addColumn('roles', 'text', (column) => column.notNull().defaultTo('[]'))
        .addColumn('permissions', 'text', (column) => column.notNull().defaultTo('[]'))
        .addColumn('workspaces', 'text', (column) => column.notNull().defaultTo('[]'))
        .addColumn('language', 'text', (column) => column.notNull())
        .addColumn('invited_by', 'integer', (column) => column.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('expires_at', 'text', (column) => column.notNull())
        .addColumn('accepted_at', 'text')
        .addColumn('accepted_user_id', 'integer', (column) => column.references('users.id').onDelete('set null'))
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema.createIndex('invitations_email_idx').on('invitations').column('email').execute();

      await withId(db.schema.createTable('account_tokens'), dialect)
        .addColumn('token_hash', 'text', (column) => column.notNull().unique())
        .addColumn('purpose', 'text', (column) => column.notNull())
        .addColumn('user_id', 'integer', (column) => column.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('expires_at', 'text', (column) => column.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema
        .createIndex('account_tokens_user_id_purpose_idx')
        .on('account_tokens')
        .columns(['user_id', 'purpose'])
        .execute();

      await db.schema
        .createTable('settings')
        .addColumn('key', 'text', (column) => column.primaryKey())
        .addColumn('value', 'text', (column) => column.notNull())
        .addColumn('updated_at', 'text', (column) => column.notNull())
        .execute();
    },
  };
}

export function migrations(dialect: DatabaseDialect): Record<string, Migration> {
  return {
    '0001_foundation': foundation(dialect),
    '0002_config_records': configRecords(dialect),
    '0003_accounts': accounts(dialect),
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
  };
}

export class InCodeMigrationProvider implements MigrationProvider {
  constructor(private readonly dialect: DatabaseDialect) {}

  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve(migrations(this.dialect));
  }
}
