CREATE TABLE "service_nps_telephony_more_questions" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"npstelephony_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"audio_id" integer NOT NULL
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
ALTER TABLE "service_nps_telephony_more_questions" ADD CONSTRAINT "service_nps_telephony_more_questions_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_nps_telephony_more_questions" ADD CONSTRAINT "service_nps_telephony_more_questions_npstelephony_id_service_nps_telephony_id_fk" FOREIGN KEY ("npstelephony_id") REFERENCES "public"."service_nps_telephony"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_nps_telephony_more_questions" ADD CONSTRAINT "service_nps_telephony_more_questions_audio_id_pabx_sounds_entries_id_fk" FOREIGN KEY ("audio_id") REFERENCES "public"."pabx_sounds_entries"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telephony_nps_answers" ADD CONSTRAINT "telephony_nps_answers_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telephony_nps_answers" ADD CONSTRAINT "telephony_nps_answers_nps_id_service_nps_telephony_id_fk" FOREIGN KEY ("nps_id") REFERENCES "public"."service_nps_telephony"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telephony_nps_answers" ADD CONSTRAINT "telephony_nps_answers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telephony_nps_answers" ADD CONSTRAINT "telephony_nps_answers_queue_id_pabx_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."pabx_queues"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voicemail_messages" ADD CONSTRAINT "voicemail_messages_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voicemail_messages" ADD CONSTRAINT "voicemail_messages_voicemail_id_pabx_voicemails_id_fk" FOREIGN KEY ("voicemail_id") REFERENCES "public"."pabx_voicemails"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voicemail_messages" ADD CONSTRAINT "voicemail_messages_heard_by_users_id_fk" FOREIGN KEY ("heard_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "service_nps_telephony_more_questions_site_id_idx" ON "service_nps_telephony_more_questions" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "service_nps_telephony_more_questions_npstelephony_id_idx" ON "service_nps_telephony_more_questions" USING btree ("npstelephony_id");--> statement-breakpoint
CREATE INDEX "service_nps_telephony_more_questions_audio_id_idx" ON "service_nps_telephony_more_questions" USING btree ("audio_id");--> statement-breakpoint
CREATE UNIQUE INDEX "telephony_nps_answers_call_question_unique" ON "telephony_nps_answers" USING btree ("site_id","call_id","question");--> statement-breakpoint
CREATE INDEX "telephony_nps_answers_site_idx" ON "telephony_nps_answers" USING btree ("site_id","answered_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "telephony_nps_answers_user_idx" ON "telephony_nps_answers" USING btree ("user_id","answered_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "voicemail_messages_box_idx" ON "voicemail_messages" USING btree ("site_id","voicemail_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "voicemail_messages_file_unique" ON "voicemail_messages" USING btree ("file");