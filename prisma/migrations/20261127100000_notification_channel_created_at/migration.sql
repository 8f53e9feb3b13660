-- When a channel was added: the order of the organization's channel list (GET
-- /v1/notification-channels) and what an Admin reads to judge a channel. Existing channels get
-- the time of the migration.
-- AlterTable
ALTER TABLE "notification_channels" ADD COLUMN     "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;
