-- CreateEnum
CREATE TYPE "DocumentClassification" AS ENUM ('terms', 'price_list');

-- CreateEnum
CREATE TYPE "DocumentProcessingStatus" AS ENUM ('queued', 'processing', 'completed', 'failed');

-- CreateTable
CREATE TABLE "agreement_documents" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "agreement_id" UUID NOT NULL,
    "document_id" UUID NOT NULL,
    "classification" "DocumentClassification",
    "classified_by" TEXT,
    "classification_confidence" TEXT,
    "classification_reason" TEXT,
    "status" "DocumentProcessingStatus" NOT NULL DEFAULT 'queued',
    "failure" JSONB,
    "workflow_run_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "processed_at" TIMESTAMPTZ(3),

    CONSTRAINT "agreement_documents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "document_indexes" (
    "document_id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "status" "DocumentProcessingStatus" NOT NULL DEFAULT 'queued',
    "format" TEXT,
    "passage_count" INTEGER NOT NULL DEFAULT 0,
    "character_count" INTEGER,
    "partial" BOOLEAN NOT NULL DEFAULT false,
    "partial_reason" TEXT,
    "failure" JSONB,
    "workflow_run_id" UUID,
    "indexed_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "document_indexes_pkey" PRIMARY KEY ("document_id")
);

-- CreateTable
CREATE TABLE "document_passages" (
    "document_id" UUID NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "organization_id" UUID NOT NULL,
    "page" INTEGER,
    "sheet" TEXT,
    "start_offset" INTEGER NOT NULL,
    "end_offset" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "search_vector" tsvector NOT NULL,

    CONSTRAINT "document_passages_pkey" PRIMARY KEY ("document_id","ordinal")
);

-- CreateIndex
CREATE INDEX "agreement_documents_organization_id_document_id_idx" ON "agreement_documents"("organization_id", "document_id");

-- CreateIndex
CREATE INDEX "agreement_documents_agreement_id_status_idx" ON "agreement_documents"("agreement_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "agreement_documents_agreement_id_document_id_key" ON "agreement_documents"("agreement_id", "document_id");

-- CreateIndex
CREATE INDEX "document_indexes_organization_id_idx" ON "document_indexes"("organization_id");

-- CreateIndex
CREATE INDEX "document_passages_search_vector_idx" ON "document_passages" USING GIN ("search_vector");

-- AddForeignKey
ALTER TABLE "agreement_documents" ADD CONSTRAINT "agreement_documents_agreement_id_fkey" FOREIGN KEY ("agreement_id") REFERENCES "agreements"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agreement_documents" ADD CONSTRAINT "agreement_documents_document_id_fkey" FOREIGN KEY ("document_id") REFERENCES "documents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "document_indexes" ADD CONSTRAINT "document_indexes_document_id_fkey" FOREIGN KEY ("document_id") REFERENCES "documents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "document_passages" ADD CONSTRAINT "document_passages_document_id_fkey" FOREIGN KEY ("document_id") REFERENCES "document_indexes"("document_id") ON DELETE CASCADE ON UPDATE CASCADE;
