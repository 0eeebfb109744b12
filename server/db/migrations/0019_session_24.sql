ALTER TABLE "pabx_sounds_entries" ADD COLUMN "then_app" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "pabx_sounds_entries" ADD COLUMN "then_appdata" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "service_shipments_campaigns" ADD COLUMN "form_id" integer;--> statement-breakpoint
ALTER TABLE "service_shipments_campaigns" ADD CONSTRAINT "service_shipments_campaigns_form_id_service_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."service_forms"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "service_shipments_campaigns_form_id_idx" ON "service_shipments_campaigns" USING btree ("form_id");