// What /api/openapi.json says of each route — its query, its body and its answer, all from the
// domain's zod schemas. Resource routes are described from the registry (a record's answer is its form's
// fields as kept, with its id and status); every other route is named in ROUTE_SCHEMAS.
import {
  LIST_STATS_FIGURES,
  LIST_STATS_GROUPS,
  RESOURCES,
  type ResourceDefinition,
  ZAcceptInviteForm,
  ZAccountSettings,
  ZAccountSettingsAnswer,
  ZApiToken,
  ZApiTokenForm,
  ZBackupList,
  ZBackupMade,
  ZBotProtectionForm,
  ZBotProtectionSettings,
  ZBulkAnswer,
  ZBulkRequest,
  ZCertificateUpload,
  ZChannel,
  ZChannelForm,
  ZChannelList,
  ZChannelTestAnswer,
  ZClickEventList,
  ZClickReplay,
  ZClickTokenAnswer,
  ZConversionEventList,
  ZConversionImportAnswer,
  ZCostImportResponse,
  ZCostUpdate,
  ZCostUpdateAnswer,
  ZCreatedApiToken,
  ZCurrencyList,
  ZCurrencyRatesAnswer,
  ZCustomMetric,
  ZCustomMetricForm,
  ZCustomMetricList,
  ZDeliveryList,
  ZDomainAnswer,
  ZEmailWeightList,
  ZEventQuery,
  ZForgotPasswordForm,
  ZHistoryEntryDetailAnswer,
  ZHistoryList,
  ZHistoryQuery,
  ZImportAnswer,
  ZImportQuery,
  ZImportRequest,
  ZInvitation,
  ZInvitationForm,
  ZInvitationPreview,
  ZInvitationResult,
  ZLanderFile,
  ZLanderFileContent,
  ZLanderFileEdit,
  ZLanderFileList,
  ZLanderFileQuery,
  ZLeadEventList,
  ZLeadReplay,
  ZListQuery,
  ZListStatsQuery,
  ZLoginForm,
  ZLoginResponse,
  ZMeAnswer,
  ZMessageAnswer,
  ZMonitorSettings,
  ZNotificationList,
  ZOkAnswer,
  ZOpenApiDocumentAnswer,
  ZOptimizationAnswer,
  ZOutboundPostbackList,
  ZOutboundPostbackQuery,
  ZPasswordChangeForm,
  ZPostbackLogList,
  ZPostbackLogQuery,
  ZProfile,
  ZProfileForm,
  ZRecordUsage,
  ZRegisterForm,
  ZRegisterResult,
  ZRegistrationStatus,
  ZReportAnswer,
  ZReportNotices,
  ZReportQuery,
  ZReportView,
  ZReportViewForm,
  ZReportViewList,
  ZResetPasswordForm,
  ZRestoredRecord,
  ZRoleAnswer,
  ZRuleAnswer,
  ZRuleForm,
  ZRuleList,
  ZRulePreview,
  ZRuleRunList,
  ZSimulatedLead,
  ZSimulatedVisitor,
  ZSimulationAnswer,
  ZTestPostbackAnswer,
  ZTimestamp,
  ZTimeZoneList,
  ZUserAnswer,
  ZWorkspaceAnswer,
} from '@switchyard/domain';
import { z } from 'zod';
import { ZLiveQuery } from '../live/routes.js';

export type JsonSchema = Record<string, unknown>;

/** What the document says of a route beyond its method and path. */
export interface RouteSchemas {
  query?: z.ZodType;
  body?: z.ZodType;
  /** The answer's schema: a domain zod schema, or a record's JSON Schema built from its form. */
  response?: z.ZodType | JsonSchema;
  /** The success status; 204 answers nothing. */
  status?: number;
  /** An answer that is not JSON (a page, a script): its media type. */
  media?: string;
}

