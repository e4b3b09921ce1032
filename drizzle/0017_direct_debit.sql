CREATE TABLE "direct_debit_accounts" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"wrong_codes" smallint DEFAULT 0 NOT NULL,
	"blocked_at" timestamp with time zone,
	"blocked_reason" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "direct_debit_accounts_wrong_codes" CHECK ("direct_debit_accounts"."wrong_codes" >= 0)
);
--> statement-breakpoint
CREATE TABLE "direct_debit_blocklist" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "direct_debit_blocklist_kind" CHECK ("direct_debit_blocklist"."kind" in ('iban', 'mobile'))
);
--> statement-breakpoint
CREATE TABLE "direct_debit_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"mandate_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"code_hash" text NOT NULL,
	"salt" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "direct_debit_mandates" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"reference" text NOT NULL,
	"account_holder" text NOT NULL,
	"iban" text NOT NULL,
	"street" text NOT NULL,
	"house_number" text NOT NULL,
	"zip" text NOT NULL,
	"city" text NOT NULL,
	"mobile" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	CONSTRAINT "direct_debit_mandates_status" CHECK ("direct_debit_mandates"."status" in ('pending', 'active', 'replaced', 'abandoned'))
);
--> statement-breakpoint
CREATE TABLE "sms_outbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer,
	"user_id" integer,
	"kind" text NOT NULL,
	"to_number" text NOT NULL,
	"text" text NOT NULL,
	"status" text DEFAULT 'outbox' NOT NULL,
	"provider_message_id" text,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "direct_debit_accounts" ADD CONSTRAINT "direct_debit_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "direct_debit_codes" ADD CONSTRAINT "direct_debit_codes_mandate_id_direct_debit_mandates_id_fk" FOREIGN KEY ("mandate_id") REFERENCES "public"."direct_debit_mandates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "direct_debit_codes" ADD CONSTRAINT "direct_debit_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "direct_debit_mandates" ADD CONSTRAINT "direct_debit_mandates_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "direct_debit_mandates" ADD CONSTRAINT "direct_debit_mandates_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "direct_debit_blocklist_value" ON "direct_debit_blocklist" USING btree ("kind","value");--> statement-breakpoint
CREATE INDEX "direct_debit_codes_mandate" ON "direct_debit_codes" USING btree ("mandate_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "direct_debit_mandates_reference" ON "direct_debit_mandates" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "direct_debit_mandates_user" ON "direct_debit_mandates" USING btree ("user_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "direct_debit_mandates_one_active" ON "direct_debit_mandates" USING btree ("user_id") WHERE "direct_debit_mandates"."status" = 'active';--> statement-breakpoint
CREATE INDEX "sms_outbox_to" ON "sms_outbox" USING btree ("to_number");--> statement-breakpoint
CREATE INDEX "sms_outbox_created" ON "sms_outbox" USING btree ("created_at");