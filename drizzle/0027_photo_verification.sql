CREATE TABLE "verifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"pose" text NOT NULL,
	"filename" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"rejection_reason" text,
	"photo_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" integer
);
--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "verified_photo_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "only_verified_contact" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "verifications" ADD CONSTRAINT "verifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "verifications_user" ON "verifications" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "verifications_pending" ON "verifications" USING btree ("created_at","id") WHERE "verifications"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "verifications_retention" ON "verifications" USING btree ("decided_at") WHERE "verifications"."filename" is not null and "verifications"."status" <> 'pending';--> statement-breakpoint
CREATE INDEX "profiles_search_verified" ON "profiles" USING btree ("site_id","last_active_at" DESC NULLS FIRST,"user_id" DESC NULLS FIRST) WHERE "profiles"."verified_photo_id" = "profiles"."main_photo_id";