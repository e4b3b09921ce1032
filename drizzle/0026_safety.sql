CREATE TABLE "complaint_messages" (
	"complaint_id" integer NOT NULL,
	"message_id" bigint NOT NULL,
	"sender_id" integer NOT NULL,
	"kind" text NOT NULL,
	"body" text NOT NULL,
	"attachment" text,
	"safety_flagged" boolean DEFAULT false NOT NULL,
	"reported" boolean DEFAULT false NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	CONSTRAINT "complaint_messages_complaint_id_message_id_pk" PRIMARY KEY("complaint_id","message_id")
);
--> statement-breakpoint
CREATE TABLE "safety_phrases" (
	"language" text PRIMARY KEY NOT NULL,
	"phrases" text[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer
);
--> statement-breakpoint
ALTER TABLE "complaints" ADD COLUMN "kind" text DEFAULT 'form' NOT NULL;--> statement-breakpoint
ALTER TABLE "complaints" ADD COLUMN "reported_user_id" integer;--> statement-breakpoint
ALTER TABLE "complaints" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "safety_flagged" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "complaint_messages" ADD CONSTRAINT "complaint_messages_complaint_id_complaints_id_fk" FOREIGN KEY ("complaint_id") REFERENCES "public"."complaints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "safety_phrases" ADD CONSTRAINT "safety_phrases_updated_by_staff_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "complaints_reported" ON "complaints" USING btree ("reported_user_id") WHERE "complaints"."reported_user_id" is not null;--> statement-breakpoint
CREATE INDEX "complaints_reporter" ON "complaints" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "messages_safety_flagged" ON "messages" USING btree ("sender_id","created_at") WHERE "messages"."safety_flagged";