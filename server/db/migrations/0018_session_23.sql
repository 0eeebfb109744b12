CREATE TABLE "service_classifications_mailings" (
	"classification_id" integer NOT NULL,
	"mailing_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	CONSTRAINT "service_classifications_mailings_classification_id_mailing_id_pk" PRIMARY KEY("classification_id","mailing_id")
);
--> statement-breakpoint
CREATE TABLE "service_nps_telephony_more_questions" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"npstelephony_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"audio_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_shipments_campaigns" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"mode" text DEFAULT 'progressive' NOT NULL,
	"queue_id" integer NOT NULL,
	"outbound_route_id" integer,
	"caller_id" text DEFAULT '' NOT NULL,
	"calendar_id" integer,
	"ratio" integer DEFAULT 2 NOT NULL,
	"preview_countdown" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 3 NOT NULL,
	"min_interval" integer DEFAULT 30 NOT NULL,
	"dial_time" integer DEFAULT 30 NOT NULL,
	"inactivate_by_duration" integer DEFAULT 0 NOT NULL,
	"max_abandon_rate" integer DEFAULT 3 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_shipments_campaigns_mailings" (
	"campaign_id" integer NOT NULL,
	"mailing_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	CONSTRAINT "service_shipments_campaigns_mailings_campaign_id_mailing_id_pk" PRIMARY KEY("campaign_id","mailing_id")
);
--> statement-breakpoint
CREATE TABLE "dialer_campaign_runs" (
	"campaign_id" integer PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"status" varchar(16) NOT NULL,
	"started_by" integer,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"owner" varchar(64),
	"heartbeat_at" timestamp with time zone,
	"abandoned" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dialer_lead_states" (
	"lead_id" integer PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"campaign_id" integer,
	"reserved_by" integer,
	"reserved_until" timestamp with time zone,
	"phone_index" integer DEFAULT 0 NOT NULL,
	"next_at" timestamp with time zone,
	"last_status" integer,
	"last_dial_at" timestamp with time zone,
	"call_id" varchar(255)
);
--> statement-breakpoint
CREATE TABLE "dialer_pacing_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"campaign_id" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"calls" integer NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"log" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "telephony_nps_answers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"nps_id" integer,
	"call_id" varchar(255) NOT NULL,
	"user_id" integer,
	"queue_id" integer,
	"question" smallint NOT NULL,
	"scale" varchar(8) NOT NULL,
	"score" smallint NOT NULL,
	"answered_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "voicemail_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"voicemail_id" integer NOT NULL,
	"call_id" varchar(255) NOT NULL,
	"caller" varchar(80) DEFAULT '' NOT NULL,
	"phone" varchar(80) DEFAULT '' NOT NULL,
	"duration_ms" integer NOT NULL,
	"file" varchar(120) NOT NULL,
	"heard_at" timestamp with time zone,
	"heard_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chat_channels" ADD COLUMN "messages_per_second" integer DEFAULT 80 NOT NULL;--> statement-breakpoint
