-- CreateTable
CREATE TABLE "supplier_layouts" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "supplier_keys" TEXT[],
    "lesson" JSONB NOT NULL,
    "memory" JSONB,
    "learned_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "supplier_layouts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "supplier_layouts_organization_id_updated_at_idx" ON "supplier_layouts"("organization_id", "updated_at" DESC);
