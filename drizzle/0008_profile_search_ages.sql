ALTER TABLE "profiles" ADD COLUMN "search_min_age" smallint;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "search_max_age" smallint;