ALTER TABLE "pabx_ivrs" ADD COLUMN "calendar_id" integer;--> statement-breakpoint
ALTER TABLE "pabx_ivrs" ADD COLUMN "closed_destination_app" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "pabx_ivrs" ADD COLUMN "closed_destination_appdata" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "pabx_queues" ADD COLUMN "language" text DEFAULT 'pt-BR' NOT NULL;--> statement-breakpoint
ALTER TABLE "pabx_queues" ADD COLUMN "exit_key" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "pabx_queues" ADD COLUMN "exit_app" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "pabx_queues" ADD COLUMN "exit_appdata" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "service_classifications_mailings" ADD CONSTRAINT "service_classifications_mailings_classification_id_service_classifications_id_fk" FOREIGN KEY ("classification_id") REFERENCES "public"."service_classifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_classifications_mailings" ADD CONSTRAINT "service_classifications_mailings_mailing_id_crm_mailings_id_fk" FOREIGN KEY ("mailing_id") REFERENCES "public"."crm_mailings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_classifications_mailings" ADD CONSTRAINT "service_classifications_mailings_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_nps_telephony_more_questions" ADD CONSTRAINT "service_nps_telephony_more_questions_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_nps_telephony_more_questions" ADD CONSTRAINT "service_nps_telephony_more_questions_npstelephony_id_service_nps_telephony_id_fk" FOREIGN KEY ("npstelephony_id") REFERENCES "public"."service_nps_telephony"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_nps_telephony_more_questions" ADD CONSTRAINT "service_nps_telephony_more_questions_audio_id_pabx_sounds_entries_id_fk" FOREIGN KEY ("audio_id") REFERENCES "public"."pabx_sounds_entries"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_shipments_campaigns" ADD CONSTRAINT "service_shipments_campaigns_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_shipments_campaigns" ADD CONSTRAINT "service_shipments_campaigns_queue_id_pabx_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."pabx_queues"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_shipments_campaigns" ADD CONSTRAINT "service_shipments_campaigns_outbound_route_id_pabx_outbound_routes_id_fk" FOREIGN KEY ("outbound_route_id") REFERENCES "public"."pabx_outbound_routes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_shipments_campaigns" ADD CONSTRAINT "service_shipments_campaigns_calendar_id_service_calendars_id_fk" FOREIGN KEY ("calendar_id") REFERENCES "public"."service_calendars"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_shipments_campaigns_mailings" ADD CONSTRAINT "service_shipments_campaigns_mailings_campaign_id_service_shipments_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."service_shipments_campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_shipments_campaigns_mailings" ADD CONSTRAINT "service_shipments_campaigns_mailings_mailing_id_crm_mailings_id_fk" FOREIGN KEY ("mailing_id") REFERENCES "public"."crm_mailings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_shipments_campaigns_mailings" ADD CONSTRAINT "service_shipments_campaigns_mailings_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dialer_campaign_runs" ADD CONSTRAINT "dialer_campaign_runs_campaign_id_service_shipments_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."service_shipments_campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dialer_campaign_runs" ADD CONSTRAINT "dialer_campaign_runs_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dialer_campaign_runs" ADD CONSTRAINT "dialer_campaign_runs_started_by_users_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dialer_lead_states" ADD CONSTRAINT "dialer_lead_states_lead_id_crm_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."crm_leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dialer_lead_states" ADD CONSTRAINT "dialer_lead_states_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dialer_lead_states" ADD CONSTRAINT "dialer_lead_states_campaign_id_service_shipments_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."service_shipments_campaigns"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dialer_lead_states" ADD CONSTRAINT "dialer_lead_states_reserved_by_users_id_fk" FOREIGN KEY ("reserved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dialer_pacing_log" ADD CONSTRAINT "dialer_pacing_log_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dialer_pacing_log" ADD CONSTRAINT "dialer_pacing_log_campaign_id_service_shipments_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."service_shipments_campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telephony_nps_answers" ADD CONSTRAINT "telephony_nps_answers_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telephony_nps_answers" ADD CONSTRAINT "telephony_nps_answers_nps_id_service_nps_telephony_id_fk" FOREIGN KEY ("nps_id") REFERENCES "public"."service_nps_telephony"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telephony_nps_answers" ADD CONSTRAINT "telephony_nps_answers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telephony_nps_answers" ADD CONSTRAINT "telephony_nps_answers_queue_id_pabx_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."pabx_queues"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voicemail_messages" ADD CONSTRAINT "voicemail_messages_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voicemail_messages" ADD CONSTRAINT "voicemail_messages_voicemail_id_pabx_voicemails_id_fk" FOREIGN KEY ("voicemail_id") REFERENCES "public"."pabx_voicemails"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voicemail_messages" ADD CONSTRAINT "voicemail_messages_heard_by_users_id_fk" FOREIGN KEY ("heard_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "service_classifications_mailings_mailing_id_idx" ON "service_classifications_mailings" USING btree ("mailing_id");--> statement-breakpoint
CREATE INDEX "service_nps_telephony_more_questions_site_id_idx" ON "service_nps_telephony_more_questions" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "service_nps_telephony_more_questions_npstelephony_id_idx" ON "service_nps_telephony_more_questions" USING btree ("npstelephony_id");--> statement-breakpoint
CREATE INDEX "service_nps_telephony_more_questions_audio_id_idx" ON "service_nps_telephony_more_questions" USING btree ("audio_id");--> statement-breakpoint
CREATE INDEX "service_shipments_campaigns_queue_id_idx" ON "service_shipments_campaigns" USING btree ("queue_id");--> statement-breakpoint
CREATE INDEX "service_shipments_campaigns_outbound_route_id_idx" ON "service_shipments_campaigns" USING btree ("outbound_route_id");--> statement-breakpoint
CREATE INDEX "service_shipments_campaigns_calendar_id_idx" ON "service_shipments_campaigns" USING btree ("calendar_id");--> statement-breakpoint
CREATE INDEX "service_shipments_campaigns_list_order_idx" ON "service_shipments_campaigns" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "service_shipments_campaigns_description_trgm_idx" ON "service_shipments_campaigns" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "service_shipments_campaigns_mailings_mailing_id_idx" ON "service_shipments_campaigns_mailings" USING btree ("mailing_id");--> statement-breakpoint
CREATE INDEX "dialer_campaign_runs_status_idx" ON "dialer_campaign_runs" USING btree ("status","heartbeat_at");--> statement-breakpoint
CREATE INDEX "dialer_lead_states_campaign_idx" ON "dialer_lead_states" USING btree ("campaign_id","next_at");--> statement-breakpoint
CREATE INDEX "dialer_lead_states_call_idx" ON "dialer_lead_states" USING btree ("call_id") WHERE "dialer_lead_states"."call_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "dialer_pacing_log_campaign_idx" ON "dialer_pacing_log" USING btree ("campaign_id","at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "telephony_nps_answers_call_question_unique" ON "telephony_nps_answers" USING btree ("site_id","call_id","question");--> statement-breakpoint
CREATE INDEX "telephony_nps_answers_site_idx" ON "telephony_nps_answers" USING btree ("site_id","answered_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "telephony_nps_answers_user_idx" ON "telephony_nps_answers" USING btree ("user_id","answered_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "voicemail_messages_box_idx" ON "voicemail_messages" USING btree ("site_id","voicemail_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "voicemail_messages_file_unique" ON "voicemail_messages" USING btree ("file");--> statement-breakpoint
ALTER TABLE "pabx_ivrs" ADD CONSTRAINT "pabx_ivrs_calendar_id_service_calendars_id_fk" FOREIGN KEY ("calendar_id") REFERENCES "public"."service_calendars"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pabx_ivrs_calendar_id_idx" ON "pabx_ivrs" USING btree ("calendar_id");--> statement-breakpoint
-- The dialer campaign is a generated entity: its list counts follow it (server/db/entity-schema/list-counts.ts).
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['service_shipments_campaigns'] LOOP
    EXECUTE format('CREATE TRIGGER list_counts_insert AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track()', t);
    EXECUTE format('CREATE TRIGGER list_counts_delete AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track()', t);
    EXECUTE format('CREATE TRIGGER list_counts_update AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track()', t);
    EXECUTE format('CREATE TRIGGER list_counts_truncate AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track()', t);
    EXECUTE format('INSERT INTO list_counts (table_name, site_id, n) SELECT %L, site_id, count(*) FROM %I GROUP BY site_id', t, t);
  END LOOP;
END
$$;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "service_shipments_campaigns_list_id_idx" ON "service_shipments_campaigns" USING btree ("id") INCLUDE ("site_id");
