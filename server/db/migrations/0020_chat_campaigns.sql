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
ALTER TABLE "service_chats_campaigns" ADD CONSTRAINT "service_chats_campaigns_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_chats_campaigns" ADD CONSTRAINT "service_chats_campaigns_channel_id_chat_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."chat_channels"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_chats_campaigns" ADD CONSTRAINT "service_chats_campaigns_template_id_chat_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."chat_templates"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_chats_campaigns" ADD CONSTRAINT "service_chats_campaigns_queue_id_chat_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."chat_queues"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_chats_campaigns_mailings" ADD CONSTRAINT "service_chats_campaigns_mailings_chatcampaign_id_service_chats_campaigns_id_fk" FOREIGN KEY ("chatcampaign_id") REFERENCES "public"."service_chats_campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_chats_campaigns_mailings" ADD CONSTRAINT "service_chats_campaigns_mailings_mailing_id_crm_mailings_id_fk" FOREIGN KEY ("mailing_id") REFERENCES "public"."crm_mailings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_chats_campaigns_mailings" ADD CONSTRAINT "service_chats_campaigns_mailings_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_chats_campaigns_params" ADD CONSTRAINT "service_chats_campaigns_params_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_chats_campaigns_params" ADD CONSTRAINT "service_chats_campaigns_params_chatcampaign_id_service_chats_campaigns_id_fk" FOREIGN KEY ("chatcampaign_id") REFERENCES "public"."service_chats_campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
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
CREATE UNIQUE INDEX "chat_campaign_sends_lead_idx" ON "chat_campaign_sends" USING btree ("campaign_id","lead_id");--> statement-breakpoint
CREATE INDEX "chat_campaign_sends_sending_idx" ON "chat_campaign_sends" USING btree ("created_at") WHERE "chat_campaign_sends"."status" = 'sending';--> statement-breakpoint
CREATE INDEX "chat_campaign_sends_room_idx" ON "chat_campaign_sends" USING btree ("room_id") WHERE "chat_campaign_sends"."room_id" IS NOT NULL;