/** The schemas of the routes that are not resource routes, by `METHOD /api/path`. */
export const ROUTE_SCHEMAS: Record<string, RouteSchemas> = {
  'GET /api/openapi.json': { response: ZOpenApiDocumentAnswer },
  'GET /api/docs': { media: 'text/html' },
  'GET /api/docs.js': { media: 'text/javascript' },

  'POST /api/login': { body: ZLoginForm, response: ZLoginResponse },
  'POST /api/logout': { response: ZOkAnswer },
  'GET /api/me': { response: ZMeAnswer },
  'GET /api/registration': { response: ZRegistrationStatus },
  'POST /api/register': { body: ZRegisterForm, response: ZRegisterResult, status: 201 },
  'POST /api/verify-email': { response: ZMessageAnswer },
  'POST /api/forgot-password': { body: ZForgotPasswordForm, response: ZMessageAnswer },
  'POST /api/reset-password': { body: ZResetPasswordForm, response: ZMessageAnswer },
  'POST /api/accept-invite/inspect': { response: ZInvitationPreview },
  'POST /api/accept-invite': { body: ZAcceptInviteForm, response: ZLoginResponse },
  'GET /api/invitations': { response: listOf(ZInvitation) },
  'POST /api/invitations': { body: ZInvitationForm, response: ZInvitationResult, status: 201 },
  'POST /api/invitations/{id}/resend': { response: ZInvitationResult },
  'POST /api/invitations/{id}/revoke': { response: ZInvitation },
  'GET /api/account-settings': { response: ZAccountSettingsAnswer },
  'PUT /api/account-settings': { body: ZAccountSettings, response: ZAccountSettingsAnswer },
  'GET /api/bot-protection': { response: ZBotProtectionSettings },
  'PUT /api/bot-protection': { body: ZBotProtectionForm, response: ZBotProtectionSettings },
  'DELETE /api/bot-protection': { response: ZBotProtectionSettings },
  'GET /api/backups': { response: ZBackupList },
  'POST /api/backups': { response: ZBackupMade, status: 201 },
  'GET /api/backups/{name}': { media: 'application/vnd.sqlite3' },
  'DELETE /api/backups/{name}': { status: 204 },
  'GET /api/profile': { response: ZProfile },
  'PUT /api/profile': { body: ZProfileForm, response: ZProfile },
  'POST /api/profile/password': { body: ZPasswordChangeForm, response: ZProfile },
  'POST /api/profile/sign-out-others': { response: ZProfile },
  'POST /api/tokens': { body: ZApiTokenForm, response: ZCreatedApiToken, status: 201 },
  'GET /api/tokens': { response: listOf(ZApiToken) },
  'DELETE /api/tokens/{id}': { status: 204 },
  'POST /api/workspaces/{id}/postback-key': { response: ZWorkspaceAnswer },
  'PUT /api/domains/{id}/certificate': { body: ZCertificateUpload, response: ZDomainAnswer },
  'POST /api/domains/{id}/certificate/renew': { response: ZDomainAnswer },
  'POST /api/domains/{id}/dns': { response: ZDomainAnswer },

  'GET /api/reports': { query: ZReportQuery, response: ZReportAnswer },
  'GET /api/reports/notices': { response: ZReportNotices },
  'GET /api/report-metrics': { response: ZCustomMetricList },
  'POST /api/report-metrics': { body: ZCustomMetricForm, response: ZCustomMetric, status: 201 },
  'PUT /api/report-metrics/{id}': { body: ZCustomMetricForm, response: ZCustomMetric },
  'DELETE /api/report-metrics/{id}': { status: 204 },
  'GET /api/report-views': { response: ZReportViewList },
  'GET /api/report-views/{id}': { response: ZReportView },
  'POST /api/report-views': { body: ZReportViewForm, response: ZReportView, status: 201 },
  'PUT /api/report-views/{id}': { body: ZReportViewForm, response: ZReportView },
  'DELETE /api/report-views/{id}': { status: 204 },

  'GET /api/history': { query: ZHistoryQuery, response: ZHistoryList },
  'GET /api/history/{id}': { response: ZHistoryEntryDetailAnswer },
  'POST /api/history/{id}/restore': { response: ZRestoredRecord },
  // A Server-Sent Events stream: `event: click|lead|conversion|postback`, JSON data.
  'GET /api/live': { query: ZLiveQuery, media: 'text/event-stream' },
  'GET /api/events/clicks': { query: ZEventQuery, response: ZClickEventList },
  'GET /api/events/leads': { query: ZEventQuery, response: ZLeadEventList },
  'GET /api/events/conversions': { query: ZEventQuery, response: ZConversionEventList },
  'GET /api/postback-log': { query: ZPostbackLogQuery, response: ZPostbackLogList },
  'GET /api/outbound-postbacks': { query: ZOutboundPostbackQuery, response: ZOutboundPostbackList },

  'POST /api/tracker/campaigns/{id}/costs': { body: ZCostUpdate, response: ZCostUpdateAnswer },
  'POST /api/tracker/campaigns/costs/import': { response: ZCostImportResponse },
  'POST /api/tracker/campaigns/{id}/simulate': { body: ZSimulatedVisitor, response: ZSimulationAnswer },
  'POST /api/tracker/campaigns/{id}/click-token': { response: ZClickTokenAnswer, status: 201 },
  // The body of the POST is the ZIP itself (Content-Type: application/zip).
  'POST /api/tracker/landers/{id}/files': { response: ZLanderFileList },
  'GET /api/tracker/landers/{id}/files': { response: ZLanderFileList },
  'GET /api/tracker/landers/{id}/files/content': { query: ZLanderFileQuery, response: ZLanderFileContent },
  'PUT /api/tracker/landers/{id}/files': { body: ZLanderFileEdit, response: ZLanderFile },
  'POST /api/campaigns/{id}/simulate': { body: ZSimulatedLead, response: ZSimulationAnswer },
  'GET /api/notifications': { response: ZNotificationList },
  'GET /api/monitors': { response: ZMonitorSettings },
  'PUT /api/monitors': { body: ZMonitorSettings, response: ZMonitorSettings },
  'POST /api/notifications/{id}/read': { status: 204 },
  'POST /api/notifications/read-all': { status: 204 },
  'GET /api/notification-channels': { response: ZChannelList },
  'POST /api/notification-channels': { body: ZChannelForm, response: ZChannel, status: 201 },
  'GET /api/notification-channels/{id}': { response: ZChannel },
  'PUT /api/notification-channels/{id}': { body: ZChannelForm, response: ZChannel },
  'DELETE /api/notification-channels/{id}': { status: 204 },
  'POST /api/notification-channels/{id}/test': { response: ZChannelTestAnswer },
  'GET /api/notification-channels/{id}/deliveries': { response: ZDeliveryList },
  'POST /api/imports': { query: ZImportQuery, body: ZImportRequest, response: ZImportAnswer },
  'GET /api/imports/{id}': { response: ZImportAnswer },
  'GET /api/rules': { response: ZRuleList },
  'POST /api/rules': { body: ZRuleForm, response: ZRuleAnswer, status: 201 },
  'GET /api/rules/{id}': { response: ZRuleAnswer },
  'PUT /api/rules/{id}': { body: ZRuleForm, response: ZRuleAnswer },
  'DELETE /api/rules/{id}': { status: 204 },
  'POST /api/rules/preview': { body: ZRuleForm, response: ZRulePreview },
  'POST /api/rules/{id}/preview': { response: ZRulePreview },
  'GET /api/rules/{id}/runs': { response: ZRuleRunList },
  'GET /api/tracker/flows/{id}/optimization': { response: ZOptimizationAnswer },
  'POST /api/tracker/flows/{id}/optimization/recompute': { response: ZOptimizationAnswer },
  'GET /api/flows/{id}/optimization': { response: ZOptimizationAnswer },
  'POST /api/flows/{id}/optimization/recompute': { response: ZOptimizationAnswer },
  'GET /api/events/clicks/{click_id}/replay': { response: ZClickReplay },
  'GET /api/events/leads/{lead_id}/replay': { response: ZLeadReplay },
  'POST /api/conversions/import': { response: ZConversionImportAnswer },
  'GET /api/currency-rates': { response: ZCurrencyRatesAnswer },
  'PUT /api/currency-rates': { response: ZCurrencyRatesAnswer },
  'GET /api/currency': { response: ZCurrencyList },
  'GET /api/default-email-weights': { response: ZEmailWeightList },
  'GET /api/timezone/locations': { response: ZTimeZoneList },
  'POST /api/traffic-sources/test-postback': { response: ZTestPostbackAnswer },
};

