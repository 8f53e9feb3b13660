-- CreateTable
CREATE TABLE "notification_preferences" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "owner" TEXT NOT NULL,
    "owner_key" TEXT NOT NULL,
    "user_id" UUID,
    "scope" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "notification_preferences_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notification_sources" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "preference_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "filter" JSONB NOT NULL,

    CONSTRAINT "notification_sources_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notification_channels" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "preference_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL,
    "events" TEXT[],
    "address" TEXT,
    "url" TEXT,
    "secret" TEXT,

    CONSTRAINT "notification_channels_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notification_outbox" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "run_id" UUID NOT NULL,
    "alert_ids" UUID[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_outbox_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notification_events" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "preference_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notification_deliveries" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "event_id" UUID NOT NULL,
    "channel_id" UUID NOT NULL,
    "channel_type" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "replays" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "last_status_code" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "delivered_at" TIMESTAMPTZ(3),

    CONSTRAINT "notification_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "notification_preferences_organization_id_owner_key_key" ON "notification_preferences"("organization_id", "owner_key");

-- CreateIndex
CREATE INDEX "notification_sources_preference_id_idx" ON "notification_sources"("preference_id");

-- CreateIndex
CREATE INDEX "notification_channels_preference_id_idx" ON "notification_channels"("preference_id");

-- CreateIndex
CREATE INDEX "notification_channels_organization_id_idx" ON "notification_channels"("organization_id");

-- CreateIndex
CREATE INDEX "notification_outbox_run_id_idx" ON "notification_outbox"("run_id");

-- CreateIndex
CREATE INDEX "notification_deliveries_organization_id_created_at_id_idx" ON "notification_deliveries"("organization_id", "created_at" DESC, "id");

-- CreateIndex
CREATE UNIQUE INDEX "notification_deliveries_event_id_channel_id_key" ON "notification_deliveries"("event_id", "channel_id");

-- AddForeignKey
ALTER TABLE "notification_sources" ADD CONSTRAINT "notification_sources_preference_id_fkey" FOREIGN KEY ("preference_id") REFERENCES "notification_preferences"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notification_channels" ADD CONSTRAINT "notification_channels_preference_id_fkey" FOREIGN KEY ("preference_id") REFERENCES "notification_preferences"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "notification_events"("id") ON DELETE CASCADE ON UPDATE CASCADE;
