CREATE TABLE "crm_interaction_attachments" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"interaction_id" integer NOT NULL,
	"name" text NOT NULL,
	"stored" varchar(40) NOT NULL,
	"mime" varchar(64) NOT NULL,
	"size" integer NOT NULL,
	"user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_jobs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"user_id" integer,
	"report" varchar(64) NOT NULL,
	"filters" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"lang" varchar(8) DEFAULT 'pt-BR' NOT NULL,
	"status" varchar(16) DEFAULT 'queued' NOT NULL,
	"total_rows" integer DEFAULT 0 NOT NULL,
	"rows_written" integer DEFAULT 0 NOT NULL,
	"stored_name" varchar(64) NOT NULL,
	"file_name" varchar(255) DEFAULT '' NOT NULL,
	"size" bigint DEFAULT 0 NOT NULL,
	"error" jsonb,
	"attempts" integer DEFAULT 0 NOT NULL,
	"heartbeat_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "pabx_inbound_routes" ADD COLUMN "nps_id" integer;--> statement-breakpoint
ALTER TABLE "pabx_sounds_entries" ADD COLUMN "then_app" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "pabx_sounds_entries" ADD COLUMN "then_appdata" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "service_shipments_campaigns" ADD COLUMN "form_id" integer;--> statement-breakpoint
ALTER TABLE "crm_interaction_attachments" ADD CONSTRAINT "crm_interaction_attachments_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_interaction_attachments" ADD CONSTRAINT "crm_interaction_attachments_interaction_id_crm_client_interactions_id_fk" FOREIGN KEY ("interaction_id") REFERENCES "public"."crm_client_interactions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_interaction_attachments" ADD CONSTRAINT "crm_interaction_attachments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_jobs" ADD CONSTRAINT "report_jobs_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_jobs" ADD CONSTRAINT "report_jobs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "crm_interaction_attachments_interaction_idx" ON "crm_interaction_attachments" USING btree ("interaction_id","id");--> statement-breakpoint
CREATE INDEX "report_jobs_site_user_idx" ON "report_jobs" USING btree ("site_id","user_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "report_jobs_status_idx" ON "report_jobs" USING btree ("status");--> statement-breakpoint
ALTER TABLE "pabx_inbound_routes" ADD CONSTRAINT "pabx_inbound_routes_nps_id_service_nps_telephony_id_fk" FOREIGN KEY ("nps_id") REFERENCES "public"."service_nps_telephony"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_shipments_campaigns" ADD CONSTRAINT "service_shipments_campaigns_form_id_service_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."service_forms"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pabx_inbound_routes_nps_id_idx" ON "pabx_inbound_routes" USING btree ("nps_id");--> statement-breakpoint
CREATE INDEX "service_shipments_campaigns_form_id_idx" ON "service_shipments_campaigns" USING btree ("form_id");--> statement-breakpoint
ALTER TABLE "crm_client_interactions" DROP COLUMN "attachment";