function listOf(item: z.ZodType) {
  return z.object({ list: z.array(item), total: z.number().int().min(0) });
}

/** JSON Schema of a zod schema: as a request is sent (`input`) or as the server answers (`output`). */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _draft, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/** The JSON Schema of an answer, whichever way it was given. */
export function answerSchema(schema: z.ZodType | JsonSchema): JsonSchema {
  return '_zod' in schema ? jsonSchema(schema as z.ZodType, 'output') : (schema as JsonSchema);
}

/** An answer carries more than its form (computed fields, notices): objects stay open in answers. */
function open(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(open);
  if (typeof schema !== 'object' || schema === null) return schema;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'additionalProperties' && value === false) continue;
    result[key] = open(value);
  }
  return result;
}

/**
 * A stored record of `definition`: its form's fields as kept, its id, status and times. Only the id and
 * times are required: a record kept before a field of its form existed is answered without it.
 */
export function recordSchema(definition: ResourceDefinition): JsonSchema {
  const form = definition.form ? (open(jsonSchema(definition.form, 'output')) as JsonSchema) : { type: 'object' };
  const properties = (form.properties as Record<string, unknown> | undefined) ?? {};
  const id = definition.idField === 'id' ? { type: 'integer' } : { type: 'string' };
  const { required: _formRequired, ...fields } = form;
  return {
    ...fields,
    type: 'object',
    properties: {
      ...properties,
      [definition.idField]: id,
      ...(definition.archivable ? { status: { type: 'string', enum: ['active', 'archived'] } } : {}),
      created_at: answerSchema(ZTimestamp),
      updated_at: answerSchema(ZTimestamp),
      workspace_id: { type: ['integer', 'null'] },
    },
    required: [definition.idField, 'created_at', 'updated_at'],
  };
}

