import { defineConfig } from 'prisma/config';

// The CLI is used only for `prisma generate`; migrations run through scripts/migrate.mjs.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost/unused' },
});
