CREATE SEQUENCE "public"."chat_revision_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "chat_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"channel_id" integer NOT NULL,
	"message_id" bigint NOT NULL,
	"recipient" varchar(64) NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chat_outbox_message_id_unique" UNIQUE("message_id")
);
--> statement-breakpoint
CREATE TABLE "chat_pending_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"channel_id" integer NOT NULL,
	"external_id" varchar(255) NOT NULL,
	"status" varchar(12) NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"error" jsonb,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_room_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"uid" varchar(36) NOT NULL,
	"site_id" integer NOT NULL,
	"room_id" bigint NOT NULL,
	"channel_id" integer NOT NULL,
	"sent_by" varchar(8) NOT NULL,
	"user_id" integer,
	"type" varchar(16) DEFAULT 'text' NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"attachment_file" varchar(64),
	"attachment_name" varchar(255) DEFAULT '' NOT NULL,
	"attachment_mime" varchar(100) DEFAULT '' NOT NULL,
	"attachment_size" integer,
	"attachment_state" varchar(8) DEFAULT 'none' NOT NULL,
	"attachment_source" jsonb,
	"latitude" double precision,
	"longitude" double precision,
	"location_name" varchar(255) DEFAULT '' NOT NULL,
	"location_address" varchar(500) DEFAULT '' NOT NULL,
	"contacts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"reply_to_id" bigint,
	"external_id" varchar(255),
	"status" varchar(12),
	"status_at" timestamp with time zone,
	"error_code" integer,
	"error_reason" text DEFAULT '' NOT NULL,
	"external_error" boolean DEFAULT false NOT NULL,
	"visible" boolean DEFAULT true NOT NULL,
	"visible_agent" boolean DEFAULT true NOT NULL,
	"read_by_agent" boolean DEFAULT false NOT NULL,
	"template_id" integer,
	"template_params" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revision" bigint DEFAULT nextval('chat_revision_seq') NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_rooms" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"uid" varchar(36) NOT NULL,
	"site_id" integer NOT NULL,
	"channel_id" integer NOT NULL,
	"contact" varchar(64) NOT NULL,
	"address" varchar(64) NOT NULL,
	"phone" varchar(32) DEFAULT '' NOT NULL,
	"title" varchar(255) DEFAULT '' NOT NULL,
	"email" varchar(255) DEFAULT '' NOT NULL,
	"avatar" varchar(500),
	"chat_type" integer DEFAULT 20 NOT NULL,
	"state" varchar(16) DEFAULT 'new' NOT NULL,
	"archived" boolean DEFAULT false NOT NULL,
	"inbound_id" integer,
	"queue_id" integer,
	"user_id" integer,
	"declined_user_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"queued_at" timestamp with time zone,
	"offered_at" timestamp with time zone,
	"answered_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"ended_by" varchar(16),
	"finished_at" timestamp with time zone,
	"last_message_at" timestamp with time zone,
	"last_message_id" bigint,
	"last_client_message_at" timestamp with time zone,
	"last_client_message_content" text DEFAULT '' NOT NULL,
	"awaiting_template_reply" boolean DEFAULT false NOT NULL,
	"window_closed_at" timestamp with time zone,
	"revision" bigint DEFAULT nextval('chat_revision_seq') NOT NULL,
	CONSTRAINT "chat_rooms_uid_unique" UNIQUE("uid")
);
--> statement-breakpoint
CREATE TABLE "chat_webhook_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"channel_id" integer NOT NULL,
	"body" "bytea" NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text
);
--> statement-breakpoint
ALTER TABLE "chat_outbox" ADD CONSTRAINT "chat_outbox_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_outbox" ADD CONSTRAINT "chat_outbox_channel_id_chat_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."chat_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_outbox" ADD CONSTRAINT "chat_outbox_message_id_chat_room_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."chat_room_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_pending_deliveries" ADD CONSTRAINT "chat_pending_deliveries_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_pending_deliveries" ADD CONSTRAINT "chat_pending_deliveries_channel_id_chat_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."chat_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_room_messages" ADD CONSTRAINT "chat_room_messages_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_room_messages" ADD CONSTRAINT "chat_room_messages_room_id_chat_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."chat_rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_room_messages" ADD CONSTRAINT "chat_room_messages_channel_id_chat_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."chat_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_room_messages" ADD CONSTRAINT "chat_room_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_room_messages" ADD CONSTRAINT "chat_room_messages_reply_to_id_chat_room_messages_id_fk" FOREIGN KEY ("reply_to_id") REFERENCES "public"."chat_room_messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_room_messages" ADD CONSTRAINT "chat_room_messages_template_id_chat_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."chat_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_rooms" ADD CONSTRAINT "chat_rooms_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_rooms" ADD CONSTRAINT "chat_rooms_channel_id_chat_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."chat_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_rooms" ADD CONSTRAINT "chat_rooms_inbound_id_chat_inbounds_id_fk" FOREIGN KEY ("inbound_id") REFERENCES "public"."chat_inbounds"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_rooms" ADD CONSTRAINT "chat_rooms_queue_id_chat_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."chat_queues"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_rooms" ADD CONSTRAINT "chat_rooms_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_webhook_events" ADD CONSTRAINT "chat_webhook_events_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_webhook_events" ADD CONSTRAINT "chat_webhook_events_channel_id_chat_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."chat_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_outbox_due_idx" ON "chat_outbox" USING btree ("next_attempt_at");--> statement-breakpoint
CREATE INDEX "chat_outbox_recipient_idx" ON "chat_outbox" USING btree ("channel_id","recipient","id");--> statement-breakpoint
CREATE INDEX "chat_pending_deliveries_external_idx" ON "chat_pending_deliveries" USING btree ("channel_id","external_id");--> statement-breakpoint
CREATE INDEX "chat_pending_deliveries_received_idx" ON "chat_pending_deliveries" USING btree ("received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "chat_room_messages_uid_idx" ON "chat_room_messages" USING btree ("site_id","uid");--> statement-breakpoint
CREATE UNIQUE INDEX "chat_room_messages_external_idx" ON "chat_room_messages" USING btree ("channel_id","external_id") WHERE "chat_room_messages"."external_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "chat_room_messages_room_idx" ON "chat_room_messages" USING btree ("room_id","id");--> statement-breakpoint
CREATE INDEX "chat_room_messages_revision_idx" ON "chat_room_messages" USING btree ("room_id","revision");--> statement-breakpoint
CREATE INDEX "chat_room_messages_site_time_idx" ON "chat_room_messages" USING btree ("site_id","created_at");--> statement-breakpoint
CREATE INDEX "chat_room_messages_pending_attachment_idx" ON "chat_room_messages" USING btree ("id") WHERE "chat_room_messages"."attachment_state" = 'pending';--> statement-breakpoint
CREATE INDEX "chat_room_messages_content_trgm_idx" ON "chat_room_messages" USING gin ("content" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "chat_rooms_one_open_per_contact" ON "chat_rooms" USING btree ("channel_id","contact") WHERE "chat_rooms"."ended_at" IS NULL;--> statement-breakpoint
CREATE INDEX "chat_rooms_user_idx" ON "chat_rooms" USING btree ("site_id","user_id","finished_at");--> statement-breakpoint
CREATE INDEX "chat_rooms_queue_idx" ON "chat_rooms" USING btree ("site_id","queue_id","queued_at") WHERE "chat_rooms"."state" = 'queued';--> statement-breakpoint
CREATE INDEX "chat_rooms_offered_idx" ON "chat_rooms" USING btree ("offered_at") WHERE "chat_rooms"."state" = 'offered';--> statement-breakpoint
CREATE INDEX "chat_rooms_last_client_idx" ON "chat_rooms" USING btree ("site_id","last_client_message_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "chat_rooms_revision_idx" ON "chat_rooms" USING btree ("site_id","revision");--> statement-breakpoint
CREATE INDEX "chat_rooms_archived_idx" ON "chat_rooms" USING btree ("site_id","archived","ended_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "chat_rooms_finishing_idx" ON "chat_rooms" USING btree ("ended_at") WHERE "chat_rooms"."ended_at" IS NOT NULL AND "chat_rooms"."finished_at" IS NULL;--> statement-breakpoint
CREATE INDEX "chat_rooms_title_trgm_idx" ON "chat_rooms" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "chat_rooms_phone_trgm_idx" ON "chat_rooms" USING gin ("phone" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "chat_webhook_events_pending_idx" ON "chat_webhook_events" USING btree ("id") WHERE "chat_webhook_events"."processed_at" IS NULL;