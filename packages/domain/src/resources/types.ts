import type { z } from 'zod';
import type { RecordStatus } from '../list-query.js';
import type { Section } from '../permissions.js';

export type ResourceName =
  | 'flows'
  | 'segments'
  | 'campaigns'
  | 'offers'
  | 'tracker-flows'
  | 'tracker-segments'
  | 'tracker-campaigns'
  | 'tracker-offers'
  | 'tracker-landers'
  | 'traffic-sources'
  | 'affiliate-networks'
  | 'events'
  | 'postback-events'
  | 'workspaces'
  | 'domains'
  | 'users'
  | 'roles';

/**
 * One kind of record. Server routes, client lists, forms, lookups and the side menu are derived from
 * these definitions; adding a resource means adding one file in this folder plus its screens.
 */
export interface ResourceDefinition<TForm extends z.ZodType = z.ZodType> {
  name: ResourceName;
  /** Path below /api: `offers`, `tracker/offers`. */
  apiPath: string;
  /** Dashboard route of the list screen (`/admin/offers`); null for records without screens. */
  route: string | null;
  idField: 'external_id' | 'id';
  /** §6: the section and resource of its permission strings (`/api/offer/get`). */
  permission: { section: Section; resource: string };
  /** Whether records can be archived and restored (§6: users and workspaces cannot). */
  archivable: boolean;
  /** The side-menu section the list appears under (§2.3), or null when not in the menu. */
  menuSection: Section | null;
  /** Lookup pair (§3.1). */
  lookup: { value: string; label: string };
  /** The body of create and update, shared by the form and the API. */
  form?: TForm;
  /** Update body, when it differs from the create body (e.g. an optional password). */
  updateForm?: z.ZodType;
  /**
   * Fields naming other records; the server refuses unknown ones with a 400 on the field. `*` walks a
   * list: `path_groups.*.paths.*.offer_external_id`.
   */
  references?: readonly ResourceReference[];
  /** Fields holding rich text (HTML, §2.6); the server sanitizes them and stores empty content as ''. */
  richTextFields?: readonly string[];
  /**
   * Path below /api of the list variant whose records carry `segments_chain` (§7.2
   * `segments-with-chain`); only for segment kinds.
   */
  withChainApiPath?: string;
}

export interface ResourceReference {
  field: string;
  resource: ResourceName;
}

export function defineResource<TForm extends z.ZodType>(
  definition: ResourceDefinition<TForm>,
): ResourceDefinition<TForm> {
  return definition;
}

/** What every stored record carries besides its form fields. */
export interface RecordMeta {
  status: RecordStatus;
  created_at: string;
  updated_at: string;
  workspace_id: number | null;
}

/** A record as the API answers it: its id field, its form fields and the common ones. */
export type StoredRecord<TForm, TIdField extends 'external_id' | 'id' = 'external_id'> = TForm &
  RecordMeta &
  (TIdField extends 'id' ? { id: number } : { external_id: string });
