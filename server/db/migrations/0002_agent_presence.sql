CREATE TABLE "agent_states" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"telephony_status" varchar(32),
	"telephony_changed_at" timestamp with time zone,
	"chat_status" varchar(32),
	"chat_changed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "agent_status_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"channel" varchar(16) NOT NULL,
	"status" varchar(32) NOT NULL,
	"previous_status" varchar(32),
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pause_reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"pause_id" integer,
	"description" text DEFAULT '' NOT NULL,
	"maximum_duration" integer DEFAULT 0 NOT NULL,
	"enable_webphone" boolean DEFAULT true NOT NULL,
	"enable_webchat" boolean DEFAULT true NOT NULL,
	"allow_incoming_call" boolean DEFAULT false NOT NULL,
	"allow_outgoing_call" boolean DEFAULT false NOT NULL,
	"allow_incoming_chat" boolean DEFAULT false NOT NULL,
	"allow_outgoing_chat" boolean DEFAULT false NOT NULL,
	"lock_screen" boolean DEFAULT false NOT NULL,
	"pending" boolean DEFAULT false NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"duration" integer,
	"exceeded" boolean DEFAULT false NOT NULL,
	"justification" text DEFAULT '' NOT NULL,
	"started_by" integer,
	"stopped_by" integer,
	"previous_report_id" integer
);
--> statement-breakpoint
ALTER TABLE "agent_states" ADD CONSTRAINT "agent_states_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_states" ADD CONSTRAINT "agent_states_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_status_events" ADD CONSTRAINT "agent_status_events_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_status_events" ADD CONSTRAINT "agent_status_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pause_reports" ADD CONSTRAINT "pause_reports_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pause_reports" ADD CONSTRAINT "pause_reports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pause_reports" ADD CONSTRAINT "pause_reports_pause_id_service_pauses_id_fk" FOREIGN KEY ("pause_id") REFERENCES "public"."service_pauses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pause_reports" ADD CONSTRAINT "pause_reports_started_by_users_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pause_reports" ADD CONSTRAINT "pause_reports_stopped_by_users_id_fk" FOREIGN KEY ("stopped_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pause_reports" ADD CONSTRAINT "pause_reports_previous_report_id_pause_reports_id_fk" FOREIGN KEY ("previous_report_id") REFERENCES "public"."pause_reports"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agent_status_events_site_user_at_idx" ON "agent_status_events" USING btree ("site_id","user_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "pause_reports_one_open_per_user" ON "pause_reports" USING btree ("user_id") WHERE "pause_reports"."ended_at" IS NULL;--> statement-breakpoint
CREATE INDEX "pause_reports_site_user_idx" ON "pause_reports" USING btree ("site_id","user_id","requested_at");