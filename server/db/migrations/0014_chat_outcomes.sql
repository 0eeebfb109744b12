CREATE TABLE "chat_nps_surveys" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"room_id" bigint NOT NULL,
	"nps_id" integer,
	"channel_id" integer NOT NULL,
	"contact" varchar(64) NOT NULL,
	"user_id" integer,
	"queue_id" integer,
	"scale" varchar(8) NOT NULL,
	"state" varchar(12) NOT NULL,
	"sent_as" varchar(12) DEFAULT 'text' NOT NULL,
	"invalid_answers" smallint DEFAULT 0 NOT NULL,
	"score" smallint,
	"comment" text DEFAULT '' NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "chat_queues" ADD COLUMN "form_id" integer;--> statement-breakpoint
ALTER TABLE "service_nps_chat" ADD COLUMN "template_id" integer;--> statement-breakpoint
ALTER TABLE "chat_rooms" ADD COLUMN "classification" jsonb;--> statement-breakpoint
ALTER TABLE "chat_rooms" ADD COLUMN "classified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chat_rooms" ADD COLUMN "form_id" integer;--> statement-breakpoint
ALTER TABLE "chat_rooms" ADD COLUMN "form_values" jsonb;--> statement-breakpoint
ALTER TABLE "chat_rooms" ADD COLUMN "form_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chat_nps_surveys" ADD CONSTRAINT "chat_nps_surveys_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_nps_surveys" ADD CONSTRAINT "chat_nps_surveys_room_id_chat_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."chat_rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_nps_surveys" ADD CONSTRAINT "chat_nps_surveys_nps_id_service_nps_chat_id_fk" FOREIGN KEY ("nps_id") REFERENCES "public"."service_nps_chat"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_nps_surveys" ADD CONSTRAINT "chat_nps_surveys_channel_id_chat_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."chat_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_nps_surveys" ADD CONSTRAINT "chat_nps_surveys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "chat_nps_surveys_room_idx" ON "chat_nps_surveys" USING btree ("room_id");--> statement-breakpoint
CREATE INDEX "chat_nps_surveys_waiting_idx" ON "chat_nps_surveys" USING btree ("channel_id","contact") WHERE "chat_nps_surveys"."state" in ('pending', 'comment');--> statement-breakpoint
CREATE INDEX "chat_nps_surveys_site_idx" ON "chat_nps_surveys" USING btree ("site_id","sent_at" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "chat_queues" ADD CONSTRAINT "chat_queues_form_id_service_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."service_forms"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_nps_chat" ADD CONSTRAINT "service_nps_chat_template_id_chat_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."chat_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_queues_form_id_idx" ON "chat_queues" USING btree ("form_id");--> statement-breakpoint
CREATE INDEX "service_nps_chat_template_id_idx" ON "service_nps_chat" USING btree ("template_id");