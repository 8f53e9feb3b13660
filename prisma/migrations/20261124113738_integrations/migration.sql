-- CreateEnum
CREATE TYPE "IntegrationTestStatus" AS ENUM ('untested', 'passed', 'failed');

-- AlterTable
ALTER TABLE "workflow_runs" ADD COLUMN     "workflow_id" TEXT;

-- CreateTable
CREATE TABLE "integrations" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "scope" JSONB,
    "auto_sync" BOOLEAN NOT NULL DEFAULT false,
    "credentials_ciphertext" TEXT NOT NULL,
    "credentials_key_id" TEXT NOT NULL,
    "credential_keys" TEXT[],
    "test_status" "IntegrationTestStatus" NOT NULL DEFAULT 'untested',
    "test_steps" JSONB,
    "tested_at" TIMESTAMPTZ(3),
    "last_successful_sync_at" TIMESTAMPTZ(3),
    "last_synced_through" DATE,
    "suppliers_refreshed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "integrations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "integration_suppliers" (
    "id" UUID NOT NULL,
    "integration_id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "external_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "org_number" TEXT,
    "refreshed_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "integration_suppliers_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "integrations_organization_id_created_at_id_idx" ON "integrations"("organization_id", "created_at" DESC, "id");

-- CreateIndex
CREATE INDEX "integration_suppliers_integration_id_name_id_idx" ON "integration_suppliers"("integration_id", "name", "id");

-- CreateIndex
CREATE UNIQUE INDEX "integration_suppliers_integration_id_external_id_key" ON "integration_suppliers"("integration_id", "external_id");

-- AddForeignKey
ALTER TABLE "integration_suppliers" ADD CONSTRAINT "integration_suppliers_integration_id_fkey" FOREIGN KEY ("integration_id") REFERENCES "integrations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written: at most one unfinished sync per integration, the database side of one sync at a
-- time (the Temporal workflow id sync-<integration id> is the other side).
CREATE UNIQUE INDEX "workflow_runs_one_open_sync_per_owner" ON "workflow_runs"("owner_id") WHERE "type" = 'sync' AND "status" IN ('queued', 'running');
