import { defineSearchAttributeKey, SearchAttributeType, TypedSearchAttributes } from '@temporalio/common';

// Set on every workflow we start, so an operator can find e.g. all failed syncs of an
// organization in Temporal UI: OrganizationId="..." AND RunType="sync" AND ExecutionStatus="Failed".
export const ORGANIZATION_ID = defineSearchAttributeKey('OrganizationId', SearchAttributeType.KEYWORD);
export const RUN_TYPE = defineSearchAttributeKey('RunType', SearchAttributeType.KEYWORD);
export const OWNER_TYPE = defineSearchAttributeKey('OwnerType', SearchAttributeType.KEYWORD);
export const OWNER_ID = defineSearchAttributeKey('OwnerId', SearchAttributeType.KEYWORD);
// On each integration's nightly sync Schedule and the workflows it starts.
export const INTEGRATION_ID = defineSearchAttributeKey('IntegrationId', SearchAttributeType.KEYWORD);

// Kept in sync with temporal-config/search-attributes.txt (read by the dev server launcher and docker-compose).
export const SEARCH_ATTRIBUTES = [ORGANIZATION_ID, RUN_TYPE, OWNER_TYPE, OWNER_ID, INTEGRATION_ID];

export function runSearchAttributes(run: {
  organizationId: string;
  type: string;
  ownerType: string | null;
  ownerId: string | null;
}) {
  const pairs = [
    { key: ORGANIZATION_ID, value: run.organizationId },
    { key: RUN_TYPE, value: run.type },
    ...(run.ownerType ? [{ key: OWNER_TYPE, value: run.ownerType }] : []),
    ...(run.ownerId ? [{ key: OWNER_ID, value: run.ownerId }] : []),
  ];
  return new TypedSearchAttributes(pairs);
}
