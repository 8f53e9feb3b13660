// Timeline reads (GET /v1/activity) over a large history: 200,000 activity entries of one
// organization on 20,000 alerts, one claim with 50 entries and 20 comments, and another
// organization's 100,000 entries beside them. Prints p50/p99 of a record's timeline, the
// organization's first page, and a page 20 cursors deep, each beside the lightest authenticated
// route (GET /v1/organization) taking turns with it, and the load average. Run: npm run bench:activity
import { randomUUID } from 'node:crypto';
import { againstBaseline, loadAverage, seconds, timedAgainstBaseline, withBenchStack } from './support.js';

const ENTRIES = 200_000;
const ALERTS = 20_000;
const RUNS = 200;

await withBenchStack('activity bench', async ({ db, tenant }) => {
  const seeding = performance.now();
  const claimId = randomUUID();
  const user = await db.membership.findFirstOrThrow({ where: { organizationId: tenant.organizationId } });
  for (const [organizationId, count] of [
    [tenant.organizationId, ENTRIES],
    [randomUUID(), ENTRIES / 2],
  ] as const) {
    await db.$executeRaw`
      INSERT INTO activity_entries (organization_id, entity_type, entity_id, action, actor_type, actor_run_id, changes, created_at)
      SELECT ${organizationId}::uuid, 'alert', md5(${organizationId} || (n % ${ALERTS})::text)::uuid, 'updated', 'system', NULL,
             jsonb_build_object('status', jsonb_build_object('before', 'pending', 'after', 'dismissed')), now() - (n || ' seconds')::interval
        FROM generate_series(1, ${count}) AS n`;
  }
  await db.$executeRaw`
    INSERT INTO activity_entries (organization_id, entity_type, entity_id, action, actor_type, actor_user_id, changes, created_at)
    SELECT ${tenant.organizationId}::uuid, 'claim', ${claimId}::uuid, 'updated', 'user', ${user.userId}::uuid, '{}'::jsonb, now() - (n * 7 || ' seconds')::interval
      FROM generate_series(1, 50) AS n`;
  await db.$executeRaw`
    INSERT INTO comments (id, organization_id, entity_type, entity_id, body, mentions, author_user_id, created_at, updated_at)
    SELECT gen_random_uuid(), ${tenant.organizationId}::uuid, 'claim', ${claimId}::uuid, 'Comment ' || n, '{}', ${user.userId}::uuid, now() - (n * 11 || ' seconds')::interval, now()
      FROM generate_series(1, 20) AS n`;
  await db.$executeRawUnsafe('ANALYZE activity_entries');
  await db.$executeRawUnsafe('ANALYZE comments');
  console.log(`seeded ${ENTRIES * 1.5 + 50} entries in ${seconds(seeding).toFixed(1)} s`);

  const measure = async (label: string, path: string) => [
    label,
    againstBaseline(await timedAgainstBaseline(tenant, () => path, RUNS)),
  ];
  let deepCursor: string | null;
  {
    let cursor: string | null = null;
    for (let page = 0; page < 20; page++)
      cursor = (await tenant.call(`/v1/activity?limit=50${cursor ? `&cursor=${cursor}` : ''}`)).body.next_cursor;
    deepCursor = cursor;
  }
  const loadBefore = loadAverage();
  const rows = [
    await measure(
      "a claim's timeline (50 entries, 20 comments), limit 50",
      `/v1/activity?entity_type=claim&entity_id=${claimId}`,
    ),
    await measure('the organization timeline, first page of 50', '/v1/activity?limit=50'),
    await measure('the organization timeline, page 21 of 50 (cursor)', `/v1/activity?limit=50&cursor=${deepCursor}`),
    await measure('the organization timeline, 1000 entries', '/v1/activity?limit=1000'),
    ['load average before / after (1 / 5 / 15 min)', `${loadBefore}; ${loadAverage()}`],
  ];
  console.table(rows);
});
