CREATE TABLE "call_records" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"call_id" varchar(255) NOT NULL,
	"step" integer NOT NULL,
	"uid" varchar(36) NOT NULL,
	"parent_uid" varchar(36),
	"direction" varchar(16) NOT NULL,
	"call_type" integer NOT NULL,
	"kind" varchar(16) NOT NULL,
	"caller" varchar(80) DEFAULT '' NOT NULL,
	"callee" varchar(80) DEFAULT '' NOT NULL,
	"phone" varchar(80) DEFAULT '' NOT NULL,
	"caller_device_id" integer,
	"caller_user_id" integer,
	"device_id" integer,
	"user_id" integer,
	"offered_user_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"queue_id" integer,
	"inbound_route_id" integer,
	"outbound_route_id" integer,
	"trunk_id" integer,
	"did" varchar(80) DEFAULT '' NOT NULL,
	"area_code" varchar(8) DEFAULT '' NOT NULL,
	"dial_status" integer,
	"dial_status_text" varchar(255) DEFAULT '' NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ringing_at" timestamp with time zone,
	"answered_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"total_duration" integer,
	"answered_duration" integer,
	"queue_started_at" timestamp with time zone,
	"queue_wait" integer,
	"hung_up_by" varchar(16),
	"record" boolean DEFAULT false NOT NULL,
	"recording_path" text,
	"decision" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sip_registrations" (
	"site_id" integer NOT NULL,
	"username" varchar(80) NOT NULL,
	"registered" boolean NOT NULL,
	"expires_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "call_records" ADD CONSTRAINT "call_records_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_records" ADD CONSTRAINT "call_records_caller_device_id_pabx_devices_id_fk" FOREIGN KEY ("caller_device_id") REFERENCES "public"."pabx_devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_records" ADD CONSTRAINT "call_records_caller_user_id_users_id_fk" FOREIGN KEY ("caller_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_records" ADD CONSTRAINT "call_records_device_id_pabx_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."pabx_devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_records" ADD CONSTRAINT "call_records_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_records" ADD CONSTRAINT "call_records_queue_id_pabx_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."pabx_queues"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_records" ADD CONSTRAINT "call_records_inbound_route_id_pabx_inbound_routes_id_fk" FOREIGN KEY ("inbound_route_id") REFERENCES "public"."pabx_inbound_routes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_records" ADD CONSTRAINT "call_records_outbound_route_id_pabx_outbound_routes_id_fk" FOREIGN KEY ("outbound_route_id") REFERENCES "public"."pabx_outbound_routes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_records" ADD CONSTRAINT "call_records_trunk_id_pabx_trunks_id_fk" FOREIGN KEY ("trunk_id") REFERENCES "public"."pabx_trunks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sip_registrations" ADD CONSTRAINT "sip_registrations_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "call_records_call_step_unique" ON "call_records" USING btree ("site_id","call_id","step");--> statement-breakpoint
CREATE UNIQUE INDEX "call_records_uid_unique" ON "call_records" USING btree ("uid");--> statement-breakpoint
CREATE INDEX "call_records_site_started_idx" ON "call_records" USING btree ("site_id","started_at");--> statement-breakpoint
CREATE INDEX "call_records_user_idx" ON "call_records" USING btree ("user_id","started_at");--> statement-breakpoint
CREATE INDEX "call_records_caller_user_idx" ON "call_records" USING btree ("caller_user_id","started_at");--> statement-breakpoint
CREATE INDEX "call_records_queue_idx" ON "call_records" USING btree ("queue_id","started_at");--> statement-breakpoint
CREATE INDEX "call_records_open_idx" ON "call_records" USING btree ("site_id") WHERE "call_records"."ended_at" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "sip_registrations_site_username_unique" ON "sip_registrations" USING btree ("site_id","username");