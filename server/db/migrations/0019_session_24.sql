ALTER TABLE "pabx_inbound_routes" ADD COLUMN "nps_id" integer;--> statement-breakpoint
ALTER TABLE "pabx_sounds_entries" ADD COLUMN "then_app" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "pabx_sounds_entries" ADD COLUMN "then_appdata" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "service_shipments_campaigns" ADD COLUMN "form_id" integer;--> statement-breakpoint
ALTER TABLE "pabx_inbound_routes" ADD CONSTRAINT "pabx_inbound_routes_nps_id_service_nps_telephony_id_fk" FOREIGN KEY ("nps_id") REFERENCES "public"."service_nps_telephony"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_shipments_campaigns" ADD CONSTRAINT "service_shipments_campaigns_form_id_service_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."service_forms"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pabx_inbound_routes_nps_id_idx" ON "pabx_inbound_routes" USING btree ("nps_id");--> statement-breakpoint
CREATE INDEX "service_shipments_campaigns_form_id_idx" ON "service_shipments_campaigns" USING btree ("form_id");