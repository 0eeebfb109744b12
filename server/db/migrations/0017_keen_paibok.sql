ALTER TABLE "pabx_ivrs" ADD COLUMN "calendar_id" integer;--> statement-breakpoint
ALTER TABLE "pabx_ivrs" ADD COLUMN "closed_destination_app" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "pabx_ivrs" ADD COLUMN "closed_destination_appdata" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "pabx_queues" ADD COLUMN "language" text DEFAULT 'pt-BR' NOT NULL;--> statement-breakpoint
ALTER TABLE "pabx_queues" ADD COLUMN "exit_key" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "pabx_queues" ADD COLUMN "exit_app" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "pabx_queues" ADD COLUMN "exit_appdata" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "pabx_ivrs" ADD CONSTRAINT "pabx_ivrs_calendar_id_service_calendars_id_fk" FOREIGN KEY ("calendar_id") REFERENCES "public"."service_calendars"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pabx_ivrs_calendar_id_idx" ON "pabx_ivrs" USING btree ("calendar_id");