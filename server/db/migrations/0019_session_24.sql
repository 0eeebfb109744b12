CREATE TABLE "service_chats_campaigns" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"channel_id" integer NOT NULL,
	"template_id" integer NOT NULL,
	"queue_id" integer NOT NULL,
	"reply_wait_hours" integer DEFAULT 72 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_chats_campaigns_mailings" (
	"chatcampaign_id" integer NOT NULL,
	"mailing_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	CONSTRAINT "service_chats_campaigns_mailings_chatcampaign_id_mailing_id_pk" PRIMARY KEY("chatcampaign_id","mailing_id")
);
--> statement-breakpoint
CREATE TABLE "service_chats_campaigns_params" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"chatcampaign_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"lead_field" text DEFAULT '' NOT NULL,
	"value" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
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
CREATE TABLE "chat_campaign_runs" (
	"campaign_id" integer PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"status" varchar(16) NOT NULL,
	"started_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_campaign_sends" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"campaign_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"lead_id" integer NOT NULL,
	"status" varchar(16) NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"room_id" bigint,
	"message_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "pabx_inbound_routes" ADD COLUMN "nps_id" integer;--> statement-breakpoint
ALTER TABLE "pabx_sounds_entries" ADD COLUMN "then_app" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "pabx_sounds_entries" ADD COLUMN "then_appdata" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "service_shipments_campaigns" ADD COLUMN "form_id" integer;--> statement-breakpoint
ALTER TABLE "service_chats_campaigns" ADD CONSTRAINT "service_chats_campaigns_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_chats_campaigns" ADD CONSTRAINT "service_chats_campaigns_channel_id_chat_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."chat_channels"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_chats_campaigns" ADD CONSTRAINT "service_chats_campaigns_template_id_chat_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."chat_templates"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_chats_campaigns" ADD CONSTRAINT "service_chats_campaigns_queue_id_chat_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."chat_queues"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_chats_campaigns_mailings" ADD CONSTRAINT "service_chats_campaigns_mailings_chatcampaign_id_service_chats_campaigns_id_fk" FOREIGN KEY ("chatcampaign_id") REFERENCES "public"."service_chats_campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_chats_campaigns_mailings" ADD CONSTRAINT "service_chats_campaigns_mailings_mailing_id_crm_mailings_id_fk" FOREIGN KEY ("mailing_id") REFERENCES "public"."crm_mailings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_chats_campaigns_mailings" ADD CONSTRAINT "service_chats_campaigns_mailings_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_chats_campaigns_params" ADD CONSTRAINT "service_chats_campaigns_params_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_chats_campaigns_params" ADD CONSTRAINT "service_chats_campaigns_params_chatcampaign_id_service_chats_campaigns_id_fk" FOREIGN KEY ("chatcampaign_id") REFERENCES "public"."service_chats_campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_interaction_attachments" ADD CONSTRAINT "crm_interaction_attachments_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_interaction_attachments" ADD CONSTRAINT "crm_interaction_attachments_interaction_id_crm_client_interactions_id_fk" FOREIGN KEY ("interaction_id") REFERENCES "public"."crm_client_interactions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_interaction_attachments" ADD CONSTRAINT "crm_interaction_attachments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_jobs" ADD CONSTRAINT "report_jobs_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_jobs" ADD CONSTRAINT "report_jobs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_campaign_runs" ADD CONSTRAINT "chat_campaign_runs_campaign_id_service_chats_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."service_chats_campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_campaign_runs" ADD CONSTRAINT "chat_campaign_runs_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_campaign_runs" ADD CONSTRAINT "chat_campaign_runs_started_by_users_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_campaign_sends" ADD CONSTRAINT "chat_campaign_sends_campaign_id_service_chats_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."service_chats_campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_campaign_sends" ADD CONSTRAINT "chat_campaign_sends_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_campaign_sends" ADD CONSTRAINT "chat_campaign_sends_lead_id_crm_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."crm_leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_campaign_sends" ADD CONSTRAINT "chat_campaign_sends_room_id_chat_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."chat_rooms"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "service_chats_campaigns_channel_id_idx" ON "service_chats_campaigns" USING btree ("channel_id");--> statement-breakpoint
CREATE INDEX "service_chats_campaigns_template_id_idx" ON "service_chats_campaigns" USING btree ("template_id");--> statement-breakpoint
CREATE INDEX "service_chats_campaigns_queue_id_idx" ON "service_chats_campaigns" USING btree ("queue_id");--> statement-breakpoint
CREATE INDEX "service_chats_campaigns_list_order_idx" ON "service_chats_campaigns" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "service_chats_campaigns_description_trgm_idx" ON "service_chats_campaigns" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "service_chats_campaigns_mailings_mailing_id_idx" ON "service_chats_campaigns_mailings" USING btree ("mailing_id");--> statement-breakpoint
CREATE INDEX "service_chats_campaigns_params_site_id_idx" ON "service_chats_campaigns_params" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "service_chats_campaigns_params_chatcampaign_id_idx" ON "service_chats_campaigns_params" USING btree ("chatcampaign_id");--> statement-breakpoint
CREATE INDEX "crm_interaction_attachments_interaction_idx" ON "crm_interaction_attachments" USING btree ("interaction_id","id");--> statement-breakpoint
CREATE INDEX "report_jobs_site_user_idx" ON "report_jobs" USING btree ("site_id","user_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "report_jobs_status_idx" ON "report_jobs" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "chat_campaign_sends_lead_idx" ON "chat_campaign_sends" USING btree ("campaign_id","lead_id");--> statement-breakpoint
CREATE INDEX "chat_campaign_sends_sending_idx" ON "chat_campaign_sends" USING btree ("created_at") WHERE "chat_campaign_sends"."status" = 'sending';--> statement-breakpoint
CREATE INDEX "chat_campaign_sends_room_idx" ON "chat_campaign_sends" USING btree ("room_id") WHERE "chat_campaign_sends"."room_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "pabx_inbound_routes" ADD CONSTRAINT "pabx_inbound_routes_nps_id_service_nps_telephony_id_fk" FOREIGN KEY ("nps_id") REFERENCES "public"."service_nps_telephony"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_shipments_campaigns" ADD CONSTRAINT "service_shipments_campaigns_form_id_service_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."service_forms"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pabx_inbound_routes_nps_id_idx" ON "pabx_inbound_routes" USING btree ("nps_id");--> statement-breakpoint
CREATE INDEX "service_shipments_campaigns_form_id_idx" ON "service_shipments_campaigns" USING btree ("form_id");--> statement-breakpoint
ALTER TABLE "crm_client_interactions" DROP COLUMN "attachment";--> statement-breakpoint
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['service_chats_campaigns'] LOOP
    EXECUTE format('CREATE TRIGGER list_counts_insert AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track()', t);
    EXECUTE format('CREATE TRIGGER list_counts_delete AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track()', t);
    EXECUTE format('CREATE TRIGGER list_counts_update AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track()', t);
    EXECUTE format('CREATE TRIGGER list_counts_truncate AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track()', t);
    EXECUTE format('INSERT INTO list_counts (table_name, site_id, n) SELECT %L, site_id, count(*) FROM %I GROUP BY site_id', t, t);
  END LOOP;
END
$$;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "service_chats_campaigns_list_id_idx" ON "service_chats_campaigns" USING btree ("id") INCLUDE ("site_id");