/** A listed record with `?stats=<period>`: its figures for the period. */
function withStats(record: JsonSchema): JsonSchema {
  const stats = {
    type: 'object',
    properties: Object.fromEntries(LIST_STATS_FIGURES.map((name) => [name, { type: 'number' }])),
  };
  return { ...record, properties: { ...(record.properties as Record<string, unknown>), stats } };
}

function listSchema(item: JsonSchema): JsonSchema {
  return {
    type: 'object',
    properties: { list: { type: 'array', items: item }, total: { type: 'integer', minimum: 0 } },
    required: ['list', 'total'],
  };
}

/**
 * Users, roles and workspaces have modules of their own, whose records are not their forms (a user's
 * password is never answered): their answers are schemas of their own.
 */
const OWN_RECORDS: Record<string, z.ZodType> = {
  users: ZUserAnswer,
  roles: ZRoleAnswer,
  workspaces: ZWorkspaceAnswer,
  domains: ZDomainAnswer,
};

/** The schemas of a resource's routes, by `METHOD /api/path`. */
export function resourceSchemas(): Map<string, RouteSchemas> {
  const schemas = new Map<string, RouteSchemas>();
  for (const definition of RESOURCES) {
    const base = `/api/${definition.apiPath}`;
    const own = OWN_RECORDS[definition.name];
    const record = own ? jsonSchema(own, 'output') : recordSchema(definition);
    const statsGroup = LIST_STATS_GROUPS[definition.name];
    schemas.set(`GET ${base}`, {
      query: statsGroup ? ZListQuery.extend(ZListStatsQuery.shape) : ZListQuery,
      response: listSchema(statsGroup ? withStats(record) : record),
    });
    schemas.set(`GET ${base}/{id}`, { response: record });
    if (definition.form) schemas.set(`POST ${base}`, { body: definition.form, response: record, status: 201 });
    const update = definition.updateForm ?? definition.form;
    if (update) schemas.set(`PUT ${base}/{id}`, { body: update, response: record });
    schemas.set(`PUT ${base}/{id}/archive`, { response: record });
    schemas.set(`PUT ${base}/{id}/restore`, { response: record });
    schemas.set(`GET ${base}/{id}/usage`, { response: ZRecordUsage });
    schemas.set(`POST ${base}/{id}/clone`, { response: record, status: 201 });
    if (!own) schemas.set(`POST ${base}/bulk`, { body: ZBulkRequest, response: ZBulkAnswer });
    if (definition.withChainApiPath) {
      schemas.set(`GET /api/${definition.withChainApiPath}`, { query: ZListQuery, response: listSchema(record) });
    }
  }
  return schemas;
}
