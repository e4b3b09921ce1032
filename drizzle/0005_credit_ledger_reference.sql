-- CRD-09: one global idempotency key per ledger row, and the balance each row left behind.
-- Rows written before this migration get a key made of what made them unique until now
-- (user, reason, reference; the row id when the reference was empty), and their running sum.
DELETE FROM "credit_ledger" WHERE "delta" = 0;--> statement-breakpoint
DROP INDEX "credit_ledger_reason_ref";--> statement-breakpoint
UPDATE "credit_ledger" SET "reference" = "reason" || ':' || "user_id" || ':' || coalesce("reference", 'row-' || "id");--> statement-breakpoint
ALTER TABLE "credit_ledger" ALTER COLUMN "reference" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD COLUMN "balance_after" integer;--> statement-breakpoint
UPDATE "credit_ledger" AS l SET "balance_after" = s."running" FROM (SELECT "id", sum("delta") OVER (PARTITION BY "user_id" ORDER BY "created_at", "id")::integer AS "running" FROM "credit_ledger") AS s WHERE s."id" = l."id";--> statement-breakpoint
ALTER TABLE "credit_ledger" ALTER COLUMN "balance_after" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "credit_ledger_reference" ON "credit_ledger" USING btree ("reference");--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_delta_not_zero" CHECK ("credit_ledger"."delta" <> 0);--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_balance_not_negative" CHECK ("credit_ledger"."balance_after" >= 0);
