ALTER TABLE "call_records" ADD COLUMN "agent_answered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "call_records" ADD COLUMN "classification" jsonb;--> statement-breakpoint
ALTER TABLE "call_records" ADD COLUMN "classified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "call_records" ADD COLUMN "form_id" integer;--> statement-breakpoint
ALTER TABLE "call_records" ADD COLUMN "form_values" jsonb;--> statement-breakpoint
ALTER TABLE "call_records" ADD COLUMN "form_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "call_records" ADD COLUMN "after_service_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "call_records" ADD COLUMN "after_service_pause_report_id" integer;--> statement-breakpoint
ALTER TABLE "call_records" ADD COLUMN "after_service_type" integer;--> statement-breakpoint
ALTER TABLE "call_records" ADD COLUMN "after_service_duration" integer;--> statement-breakpoint
ALTER TABLE "call_records" ADD COLUMN "after_service_finished_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "call_records" ADD COLUMN "transfer_of_uid" varchar(36);--> statement-breakpoint
ALTER TABLE "call_records" ADD COLUMN "transfer_type" varchar(16);--> statement-breakpoint
ALTER TABLE "call_records" ADD COLUMN "transfer_cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "call_records" ADD COLUMN "transfer_app" varchar(32);--> statement-breakpoint
ALTER TABLE "call_records" ADD COLUMN "transfer_appdata" varchar(255);--> statement-breakpoint
CREATE INDEX "call_records_transfer_of_idx" ON "call_records" USING btree ("transfer_of_uid");