-- An organization's invitation link is bound to the organization, the role and the admin who
-- issued it (issue 25): all three are checked again when the link is used. Links without an
-- organization are the operator's (the admin CLI).
ALTER TABLE "password_links" ADD COLUMN     "invited_by_user_id" UUID,
ADD COLUMN     "organization_id" UUID,
ADD COLUMN     "role" "Role";

-- CreateIndex
CREATE INDEX "password_links_organization_id_idx" ON "password_links"("organization_id");

-- AddForeignKey
ALTER TABLE "password_links" ADD CONSTRAINT "password_links_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Links issued before this change name no organization, so nothing can say which one issued
-- them. An open one of an account that belongs to several organizations could set the password
-- of an account another organization shares: it ends here. (An account of one organization keeps
-- its link: it reaches only that organization, and joining another now needs that one's own
-- invitation and the account's password.)
UPDATE "password_links" l SET "used_at" = now()
 WHERE l."used_at" IS NULL
   AND (SELECT count(*) FROM "memberships" m WHERE m."user_id" = l."user_id") > 1;
