CREATE TABLE "job_runs" (
	"job" text NOT NULL,
	"round_start" timestamp with time zone NOT NULL,
	"ran_by" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"failed" boolean DEFAULT false NOT NULL,
	CONSTRAINT "job_runs_job_round_start_pk" PRIMARY KEY("job","round_start")
);
--> statement-breakpoint
ALTER TABLE "photos" ADD COLUMN "client_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "photos_user_client_id" ON "photos" USING btree ("user_id","client_id");