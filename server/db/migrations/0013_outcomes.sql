ALTER TABLE "teams" ADD COLUMN "after_service_mode" varchar(32) DEFAULT 'spec' NOT NULL;--> statement-breakpoint
ALTER TABLE "pabx_inbound_routes" ADD COLUMN "form_id" integer;--> statement-breakpoint
ALTER TABLE "pabx_queues" ADD COLUMN "form_id" integer;--> statement-breakpoint
ALTER TABLE "pabx_inbound_routes" ADD CONSTRAINT "pabx_inbound_routes_form_id_service_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."service_forms"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_queues" ADD CONSTRAINT "pabx_queues_form_id_service_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."service_forms"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pabx_inbound_routes_form_id_idx" ON "pabx_inbound_routes" USING btree ("form_id");--> statement-breakpoint
CREATE INDEX "pabx_queues_form_id_idx" ON "pabx_queues" USING btree ("form_id");--> statement-breakpoint
CREATE INDEX "call_records_after_service_report_idx" ON "call_records" USING btree ("after_service_pause_report_id") WHERE "call_records"."after_service_pause_report_id" IS NOT NULL;