CREATE TABLE "member_bans" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"staff_id" integer,
	"reason" text NOT NULL,
	"status_before" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lifted_at" timestamp with time zone,
	"lifted_by" integer
);
--> statement-breakpoint
ALTER TABLE "member_bans" ADD CONSTRAINT "member_bans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_bans" ADD CONSTRAINT "member_bans_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_bans" ADD CONSTRAINT "member_bans_lifted_by_staff_id_fk" FOREIGN KEY ("lifted_by") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_bans_user" ON "member_bans" USING btree ("user_id","created_at" DESC NULLS LAST);