CREATE TABLE "discount_reservations" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"offer" text NOT NULL,
	"payment_id" integer NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "discount_reservations_status" CHECK ("discount_reservations"."status" in ('open', 'redeemed', 'released'))
);--> statement-breakpoint
CREATE TABLE "payment_transitions" (
	"id" serial PRIMARY KEY NOT NULL,
	"payment_id" integer NOT NULL,
	"from_status" text NOT NULL,
	"to_status" text NOT NULL,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "late_paid_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "discount_reused" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "discount_reservations" ADD CONSTRAINT "discount_reservations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_reservations" ADD CONSTRAINT "discount_reservations_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_transitions" ADD CONSTRAINT "payment_transitions_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "discount_reservations_held" ON "discount_reservations" USING btree ("user_id","offer") WHERE "discount_reservations"."status" in ('open', 'redeemed');--> statement-breakpoint
CREATE UNIQUE INDEX "discount_reservations_payment" ON "discount_reservations" USING btree ("payment_id","offer");--> statement-breakpoint
CREATE INDEX "payment_transitions_payment" ON "payment_transitions" USING btree ("payment_id","id");--> statement-breakpoint
CREATE INDEX "payments_late_paid" ON "payments" USING btree ("late_paid_at") WHERE "payments"."late_paid_at" is not null;--> statement-breakpoint
-- SEC-16: what discount_redemptions recorded (a code used by a paid payment) becomes a redeemed reservation; a
-- paid first purchase with the time bonus, the welcome code or a first-purchase code redeems the member's
-- first_purchase offer; a pending payment with a discount holds its offers open. One holder per member and offer.
INSERT INTO "discount_reservations" ("user_id", "offer", "payment_id", "status", "created_at", "updated_at")
SELECT r."user_id", 'code:' || r."code_id", r."payment_id", 'redeemed', r."created_at", r."created_at" FROM "discount_redemptions" r
ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "discount_reservations" ("user_id", "offer", "payment_id", "status", "created_at", "updated_at")
SELECT DISTINCT ON (p."user_id") p."user_id", 'first_purchase', p."id", 'redeemed', p."created_at", p."created_at"
FROM "payments" p LEFT JOIN "discount_codes" c ON upper(c."code") = upper(p."discount_code")
WHERE p."status" = 'paid' AND (upper(p."discount_code") IN ('TIMEBONUS25', 'WELCOME25') OR c."first_purchase_only")
ORDER BY p."user_id", p."settled_at", p."id"
ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "discount_reservations" ("user_id", "offer", "payment_id", "status", "created_at", "updated_at")
SELECT DISTINCT ON (p."user_id", o."offer") p."user_id", o."offer", p."id", 'open', p."created_at", p."created_at"
FROM "payments" p
LEFT JOIN "discount_codes" c ON upper(c."code") = upper(p."discount_code")
CROSS JOIN LATERAL (
  SELECT 'code:' || c."id" AS "offer" WHERE c."id" IS NOT NULL AND c."kind" = 'code'
  UNION ALL SELECT 'first_purchase' WHERE upper(p."discount_code") IN ('TIMEBONUS25', 'WELCOME25') OR c."first_purchase_only"
) o
WHERE p."status" = 'pending' AND p."discount_code" IS NOT NULL
ORDER BY p."user_id", o."offer", p."id" DESC
ON CONFLICT DO NOTHING;--> statement-breakpoint
DROP TABLE "discount_redemptions" CASCADE;
