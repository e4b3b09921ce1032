CREATE TABLE "companies" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"address" text NOT NULL,
	"kvk" text NOT NULL,
	"city" text NOT NULL,
	"country" text NOT NULL,
	"tradenames" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"vat_numbers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"support_phone" text NOT NULL,
	"delete_discount" integer DEFAULT 0 NOT NULL,
	"added" date NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credit_ledger" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"delta" integer NOT NULL,
	"reason" text NOT NULL,
	"reference" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "page_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"user_id" integer,
	"kind" text NOT NULL,
	"path" text NOT NULL,
	"duration_ms" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "photos" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"filename" text NOT NULL,
	"thumb_filename" text NOT NULL,
	"status" text DEFAULT 'inspection_pending' NOT NULL,
	"premium" boolean DEFAULT false NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "profiles" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"gender" text NOT NULL,
	"sexuality" text NOT NULL,
	"birth_date" date NOT NULL,
	"country" text NOT NULL,
	"region_id" integer,
	"city" text,
	"hair_colour" text,
	"eye_colour" text,
	"body_type" text,
	"relationship_status" text,
	"tattoos" text,
	"interests" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"signup_reason" text,
	"about" text DEFAULT '' NOT NULL,
	"fictional" boolean DEFAULT false NOT NULL,
	"main_photo_id" integer,
	"last_active_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "regions" (
	"id" serial PRIMARY KEY NOT NULL,
	"country" text NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"lat_e4" integer NOT NULL,
	"lon_e4" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ip" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "site_hosts" (
	"host" text PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sites" (
	"id" serial PRIMARY KEY NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"name" text NOT NULL,
	"index_title" text NOT NULL,
	"description" text NOT NULL,
	"domain" text NOT NULL,
	"domain_language" text NOT NULL,
	"languages" jsonb NOT NULL,
	"cdn_prefix" text DEFAULT '' NOT NULL,
	"niche" smallint DEFAULT 1 NOT NULL,
	"company_id" integer NOT NULL,
	"mail_name" text NOT NULL,
	"countries" jsonb NOT NULL,
	"signups" text DEFAULT 'all' NOT NULL,
	"logged_out_search" boolean DEFAULT false NOT NULL,
	"logged_out_search_trafficsource" boolean DEFAULT false NOT NULL,
	"geoip_country" text NOT NULL,
	"geoip_selected_country" text NOT NULL,
	"enable_site_entry_popup" boolean DEFAULT true NOT NULL,
	"push_public_key" text,
	"support_phone" text NOT NULL,
	"support_email" text NOT NULL,
	"fictional_icon" text NOT NULL,
	"fictional_warning" text NOT NULL,
	"fictional_singular" text NOT NULL,
	"fictional_plural" text NOT NULL,
	"visible_profile_fields" jsonb NOT NULL,
	"visible_profile_notes" boolean DEFAULT true NOT NULL,
	"search_fields" jsonb NOT NULL,
	"message_credits" integer NOT NULL,
	"photo_credits" integer NOT NULL,
	"gift_credits" integer NOT NULL,
	"signup_credits" integer NOT NULL,
	"message_length" integer NOT NULL,
	"minimum_message_costs" jsonb NOT NULL,
	"refund_days" integer NOT NULL,
	"member_resell" boolean DEFAULT false NOT NULL,
	"min_age" smallint DEFAULT 18 NOT NULL,
	"invite_only" boolean DEFAULT false NOT NULL,
	"live_cam_promo" boolean DEFAULT false NOT NULL,
	"us_legal_footer" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sites_niche_range" CHECK ("sites"."niche" between 1 and 7),
	CONSTRAINT "sites_signups_values" CHECK ("sites"."signups" in ('all', 'with_trafficsource', 'other'))
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"email" text NOT NULL,
	"password_hash" text,
	"role" text DEFAULT 'member' NOT NULL,
	"status" text DEFAULT 'not_confirmed' NOT NULL,
	"email_confirmed_at" timestamp with time zone,
	"credits" integer DEFAULT 0 NOT NULL,
	"paid_user" boolean DEFAULT false NOT NULL,
	"language" text NOT NULL,
	"notifications_disabled" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"invisible" boolean DEFAULT false NOT NULL,
	"signup_date" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "users_credits_not_negative" CHECK ("users"."credits" >= 0)
);
--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photos" ADD CONSTRAINT "photos_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_region_id_regions_id_fk" FOREIGN KEY ("region_id") REFERENCES "public"."regions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_hosts" ADD CONSTRAINT "site_hosts_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_ledger_user" ON "credit_ledger" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_ledger_reason_ref" ON "credit_ledger" USING btree ("user_id","reason","reference");--> statement-breakpoint
CREATE INDEX "photos_user" ON "photos" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "profiles_site_search" ON "profiles" USING btree ("site_id","status","gender","country");--> statement-breakpoint
CREATE UNIQUE INDEX "regions_country_code" ON "regions" USING btree ("country","code");--> statement-breakpoint
CREATE INDEX "sessions_user" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_site_email" ON "users" USING btree ("site_id",lower("email"));