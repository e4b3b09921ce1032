CREATE TABLE "site_figures" (
	"site_id" integer NOT NULL,
	"key" text NOT NULL,
	"value" jsonb NOT NULL,
	"computed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "discount_codes" DROP CONSTRAINT "discount_codes_kind";--> statement-breakpoint
ALTER TABLE "discount_codes" ADD COLUMN "user_id" integer;--> statement-breakpoint
ALTER TABLE "site_figures" ADD CONSTRAINT "site_figures_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "site_figures_site_key" ON "site_figures" USING btree ("site_id","key");--> statement-breakpoint
ALTER TABLE "discount_codes" ADD CONSTRAINT "discount_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "discount_codes_retention_member" ON "discount_codes" USING btree ("user_id") WHERE "discount_codes"."kind" = 'retention';--> statement-breakpoint
ALTER TABLE "discount_codes" ADD CONSTRAINT "discount_codes_kind" CHECK ("discount_codes"."kind" in ('welcome', 'code', 'time_bonus', 'retention'));