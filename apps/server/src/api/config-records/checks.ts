// What a config record must satisfy before it is saved in a workspace, beyond its form: no two rows of
// one kind with one id, references to existing records of the same workspace (another workspace's record
// is as unknown as a missing one), and backup and segment chains that do not lead back to it.
import {
  flowDuplicateRowIds,
  getResource,
  payoutRuleDuplicateRowIds,
  type ResourceDefinition,
  VALIDATION_MESSAGES,
} from '@switchyard/domain';
import { ValidationError } from '../../errors.js';
import { backupLinks, followChain, segmentLinks } from './chains.js';
import { hasBackupChain, hasSegmentChain } from './computed.js';
import { type Db, existingIds, kindLinks } from './record-reads.js';
import { referenceValues } from './references.js';

/** Throws a ValidationError naming each field that fails, the record being `externalId` of `definition`. */
export async function checkRecord(
  trx: Db,
  definition: ResourceDefinition,
  workspaceId: number,
  body: Record<string, unknown>,
  externalId: string,
): Promise<void> {
  // No two rows of one kind with one id (checked on save only: stored records keep routing).
  const errors: Record<string, string[]> = {
    ...flowDuplicateRowIds(body.path_groups),
    ...payoutRuleDuplicateRowIds(body.payout_rule_sets),
  };
  for (const reference of definition.references ?? []) {
    const values = referenceValues(body, reference);
    if (values.length === 0) continue;
    const existing = await existingIds(
      trx,
      workspaceId,
      getResource(reference.resource),
      values.map((entry) => entry.value),
    );
    for (const { path, value } of values) {
      if (!existing.has(String(value))) errors[path] = [VALIDATION_MESSAGES.unknownReference];
    }
  }
  if (hasBackupChain(definition) && !errors.backup_offer_external_id) {
    const chain = await followChain(backupLinks(body), kindLinks(trx, definition.name, workspaceId, backupLinks));
    if (chain.includes(externalId)) errors.backup_offer_external_id = [VALIDATION_MESSAGES.backupChainLoop];
  }
  if (hasSegmentChain(definition) && !errors.condition) {
    const direct = segmentLinks(body);
    const existing = await existingIds(trx, workspaceId, definition, direct);
    if (direct.some((id) => !existing.has(id))) {
      errors.condition = [VALIDATION_MESSAGES.unknownReference];
    } else {
      const chain = await followChain(direct, kindLinks(trx, definition.name, workspaceId, segmentLinks));
      if (chain.includes(externalId)) errors.condition = [VALIDATION_MESSAGES.segmentChainLoop];
    }
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}
