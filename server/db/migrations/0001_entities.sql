CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"user_id" integer,
	"entity" varchar(64) NOT NULL,
	"object_id" integer NOT NULL,
	"action" varchar(16) NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "business_contracts" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"code" text DEFAULT '' NOT NULL,
	"organization_id" integer NOT NULL,
	"start_date" timestamp with time zone,
	"end_date" timestamp with time zone,
	"monthly_value" numeric,
	"notes" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "business_departments" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"manager_id" integer,
	"email" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_bots" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"url" text DEFAULT '' NOT NULL,
	"auth_token" text DEFAULT '' NOT NULL,
	"timeout" integer DEFAULT 10 NOT NULL,
	"fallback_app" text DEFAULT '' NOT NULL,
	"fallback_appdata" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_channels" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"type" text DEFAULT 'whatsapp' NOT NULL,
	"phone_number" text DEFAULT '' NOT NULL,
	"phone_number_id" text DEFAULT '' NOT NULL,
	"waba_id" text DEFAULT '' NOT NULL,
	"access_token" text DEFAULT '' NOT NULL,
	"app_secret" text DEFAULT '' NOT NULL,
	"verify_token" text DEFAULT '' NOT NULL,
	"api_version" text DEFAULT 'v23.0' NOT NULL,
	"graph_url" text DEFAULT 'https://graph.facebook.com' NOT NULL,
	"widget_title" text DEFAULT '' NOT NULL,
	"widget_color" text DEFAULT '#1976d2' NOT NULL,
	"widget_logo" text,
	"welcome_message" text DEFAULT '' NOT NULL,
	"offline_message" text DEFAULT '' NOT NULL,
	"allowed_domains" text DEFAULT '' NOT NULL,
	"require_name" boolean DEFAULT true NOT NULL,
	"require_email" boolean DEFAULT false NOT NULL,
	"require_phone" boolean DEFAULT false NOT NULL,
	"send_attachment" boolean DEFAULT true NOT NULL,
	"emoji" boolean DEFAULT true NOT NULL,
	"send_voice" boolean DEFAULT true NOT NULL,
	"show_message_status" boolean DEFAULT true NOT NULL,
	"btn_template" boolean DEFAULT true NOT NULL,
	"btn_dial" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_flows" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"welcome_message" text DEFAULT '' NOT NULL,
	"invalid_message" text DEFAULT '' NOT NULL,
	"timeout" integer DEFAULT 300 NOT NULL,
	"repeat_count" integer DEFAULT 3 NOT NULL,
	"timeout_destination_app" text DEFAULT '' NOT NULL,
	"timeout_destination_appdata" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_flows_options" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"flow_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"key" text DEFAULT '' NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"destination_app" text DEFAULT '' NOT NULL,
	"destination_appdata" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_groups_teams" (
	"group_id" integer NOT NULL,
	"team_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	CONSTRAINT "chat_groups_teams_group_id_team_id_pk" PRIMARY KEY("group_id","team_id")
);
--> statement-breakpoint
CREATE TABLE "chat_inbounds" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"channel_id" integer NOT NULL,
	"destination_app" text DEFAULT '' NOT NULL,
	"destination_appdata" text DEFAULT '' NOT NULL,
	"calendar_id" integer,
	"closed_destination_app" text DEFAULT '' NOT NULL,
	"closed_destination_appdata" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"group_id" integer,
	"shortcut" text DEFAULT '' NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"attachment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_queues" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"queue_type" text DEFAULT 'inbound' NOT NULL,
	"strategy" text DEFAULT 'ringall' NOT NULL,
	"weight" integer DEFAULT 0 NOT NULL,
	"max_wait_time" integer DEFAULT 0 NOT NULL,
	"minimum_comment_size" integer DEFAULT 0 NOT NULL,
	"maximum_comment_size" integer DEFAULT 255 NOT NULL,
	"ring_time" integer DEFAULT 30 NOT NULL,
	"action_when_time_expires" text DEFAULT 'nothing' NOT NULL,
	"time_expires_message" text DEFAULT '' NOT NULL,
	"overflow_app" text DEFAULT '' NOT NULL,
	"overflow_appdata" text DEFAULT '' NOT NULL,
	"announcement" text DEFAULT 'no' NOT NULL,
	"announcement_type" text DEFAULT '' NOT NULL,
	"announcement_message" text DEFAULT '' NOT NULL,
	"announcement_frequency" integer DEFAULT 60 NOT NULL,
	"nps_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_queues_members" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"queue_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"user_id" integer NOT NULL,
	"penalty" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_queues_teams" (
	"queue_id" integer NOT NULL,
	"team_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	CONSTRAINT "chat_queues_teams_queue_id_team_id_pk" PRIMARY KEY("queue_id","team_id")
);
--> statement-breakpoint
CREATE TABLE "chat_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"channel_id" integer NOT NULL,
	"language" text DEFAULT 'pt_BR' NOT NULL,
	"category" text DEFAULT 'UTILITY' NOT NULL,
	"template_type" text DEFAULT 'TEXT' NOT NULL,
	"media" text,
	"content" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_templates_params" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"template_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"value" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_templates_teams" (
	"template_id" integer NOT NULL,
	"team_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	CONSTRAINT "chat_templates_teams_template_id_team_id_pk" PRIMARY KEY("template_id","team_id")
);
--> statement-breakpoint
CREATE TABLE "crm_interactions" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"slug" text DEFAULT '' NOT NULL,
	"form_id" integer NOT NULL,
	"icon" text DEFAULT '' NOT NULL,
	"color" text DEFAULT '' NOT NULL,
	"show_in_menu" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "crm_organizations" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"trade_name" text DEFAULT '' NOT NULL,
	"document" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"phones" text DEFAULT '' NOT NULL,
	"website" text DEFAULT '' NOT NULL,
	"zip_code" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"number" text DEFAULT '' NOT NULL,
	"complement" text DEFAULT '' NOT NULL,
	"district" text DEFAULT '' NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"state" text DEFAULT '' NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "crm_organizations_tags" (
	"organization_id" integer NOT NULL,
	"tag_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	CONSTRAINT "crm_organizations_tags_organization_id_tag_id_pk" PRIMARY KEY("organization_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "crm_products" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"code" text DEFAULT '' NOT NULL,
	"price" numeric,
	"details" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "crm_status" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"color" text DEFAULT '' NOT NULL,
	"order" integer DEFAULT 0 NOT NULL,
	"is_final" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "crm_tags" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"color" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integration_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"event_type" text DEFAULT '' NOT NULL,
	"integration_id" integer NOT NULL,
	"method" text DEFAULT 'POST' NOT NULL,
	"path" text DEFAULT '' NOT NULL,
	"payload" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integration_integrations" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"base_url" text DEFAULT '' NOT NULL,
	"auth_type" text DEFAULT 'none' NOT NULL,
	"username" text DEFAULT '' NOT NULL,
	"password" text DEFAULT '' NOT NULL,
	"header_name" text DEFAULT '' NOT NULL,
	"token" text DEFAULT '' NOT NULL,
	"timeout" integer DEFAULT 10 NOT NULL,
	"verify_tls" boolean DEFAULT true NOT NULL,
	"proxy_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integration_proxies" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"protocol" text DEFAULT 'http' NOT NULL,
	"host" text DEFAULT '' NOT NULL,
	"port" integer DEFAULT 3128 NOT NULL,
	"username" text DEFAULT '' NOT NULL,
	"password" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pabx_call_group_members" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"call_group_id" integer NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"device_id" integer NOT NULL,
	"order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pabx_call_group_permissions" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"call_group_id" integer NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"destination_app" text DEFAULT '' NOT NULL,
	"destination_appdata" text DEFAULT '' NOT NULL,
	"allow_call" boolean DEFAULT true NOT NULL,
	"allow_transfer" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pabx_call_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"number" text DEFAULT '' NOT NULL,
	"strategy" text DEFAULT 'ringall' NOT NULL,
	"ring_time" integer DEFAULT 20 NOT NULL,
	"timeout_destination_app" text DEFAULT '' NOT NULL,
	"timeout_destination_appdata" text DEFAULT '' NOT NULL,
	"pickup" boolean DEFAULT true NOT NULL,
	"moh_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pabx_detours" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"device_id" integer NOT NULL,
	"condition" text DEFAULT 'always' NOT NULL,
	"ring_time" integer DEFAULT 20 NOT NULL,
	"destination_app" text DEFAULT '' NOT NULL,
	"destination_appdata" text DEFAULT '' NOT NULL,
	"calendar_id" integer,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pabx_devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"username" text DEFAULT '' NOT NULL,
	"secret" text DEFAULT '' NOT NULL,
	"secret_ha1" text DEFAULT '' NOT NULL,
	"callerid_name" text DEFAULT '' NOT NULL,
	"callerid_number" text DEFAULT '' NOT NULL,
	"codecs" jsonb DEFAULT '["PCMU","PCMA"]'::jsonb NOT NULL,
	"transport" text DEFAULT 'wss' NOT NULL,
	"webrtc" boolean DEFAULT true NOT NULL,
	"nat" boolean DEFAULT true NOT NULL,
	"dtmf_mode" text DEFAULT 'rfc4733' NOT NULL,
	"max_contacts" integer DEFAULT 1 NOT NULL,
	"max_concurrent_calls" integer DEFAULT 2 NOT NULL,
	"device_state_busy_at" integer DEFAULT 1 NOT NULL,
	"allowed_ips" text DEFAULT '' NOT NULL,
	"context" text DEFAULT 'national' NOT NULL,
	"voicemail_id" integer,
	"moh_id" integer,
	"recording" text DEFAULT 'never' NOT NULL,
	"language" text DEFAULT 'pt-BR' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pabx_devices_outbound_routes" (
	"device_id" integer NOT NULL,
	"outboundroute_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	CONSTRAINT "pabx_devices_outbound_routes_device_id_outboundroute_id_pk" PRIMARY KEY("device_id","outboundroute_id")
);
--> statement-breakpoint
CREATE TABLE "pabx_inbound_routes" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"destination_app" text DEFAULT '' NOT NULL,
	"destination_appdata" text DEFAULT '' NOT NULL,
	"calendar_id" integer,
	"closed_destination_app" text DEFAULT '' NOT NULL,
	"closed_destination_appdata" text DEFAULT '' NOT NULL,
	"caller_name_prefix" text DEFAULT '' NOT NULL,
	"moh_id" integer,
	"language" text DEFAULT 'pt-BR' NOT NULL,
	"record" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pabx_ivrs" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"greeting_id" integer NOT NULL,
	"direct_dial" boolean DEFAULT false NOT NULL,
	"timeout" integer DEFAULT 5 NOT NULL,
	"timeout_audio_id" integer,
	"invalid_audio_id" integer,
	"repeat_count" integer DEFAULT 3 NOT NULL,
	"timeout_destination_app" text DEFAULT '' NOT NULL,
	"timeout_destination_appdata" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pabx_ivrs_options" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"ivr_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"digit" text DEFAULT '' NOT NULL,
	"audio_id" integer,
	"destination_app" text DEFAULT '' NOT NULL,
	"destination_appdata" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pabx_moh" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"shuffle" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pabx_moh_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"moh_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"file" text,
	"order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pabx_numbers" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"number" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"trunk_id" integer,
	"inbound_route_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pabx_outbound_route_trunks" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"outbound_route_id" integer NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"trunk_id" integer NOT NULL,
	"order" integer DEFAULT 0 NOT NULL,
	"strip" integer,
	"prefix" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pabx_outbound_routes" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"dial_patterns" text DEFAULT '' NOT NULL,
	"strip" integer DEFAULT 0 NOT NULL,
	"prefix" text DEFAULT '' NOT NULL,
	"caller_id_number" text DEFAULT '' NOT NULL,
	"priority" integer DEFAULT 0 NOT NULL,
	"webphone" boolean DEFAULT true NOT NULL,
	"record" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pabx_outbound_routes_teams" (
	"outboundroute_id" integer NOT NULL,
	"team_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	CONSTRAINT "pabx_outbound_routes_teams_outboundroute_id_team_id_pk" PRIMARY KEY("outboundroute_id","team_id")
);
--> statement-breakpoint
CREATE TABLE "pabx_queues" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"queue_type" text DEFAULT 'inbound' NOT NULL,
	"strategy" text DEFAULT 'ringall' NOT NULL,
	"weight" integer DEFAULT 0 NOT NULL,
	"max_wait_time" integer DEFAULT 0 NOT NULL,
	"minimum_comment_size" integer DEFAULT 0 NOT NULL,
	"maximum_comment_size" integer DEFAULT 255 NOT NULL,
	"ring_time" integer DEFAULT 15 NOT NULL,
	"retry_time" integer DEFAULT 5 NOT NULL,
	"max_callers" integer DEFAULT 0 NOT NULL,
	"join_empty" boolean DEFAULT false NOT NULL,
	"leave_when_empty" boolean DEFAULT false NOT NULL,
	"overflow_app" text DEFAULT '' NOT NULL,
	"overflow_appdata" text DEFAULT '' NOT NULL,
	"moh_id" integer,
	"announce_entry_id" integer,
	"periodic_announce_id" integer,
	"periodic_announce_frequency" integer DEFAULT 60 NOT NULL,
	"announce_position" boolean DEFAULT false NOT NULL,
	"announce_holdtime" boolean DEFAULT false NOT NULL,
	"service_level" integer DEFAULT 20 NOT NULL,
	"record_calls" boolean DEFAULT true NOT NULL,
	"nps_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pabx_queues_members" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"queue_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"user_id" integer NOT NULL,
	"penalty" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pabx_queues_teams" (
	"queue_id" integer NOT NULL,
	"team_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	CONSTRAINT "pabx_queues_teams_queue_id_team_id_pk" PRIMARY KEY("queue_id","team_id")
);
--> statement-breakpoint
CREATE TABLE "pabx_sounds" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"language" text DEFAULT 'pt-BR' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pabx_sounds_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"sound_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"file" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pabx_trunks" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"host" text DEFAULT '' NOT NULL,
	"port" integer DEFAULT 5060 NOT NULL,
	"transport" text DEFAULT 'udp' NOT NULL,
	"outbound_proxy" text DEFAULT '' NOT NULL,
	"auth_username" text DEFAULT '' NOT NULL,
	"auth_secret" text DEFAULT '' NOT NULL,
	"from_user" text DEFAULT '' NOT NULL,
	"from_domain" text DEFAULT '' NOT NULL,
	"register" boolean DEFAULT false NOT NULL,
	"registration_expiry" integer DEFAULT 3600 NOT NULL,
	"qualify" boolean DEFAULT true NOT NULL,
	"caller_id_number" text DEFAULT '' NOT NULL,
	"caller_id_name" text DEFAULT '' NOT NULL,
	"max_channels" integer DEFAULT 0 NOT NULL,
	"codecs" jsonb DEFAULT '["PCMA","PCMU"]'::jsonb NOT NULL,
	"dtmf_mode" text DEFAULT 'rfc4733' NOT NULL,
	"allowed_ips" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pabx_voicemails" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"mailbox" text DEFAULT '' NOT NULL,
	"pin" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"attach_audio" boolean DEFAULT true NOT NULL,
	"delete_after_email" boolean DEFAULT false NOT NULL,
	"greeting_id" integer,
	"max_message_seconds" integer DEFAULT 180 NOT NULL,
	"max_messages" integer DEFAULT 100 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_blacklists" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"phones" text DEFAULT '' NOT NULL,
	"direction" text DEFAULT 'both' NOT NULL,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_calendars" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"timezone" text DEFAULT 'America/Sao_Paulo' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_calendars_holidays" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"calendar_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"start" timestamp with time zone,
	"end" timestamp with time zone,
	"yearly" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_calendars_hours" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"calendar_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"weekday" integer,
	"start" text DEFAULT '' NOT NULL,
	"end" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_classifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_classifications_chat_queues" (
	"classification_id" integer NOT NULL,
	"queue_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	CONSTRAINT "service_classifications_chat_queues_classification_id_queue_id_pk" PRIMARY KEY("classification_id","queue_id")
);
--> statement-breakpoint
CREATE TABLE "service_classifications_queues" (
	"classification_id" integer NOT NULL,
	"queue_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	CONSTRAINT "service_classifications_queues_classification_id_queue_id_pk" PRIMARY KEY("classification_id","queue_id")
);
--> statement-breakpoint
CREATE TABLE "service_forms" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_forms_fields" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"form_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"type" text DEFAULT 'text' NOT NULL,
	"tab" text DEFAULT '' NOT NULL,
	"cols" integer DEFAULT 12 NOT NULL,
	"required" boolean DEFAULT false NOT NULL,
	"readonly" boolean DEFAULT false NOT NULL,
	"multiple" boolean DEFAULT false NOT NULL,
	"min" integer,
	"max" integer,
	"value" text DEFAULT '' NOT NULL,
	"options" text DEFAULT '' NOT NULL,
	"mask" text DEFAULT '' NOT NULL,
	"validation" text DEFAULT '' NOT NULL,
	"delimiters" text DEFAULT '' NOT NULL,
	"api" text DEFAULT '' NOT NULL,
	"cryptography" boolean DEFAULT false NOT NULL,
	"btn_phone" boolean DEFAULT false NOT NULL,
	"btn_chat" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_kpi" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"metric" text DEFAULT '' NOT NULL,
	"channel" text DEFAULT 'telephony' NOT NULL,
	"service_level_seconds" integer DEFAULT 20 NOT NULL,
	"target" numeric,
	"warning" numeric,
	"higher_is_better" boolean DEFAULT true NOT NULL,
	"period" text DEFAULT 'day' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_kpi_chat_queues" (
	"kpi_id" integer NOT NULL,
	"queue_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	CONSTRAINT "service_kpi_chat_queues_kpi_id_queue_id_pk" PRIMARY KEY("kpi_id","queue_id")
);
--> statement-breakpoint
CREATE TABLE "service_kpi_queues" (
	"kpi_id" integer NOT NULL,
	"queue_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	CONSTRAINT "service_kpi_queues_kpi_id_queue_id_pk" PRIMARY KEY("kpi_id","queue_id")
);
--> statement-breakpoint
CREATE TABLE "service_nps_chat" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"scale" text DEFAULT '0-10' NOT NULL,
	"question" text DEFAULT '' NOT NULL,
	"invalid_message" text DEFAULT '' NOT NULL,
	"thanks_message" text DEFAULT '' NOT NULL,
	"timeout" integer DEFAULT 300 NOT NULL,
	"attempts" integer DEFAULT 2 NOT NULL,
	"ask_comment" boolean DEFAULT false NOT NULL,
	"comment_question" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_nps_telephony" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"scale" text DEFAULT '0-10' NOT NULL,
	"question_audio_id" integer NOT NULL,
	"invalid_audio_id" integer,
	"thanks_audio_id" integer,
	"timeout" integer DEFAULT 5 NOT NULL,
	"attempts" integer DEFAULT 3 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_operations" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"contract_id" integer,
	"department_id" integer,
	"calendar_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_operations_supervisors" (
	"operation_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	CONSTRAINT "service_operations_supervisors_operation_id_user_id_pk" PRIMARY KEY("operation_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "service_operations_teams" (
	"operation_id" integer NOT NULL,
	"team_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	CONSTRAINT "service_operations_teams_operation_id_team_id_pk" PRIMARY KEY("operation_id","team_id")
);
--> statement-breakpoint
CREATE TABLE "service_pauses" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"maximum_duration" integer DEFAULT 0 NOT NULL,
	"color" text DEFAULT '' NOT NULL,
	"productive" boolean DEFAULT false NOT NULL,
	"agent_can_start" boolean DEFAULT true NOT NULL,
	"enable_webphone" boolean DEFAULT true NOT NULL,
	"allow_incoming_call" boolean DEFAULT false NOT NULL,
	"allow_outgoing_call" boolean DEFAULT false NOT NULL,
	"enable_webchat" boolean DEFAULT true NOT NULL,
	"allow_incoming_chat" boolean DEFAULT false NOT NULL,
	"allow_outgoing_chat" boolean DEFAULT false NOT NULL,
	"lock_screen" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_pauses_teams" (
	"pause_id" integer NOT NULL,
	"team_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	CONSTRAINT "service_pauses_teams_pause_id_team_id_pk" PRIMARY KEY("pause_id","team_id")
);
--> statement-breakpoint
CREATE TABLE "service_sub_classifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"result" text DEFAULT 'neutral' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_team_permissions" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"team_id" integer NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"destination_app" text DEFAULT '' NOT NULL,
	"destination_appdata" text DEFAULT '' NOT NULL,
	"allow_call" boolean DEFAULT true NOT NULL,
	"allow_transfer" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_unions" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"classification_id" integer NOT NULL,
	"sub_classification_id" integer NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"enable_schedule" boolean DEFAULT false NOT NULL,
	"schedule_interval_applied" integer DEFAULT 60 NOT NULL,
	"auto_run_schedule" integer DEFAULT 3 NOT NULL,
	"schedule_send_to" integer DEFAULT 1 NOT NULL,
	"mailing" integer,
	"enable_short_schedule_version" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users_chat_channels" (
	"user_id" integer NOT NULL,
	"channel_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	CONSTRAINT "users_chat_channels_user_id_channel_id_pk" PRIMARY KEY("user_id","channel_id")
);
--> statement-breakpoint
ALTER TABLE "sites" ALTER COLUMN "name" SET DATA TYPE varchar(255);--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "is_active" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "teams" ADD COLUMN "is_active" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "teams" ADD COLUMN "after_service_pause_id" integer;--> statement-breakpoint
ALTER TABLE "teams" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "teams" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "department_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "device_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "permission_groups" ADD COLUMN "is_active" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "permission_groups" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "permission_groups" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_contracts" ADD CONSTRAINT "business_contracts_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_contracts" ADD CONSTRAINT "business_contracts_organization_id_crm_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."crm_organizations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_departments" ADD CONSTRAINT "business_departments_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "business_departments" ADD CONSTRAINT "business_departments_manager_id_users_id_fk" FOREIGN KEY ("manager_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_bots" ADD CONSTRAINT "chat_bots_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_channels" ADD CONSTRAINT "chat_channels_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_flows" ADD CONSTRAINT "chat_flows_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_flows_options" ADD CONSTRAINT "chat_flows_options_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_flows_options" ADD CONSTRAINT "chat_flows_options_flow_id_chat_flows_id_fk" FOREIGN KEY ("flow_id") REFERENCES "public"."chat_flows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_groups" ADD CONSTRAINT "chat_groups_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_groups_teams" ADD CONSTRAINT "chat_groups_teams_group_id_chat_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."chat_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_groups_teams" ADD CONSTRAINT "chat_groups_teams_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_groups_teams" ADD CONSTRAINT "chat_groups_teams_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_inbounds" ADD CONSTRAINT "chat_inbounds_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_inbounds" ADD CONSTRAINT "chat_inbounds_channel_id_chat_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."chat_channels"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_inbounds" ADD CONSTRAINT "chat_inbounds_calendar_id_service_calendars_id_fk" FOREIGN KEY ("calendar_id") REFERENCES "public"."service_calendars"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_group_id_chat_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."chat_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_queues" ADD CONSTRAINT "chat_queues_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_queues" ADD CONSTRAINT "chat_queues_nps_id_service_nps_chat_id_fk" FOREIGN KEY ("nps_id") REFERENCES "public"."service_nps_chat"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_queues_members" ADD CONSTRAINT "chat_queues_members_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_queues_members" ADD CONSTRAINT "chat_queues_members_queue_id_chat_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."chat_queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_queues_members" ADD CONSTRAINT "chat_queues_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_queues_teams" ADD CONSTRAINT "chat_queues_teams_queue_id_chat_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."chat_queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_queues_teams" ADD CONSTRAINT "chat_queues_teams_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_queues_teams" ADD CONSTRAINT "chat_queues_teams_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_templates" ADD CONSTRAINT "chat_templates_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_templates" ADD CONSTRAINT "chat_templates_channel_id_chat_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."chat_channels"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_templates_params" ADD CONSTRAINT "chat_templates_params_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_templates_params" ADD CONSTRAINT "chat_templates_params_template_id_chat_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."chat_templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_templates_teams" ADD CONSTRAINT "chat_templates_teams_template_id_chat_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."chat_templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_templates_teams" ADD CONSTRAINT "chat_templates_teams_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_templates_teams" ADD CONSTRAINT "chat_templates_teams_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_interactions" ADD CONSTRAINT "crm_interactions_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_interactions" ADD CONSTRAINT "crm_interactions_form_id_service_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."service_forms"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_organizations" ADD CONSTRAINT "crm_organizations_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_organizations_tags" ADD CONSTRAINT "crm_organizations_tags_organization_id_crm_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."crm_organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_organizations_tags" ADD CONSTRAINT "crm_organizations_tags_tag_id_crm_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."crm_tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_organizations_tags" ADD CONSTRAINT "crm_organizations_tags_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_products" ADD CONSTRAINT "crm_products_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_status" ADD CONSTRAINT "crm_status_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_tags" ADD CONSTRAINT "crm_tags_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_events" ADD CONSTRAINT "integration_events_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_events" ADD CONSTRAINT "integration_events_integration_id_integration_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integration_integrations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_integrations" ADD CONSTRAINT "integration_integrations_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_integrations" ADD CONSTRAINT "integration_integrations_proxy_id_integration_proxies_id_fk" FOREIGN KEY ("proxy_id") REFERENCES "public"."integration_proxies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_proxies" ADD CONSTRAINT "integration_proxies_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_call_group_members" ADD CONSTRAINT "pabx_call_group_members_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_call_group_members" ADD CONSTRAINT "pabx_call_group_members_call_group_id_pabx_call_groups_id_fk" FOREIGN KEY ("call_group_id") REFERENCES "public"."pabx_call_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_call_group_members" ADD CONSTRAINT "pabx_call_group_members_device_id_pabx_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."pabx_devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_call_group_permissions" ADD CONSTRAINT "pabx_call_group_permissions_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_call_group_permissions" ADD CONSTRAINT "pabx_call_group_permissions_call_group_id_pabx_call_groups_id_fk" FOREIGN KEY ("call_group_id") REFERENCES "public"."pabx_call_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_call_groups" ADD CONSTRAINT "pabx_call_groups_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_call_groups" ADD CONSTRAINT "pabx_call_groups_moh_id_pabx_moh_id_fk" FOREIGN KEY ("moh_id") REFERENCES "public"."pabx_moh"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_detours" ADD CONSTRAINT "pabx_detours_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_detours" ADD CONSTRAINT "pabx_detours_device_id_pabx_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."pabx_devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_detours" ADD CONSTRAINT "pabx_detours_calendar_id_service_calendars_id_fk" FOREIGN KEY ("calendar_id") REFERENCES "public"."service_calendars"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_devices" ADD CONSTRAINT "pabx_devices_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_devices" ADD CONSTRAINT "pabx_devices_voicemail_id_pabx_voicemails_id_fk" FOREIGN KEY ("voicemail_id") REFERENCES "public"."pabx_voicemails"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_devices" ADD CONSTRAINT "pabx_devices_moh_id_pabx_moh_id_fk" FOREIGN KEY ("moh_id") REFERENCES "public"."pabx_moh"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_devices_outbound_routes" ADD CONSTRAINT "pabx_devices_outbound_routes_device_id_pabx_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."pabx_devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_devices_outbound_routes" ADD CONSTRAINT "pabx_devices_outbound_routes_outboundroute_id_pabx_outbound_routes_id_fk" FOREIGN KEY ("outboundroute_id") REFERENCES "public"."pabx_outbound_routes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_devices_outbound_routes" ADD CONSTRAINT "pabx_devices_outbound_routes_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_inbound_routes" ADD CONSTRAINT "pabx_inbound_routes_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_inbound_routes" ADD CONSTRAINT "pabx_inbound_routes_calendar_id_service_calendars_id_fk" FOREIGN KEY ("calendar_id") REFERENCES "public"."service_calendars"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_inbound_routes" ADD CONSTRAINT "pabx_inbound_routes_moh_id_pabx_moh_id_fk" FOREIGN KEY ("moh_id") REFERENCES "public"."pabx_moh"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_ivrs" ADD CONSTRAINT "pabx_ivrs_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_ivrs" ADD CONSTRAINT "pabx_ivrs_greeting_id_pabx_sounds_entries_id_fk" FOREIGN KEY ("greeting_id") REFERENCES "public"."pabx_sounds_entries"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_ivrs" ADD CONSTRAINT "pabx_ivrs_timeout_audio_id_pabx_sounds_entries_id_fk" FOREIGN KEY ("timeout_audio_id") REFERENCES "public"."pabx_sounds_entries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_ivrs" ADD CONSTRAINT "pabx_ivrs_invalid_audio_id_pabx_sounds_entries_id_fk" FOREIGN KEY ("invalid_audio_id") REFERENCES "public"."pabx_sounds_entries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_ivrs_options" ADD CONSTRAINT "pabx_ivrs_options_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_ivrs_options" ADD CONSTRAINT "pabx_ivrs_options_ivr_id_pabx_ivrs_id_fk" FOREIGN KEY ("ivr_id") REFERENCES "public"."pabx_ivrs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_ivrs_options" ADD CONSTRAINT "pabx_ivrs_options_audio_id_pabx_sounds_entries_id_fk" FOREIGN KEY ("audio_id") REFERENCES "public"."pabx_sounds_entries"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_moh" ADD CONSTRAINT "pabx_moh_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_moh_entries" ADD CONSTRAINT "pabx_moh_entries_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_moh_entries" ADD CONSTRAINT "pabx_moh_entries_moh_id_pabx_moh_id_fk" FOREIGN KEY ("moh_id") REFERENCES "public"."pabx_moh"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_numbers" ADD CONSTRAINT "pabx_numbers_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_numbers" ADD CONSTRAINT "pabx_numbers_trunk_id_pabx_trunks_id_fk" FOREIGN KEY ("trunk_id") REFERENCES "public"."pabx_trunks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_numbers" ADD CONSTRAINT "pabx_numbers_inbound_route_id_pabx_inbound_routes_id_fk" FOREIGN KEY ("inbound_route_id") REFERENCES "public"."pabx_inbound_routes"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_outbound_route_trunks" ADD CONSTRAINT "pabx_outbound_route_trunks_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_outbound_route_trunks" ADD CONSTRAINT "pabx_outbound_route_trunks_outbound_route_id_pabx_outbound_routes_id_fk" FOREIGN KEY ("outbound_route_id") REFERENCES "public"."pabx_outbound_routes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_outbound_route_trunks" ADD CONSTRAINT "pabx_outbound_route_trunks_trunk_id_pabx_trunks_id_fk" FOREIGN KEY ("trunk_id") REFERENCES "public"."pabx_trunks"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_outbound_routes" ADD CONSTRAINT "pabx_outbound_routes_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_outbound_routes_teams" ADD CONSTRAINT "pabx_outbound_routes_teams_outboundroute_id_pabx_outbound_routes_id_fk" FOREIGN KEY ("outboundroute_id") REFERENCES "public"."pabx_outbound_routes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_outbound_routes_teams" ADD CONSTRAINT "pabx_outbound_routes_teams_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_outbound_routes_teams" ADD CONSTRAINT "pabx_outbound_routes_teams_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_queues" ADD CONSTRAINT "pabx_queues_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_queues" ADD CONSTRAINT "pabx_queues_moh_id_pabx_moh_id_fk" FOREIGN KEY ("moh_id") REFERENCES "public"."pabx_moh"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_queues" ADD CONSTRAINT "pabx_queues_announce_entry_id_pabx_sounds_entries_id_fk" FOREIGN KEY ("announce_entry_id") REFERENCES "public"."pabx_sounds_entries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_queues" ADD CONSTRAINT "pabx_queues_periodic_announce_id_pabx_sounds_entries_id_fk" FOREIGN KEY ("periodic_announce_id") REFERENCES "public"."pabx_sounds_entries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_queues" ADD CONSTRAINT "pabx_queues_nps_id_service_nps_telephony_id_fk" FOREIGN KEY ("nps_id") REFERENCES "public"."service_nps_telephony"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_queues_members" ADD CONSTRAINT "pabx_queues_members_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_queues_members" ADD CONSTRAINT "pabx_queues_members_queue_id_pabx_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."pabx_queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_queues_members" ADD CONSTRAINT "pabx_queues_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_queues_teams" ADD CONSTRAINT "pabx_queues_teams_queue_id_pabx_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."pabx_queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_queues_teams" ADD CONSTRAINT "pabx_queues_teams_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_queues_teams" ADD CONSTRAINT "pabx_queues_teams_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_sounds" ADD CONSTRAINT "pabx_sounds_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_sounds_entries" ADD CONSTRAINT "pabx_sounds_entries_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_sounds_entries" ADD CONSTRAINT "pabx_sounds_entries_sound_id_pabx_sounds_id_fk" FOREIGN KEY ("sound_id") REFERENCES "public"."pabx_sounds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_trunks" ADD CONSTRAINT "pabx_trunks_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_voicemails" ADD CONSTRAINT "pabx_voicemails_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pabx_voicemails" ADD CONSTRAINT "pabx_voicemails_greeting_id_pabx_sounds_entries_id_fk" FOREIGN KEY ("greeting_id") REFERENCES "public"."pabx_sounds_entries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_blacklists" ADD CONSTRAINT "service_blacklists_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_calendars" ADD CONSTRAINT "service_calendars_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_calendars_holidays" ADD CONSTRAINT "service_calendars_holidays_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_calendars_holidays" ADD CONSTRAINT "service_calendars_holidays_calendar_id_service_calendars_id_fk" FOREIGN KEY ("calendar_id") REFERENCES "public"."service_calendars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_calendars_hours" ADD CONSTRAINT "service_calendars_hours_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_calendars_hours" ADD CONSTRAINT "service_calendars_hours_calendar_id_service_calendars_id_fk" FOREIGN KEY ("calendar_id") REFERENCES "public"."service_calendars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_classifications" ADD CONSTRAINT "service_classifications_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_classifications_chat_queues" ADD CONSTRAINT "service_classifications_chat_queues_classification_id_service_classifications_id_fk" FOREIGN KEY ("classification_id") REFERENCES "public"."service_classifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_classifications_chat_queues" ADD CONSTRAINT "service_classifications_chat_queues_queue_id_chat_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."chat_queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_classifications_chat_queues" ADD CONSTRAINT "service_classifications_chat_queues_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_classifications_queues" ADD CONSTRAINT "service_classifications_queues_classification_id_service_classifications_id_fk" FOREIGN KEY ("classification_id") REFERENCES "public"."service_classifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_classifications_queues" ADD CONSTRAINT "service_classifications_queues_queue_id_pabx_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."pabx_queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_classifications_queues" ADD CONSTRAINT "service_classifications_queues_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_forms" ADD CONSTRAINT "service_forms_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_forms_fields" ADD CONSTRAINT "service_forms_fields_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_forms_fields" ADD CONSTRAINT "service_forms_fields_form_id_service_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."service_forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_kpi" ADD CONSTRAINT "service_kpi_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_kpi_chat_queues" ADD CONSTRAINT "service_kpi_chat_queues_kpi_id_service_kpi_id_fk" FOREIGN KEY ("kpi_id") REFERENCES "public"."service_kpi"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_kpi_chat_queues" ADD CONSTRAINT "service_kpi_chat_queues_queue_id_chat_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."chat_queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_kpi_chat_queues" ADD CONSTRAINT "service_kpi_chat_queues_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_kpi_queues" ADD CONSTRAINT "service_kpi_queues_kpi_id_service_kpi_id_fk" FOREIGN KEY ("kpi_id") REFERENCES "public"."service_kpi"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_kpi_queues" ADD CONSTRAINT "service_kpi_queues_queue_id_pabx_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."pabx_queues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_kpi_queues" ADD CONSTRAINT "service_kpi_queues_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_nps_chat" ADD CONSTRAINT "service_nps_chat_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_nps_telephony" ADD CONSTRAINT "service_nps_telephony_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_nps_telephony" ADD CONSTRAINT "service_nps_telephony_question_audio_id_pabx_sounds_entries_id_fk" FOREIGN KEY ("question_audio_id") REFERENCES "public"."pabx_sounds_entries"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_nps_telephony" ADD CONSTRAINT "service_nps_telephony_invalid_audio_id_pabx_sounds_entries_id_fk" FOREIGN KEY ("invalid_audio_id") REFERENCES "public"."pabx_sounds_entries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_nps_telephony" ADD CONSTRAINT "service_nps_telephony_thanks_audio_id_pabx_sounds_entries_id_fk" FOREIGN KEY ("thanks_audio_id") REFERENCES "public"."pabx_sounds_entries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_operations" ADD CONSTRAINT "service_operations_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_operations" ADD CONSTRAINT "service_operations_contract_id_business_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."business_contracts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_operations" ADD CONSTRAINT "service_operations_department_id_business_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."business_departments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_operations" ADD CONSTRAINT "service_operations_calendar_id_service_calendars_id_fk" FOREIGN KEY ("calendar_id") REFERENCES "public"."service_calendars"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_operations_supervisors" ADD CONSTRAINT "service_operations_supervisors_operation_id_service_operations_id_fk" FOREIGN KEY ("operation_id") REFERENCES "public"."service_operations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_operations_supervisors" ADD CONSTRAINT "service_operations_supervisors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_operations_supervisors" ADD CONSTRAINT "service_operations_supervisors_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_operations_teams" ADD CONSTRAINT "service_operations_teams_operation_id_service_operations_id_fk" FOREIGN KEY ("operation_id") REFERENCES "public"."service_operations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_operations_teams" ADD CONSTRAINT "service_operations_teams_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_operations_teams" ADD CONSTRAINT "service_operations_teams_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_pauses" ADD CONSTRAINT "service_pauses_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_pauses_teams" ADD CONSTRAINT "service_pauses_teams_pause_id_service_pauses_id_fk" FOREIGN KEY ("pause_id") REFERENCES "public"."service_pauses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_pauses_teams" ADD CONSTRAINT "service_pauses_teams_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_pauses_teams" ADD CONSTRAINT "service_pauses_teams_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_sub_classifications" ADD CONSTRAINT "service_sub_classifications_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_team_permissions" ADD CONSTRAINT "service_team_permissions_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_team_permissions" ADD CONSTRAINT "service_team_permissions_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_unions" ADD CONSTRAINT "service_unions_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_unions" ADD CONSTRAINT "service_unions_classification_id_service_classifications_id_fk" FOREIGN KEY ("classification_id") REFERENCES "public"."service_classifications"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_unions" ADD CONSTRAINT "service_unions_sub_classification_id_service_sub_classifications_id_fk" FOREIGN KEY ("sub_classification_id") REFERENCES "public"."service_sub_classifications"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users_chat_channels" ADD CONSTRAINT "users_chat_channels_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users_chat_channels" ADD CONSTRAINT "users_chat_channels_channel_id_chat_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."chat_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users_chat_channels" ADD CONSTRAINT "users_chat_channels_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_site_at_idx" ON "audit_log" USING btree ("site_id","at");--> statement-breakpoint
CREATE INDEX "audit_log_site_entity_object_idx" ON "audit_log" USING btree ("site_id","entity","object_id");--> statement-breakpoint
CREATE INDEX "business_contracts_site_id_idx" ON "business_contracts" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "business_contracts_organization_id_idx" ON "business_contracts" USING btree ("organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "business_contracts_code_unique" ON "business_contracts" USING btree ("site_id","code") WHERE "business_contracts"."code" <> '';--> statement-breakpoint
CREATE INDEX "business_departments_site_id_idx" ON "business_departments" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "business_departments_manager_id_idx" ON "business_departments" USING btree ("manager_id");--> statement-breakpoint
CREATE INDEX "chat_bots_site_id_idx" ON "chat_bots" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "chat_channels_site_id_idx" ON "chat_channels" USING btree ("site_id");--> statement-breakpoint
CREATE UNIQUE INDEX "chat_channels_phone_number_id_unique" ON "chat_channels" USING btree ("site_id","phone_number_id") WHERE "chat_channels"."phone_number_id" <> '';--> statement-breakpoint
CREATE INDEX "chat_flows_site_id_idx" ON "chat_flows" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "chat_flows_options_site_id_idx" ON "chat_flows_options" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "chat_flows_options_flow_id_idx" ON "chat_flows_options" USING btree ("flow_id");--> statement-breakpoint
CREATE INDEX "chat_groups_site_id_idx" ON "chat_groups" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "chat_groups_teams_team_id_idx" ON "chat_groups_teams" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "chat_inbounds_site_id_idx" ON "chat_inbounds" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "chat_inbounds_channel_id_idx" ON "chat_inbounds" USING btree ("channel_id");--> statement-breakpoint
CREATE INDEX "chat_inbounds_calendar_id_idx" ON "chat_inbounds" USING btree ("calendar_id");--> statement-breakpoint
CREATE UNIQUE INDEX "chat_inbounds_channel_unique" ON "chat_inbounds" USING btree ("site_id","channel_id");--> statement-breakpoint
CREATE INDEX "chat_messages_site_id_idx" ON "chat_messages" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "chat_messages_group_id_idx" ON "chat_messages" USING btree ("group_id");--> statement-breakpoint
CREATE UNIQUE INDEX "chat_messages_shortcut_unique" ON "chat_messages" USING btree ("site_id","shortcut") WHERE "chat_messages"."shortcut" <> '';--> statement-breakpoint
CREATE INDEX "chat_queues_site_id_idx" ON "chat_queues" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "chat_queues_nps_id_idx" ON "chat_queues" USING btree ("nps_id");--> statement-breakpoint
CREATE INDEX "chat_queues_members_site_id_idx" ON "chat_queues_members" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "chat_queues_members_queue_id_idx" ON "chat_queues_members" USING btree ("queue_id");--> statement-breakpoint
CREATE INDEX "chat_queues_members_user_id_idx" ON "chat_queues_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "chat_queues_teams_team_id_idx" ON "chat_queues_teams" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "chat_templates_site_id_idx" ON "chat_templates" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "chat_templates_channel_id_idx" ON "chat_templates" USING btree ("channel_id");--> statement-breakpoint
CREATE INDEX "chat_templates_params_site_id_idx" ON "chat_templates_params" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "chat_templates_params_template_id_idx" ON "chat_templates_params" USING btree ("template_id");--> statement-breakpoint
CREATE INDEX "chat_templates_teams_team_id_idx" ON "chat_templates_teams" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "crm_interactions_site_id_idx" ON "crm_interactions" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "crm_interactions_form_id_idx" ON "crm_interactions" USING btree ("form_id");--> statement-breakpoint
CREATE UNIQUE INDEX "crm_interactions_slug_unique" ON "crm_interactions" USING btree ("site_id","slug");--> statement-breakpoint
CREATE INDEX "crm_organizations_site_id_idx" ON "crm_organizations" USING btree ("site_id");--> statement-breakpoint
CREATE UNIQUE INDEX "crm_organizations_document_unique" ON "crm_organizations" USING btree ("site_id","document") WHERE "crm_organizations"."document" <> '';--> statement-breakpoint
CREATE INDEX "crm_organizations_tags_tag_id_idx" ON "crm_organizations_tags" USING btree ("tag_id");--> statement-breakpoint
CREATE INDEX "crm_products_site_id_idx" ON "crm_products" USING btree ("site_id");--> statement-breakpoint
CREATE UNIQUE INDEX "crm_products_code_unique" ON "crm_products" USING btree ("site_id","code") WHERE "crm_products"."code" <> '';--> statement-breakpoint
CREATE INDEX "crm_status_site_id_idx" ON "crm_status" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "crm_tags_site_id_idx" ON "crm_tags" USING btree ("site_id");--> statement-breakpoint
CREATE UNIQUE INDEX "crm_tags_description_unique" ON "crm_tags" USING btree ("site_id","description");--> statement-breakpoint
CREATE INDEX "integration_events_site_id_idx" ON "integration_events" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "integration_events_integration_id_idx" ON "integration_events" USING btree ("integration_id");--> statement-breakpoint
CREATE INDEX "integration_integrations_site_id_idx" ON "integration_integrations" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "integration_integrations_proxy_id_idx" ON "integration_integrations" USING btree ("proxy_id");--> statement-breakpoint
CREATE INDEX "integration_proxies_site_id_idx" ON "integration_proxies" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "pabx_call_group_members_site_id_idx" ON "pabx_call_group_members" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "pabx_call_group_members_call_group_id_idx" ON "pabx_call_group_members" USING btree ("call_group_id");--> statement-breakpoint
CREATE INDEX "pabx_call_group_members_device_id_idx" ON "pabx_call_group_members" USING btree ("device_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pabx_call_group_members_call_group_device_unique" ON "pabx_call_group_members" USING btree ("site_id","call_group_id","device_id");--> statement-breakpoint
CREATE INDEX "pabx_call_group_permissions_site_id_idx" ON "pabx_call_group_permissions" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "pabx_call_group_permissions_call_group_id_idx" ON "pabx_call_group_permissions" USING btree ("call_group_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pabx_call_group_permissions_call_group_destination_unique" ON "pabx_call_group_permissions" USING btree ("site_id","call_group_id","destination_app","destination_appdata");--> statement-breakpoint
CREATE INDEX "pabx_call_groups_site_id_idx" ON "pabx_call_groups" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "pabx_call_groups_moh_id_idx" ON "pabx_call_groups" USING btree ("moh_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pabx_call_groups_number_unique" ON "pabx_call_groups" USING btree ("site_id","number") WHERE "pabx_call_groups"."number" <> '';--> statement-breakpoint
CREATE INDEX "pabx_detours_site_id_idx" ON "pabx_detours" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "pabx_detours_device_id_idx" ON "pabx_detours" USING btree ("device_id");--> statement-breakpoint
CREATE INDEX "pabx_detours_calendar_id_idx" ON "pabx_detours" USING btree ("calendar_id");--> statement-breakpoint
CREATE INDEX "pabx_devices_site_id_idx" ON "pabx_devices" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "pabx_devices_voicemail_id_idx" ON "pabx_devices" USING btree ("voicemail_id");--> statement-breakpoint
CREATE INDEX "pabx_devices_moh_id_idx" ON "pabx_devices" USING btree ("moh_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pabx_devices_username_unique" ON "pabx_devices" USING btree ("site_id","username");--> statement-breakpoint
CREATE INDEX "pabx_devices_outbound_routes_outboundroute_id_idx" ON "pabx_devices_outbound_routes" USING btree ("outboundroute_id");--> statement-breakpoint
CREATE INDEX "pabx_inbound_routes_site_id_idx" ON "pabx_inbound_routes" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "pabx_inbound_routes_calendar_id_idx" ON "pabx_inbound_routes" USING btree ("calendar_id");--> statement-breakpoint
CREATE INDEX "pabx_inbound_routes_moh_id_idx" ON "pabx_inbound_routes" USING btree ("moh_id");--> statement-breakpoint
CREATE INDEX "pabx_ivrs_site_id_idx" ON "pabx_ivrs" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "pabx_ivrs_greeting_id_idx" ON "pabx_ivrs" USING btree ("greeting_id");--> statement-breakpoint
CREATE INDEX "pabx_ivrs_timeout_audio_id_idx" ON "pabx_ivrs" USING btree ("timeout_audio_id");--> statement-breakpoint
CREATE INDEX "pabx_ivrs_invalid_audio_id_idx" ON "pabx_ivrs" USING btree ("invalid_audio_id");--> statement-breakpoint
CREATE INDEX "pabx_ivrs_options_site_id_idx" ON "pabx_ivrs_options" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "pabx_ivrs_options_ivr_id_idx" ON "pabx_ivrs_options" USING btree ("ivr_id");--> statement-breakpoint
CREATE INDEX "pabx_ivrs_options_audio_id_idx" ON "pabx_ivrs_options" USING btree ("audio_id");--> statement-breakpoint
CREATE INDEX "pabx_moh_site_id_idx" ON "pabx_moh" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "pabx_moh_entries_site_id_idx" ON "pabx_moh_entries" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "pabx_moh_entries_moh_id_idx" ON "pabx_moh_entries" USING btree ("moh_id");--> statement-breakpoint
CREATE INDEX "pabx_numbers_site_id_idx" ON "pabx_numbers" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "pabx_numbers_trunk_id_idx" ON "pabx_numbers" USING btree ("trunk_id");--> statement-breakpoint
CREATE INDEX "pabx_numbers_inbound_route_id_idx" ON "pabx_numbers" USING btree ("inbound_route_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pabx_numbers_number_unique" ON "pabx_numbers" USING btree ("site_id","number");--> statement-breakpoint
CREATE INDEX "pabx_outbound_route_trunks_site_id_idx" ON "pabx_outbound_route_trunks" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "pabx_outbound_route_trunks_outbound_route_id_idx" ON "pabx_outbound_route_trunks" USING btree ("outbound_route_id");--> statement-breakpoint
CREATE INDEX "pabx_outbound_route_trunks_trunk_id_idx" ON "pabx_outbound_route_trunks" USING btree ("trunk_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pabx_outbound_route_trunks_outbound_route_trunk_unique" ON "pabx_outbound_route_trunks" USING btree ("site_id","outbound_route_id","trunk_id");--> statement-breakpoint
CREATE INDEX "pabx_outbound_routes_site_id_idx" ON "pabx_outbound_routes" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "pabx_outbound_routes_teams_team_id_idx" ON "pabx_outbound_routes_teams" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "pabx_queues_site_id_idx" ON "pabx_queues" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "pabx_queues_moh_id_idx" ON "pabx_queues" USING btree ("moh_id");--> statement-breakpoint
CREATE INDEX "pabx_queues_announce_entry_id_idx" ON "pabx_queues" USING btree ("announce_entry_id");--> statement-breakpoint
CREATE INDEX "pabx_queues_periodic_announce_id_idx" ON "pabx_queues" USING btree ("periodic_announce_id");--> statement-breakpoint
CREATE INDEX "pabx_queues_nps_id_idx" ON "pabx_queues" USING btree ("nps_id");--> statement-breakpoint
CREATE INDEX "pabx_queues_members_site_id_idx" ON "pabx_queues_members" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "pabx_queues_members_queue_id_idx" ON "pabx_queues_members" USING btree ("queue_id");--> statement-breakpoint
CREATE INDEX "pabx_queues_members_user_id_idx" ON "pabx_queues_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "pabx_queues_teams_team_id_idx" ON "pabx_queues_teams" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "pabx_sounds_site_id_idx" ON "pabx_sounds" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "pabx_sounds_entries_site_id_idx" ON "pabx_sounds_entries" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "pabx_sounds_entries_sound_id_idx" ON "pabx_sounds_entries" USING btree ("sound_id");--> statement-breakpoint
CREATE INDEX "pabx_trunks_site_id_idx" ON "pabx_trunks" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "pabx_voicemails_site_id_idx" ON "pabx_voicemails" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "pabx_voicemails_greeting_id_idx" ON "pabx_voicemails" USING btree ("greeting_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pabx_voicemails_mailbox_unique" ON "pabx_voicemails" USING btree ("site_id","mailbox");--> statement-breakpoint
CREATE INDEX "service_blacklists_site_id_idx" ON "service_blacklists" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "service_calendars_site_id_idx" ON "service_calendars" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "service_calendars_holidays_site_id_idx" ON "service_calendars_holidays" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "service_calendars_holidays_calendar_id_idx" ON "service_calendars_holidays" USING btree ("calendar_id");--> statement-breakpoint
CREATE INDEX "service_calendars_hours_site_id_idx" ON "service_calendars_hours" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "service_calendars_hours_calendar_id_idx" ON "service_calendars_hours" USING btree ("calendar_id");--> statement-breakpoint
CREATE INDEX "service_classifications_site_id_idx" ON "service_classifications" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "service_classifications_chat_queues_queue_id_idx" ON "service_classifications_chat_queues" USING btree ("queue_id");--> statement-breakpoint
CREATE INDEX "service_classifications_queues_queue_id_idx" ON "service_classifications_queues" USING btree ("queue_id");--> statement-breakpoint
CREATE INDEX "service_forms_site_id_idx" ON "service_forms" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "service_forms_fields_site_id_idx" ON "service_forms_fields" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "service_forms_fields_form_id_idx" ON "service_forms_fields" USING btree ("form_id");--> statement-breakpoint
CREATE INDEX "service_kpi_site_id_idx" ON "service_kpi" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "service_kpi_chat_queues_queue_id_idx" ON "service_kpi_chat_queues" USING btree ("queue_id");--> statement-breakpoint
CREATE INDEX "service_kpi_queues_queue_id_idx" ON "service_kpi_queues" USING btree ("queue_id");--> statement-breakpoint
CREATE INDEX "service_nps_chat_site_id_idx" ON "service_nps_chat" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "service_nps_telephony_site_id_idx" ON "service_nps_telephony" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "service_nps_telephony_question_audio_id_idx" ON "service_nps_telephony" USING btree ("question_audio_id");--> statement-breakpoint
CREATE INDEX "service_nps_telephony_invalid_audio_id_idx" ON "service_nps_telephony" USING btree ("invalid_audio_id");--> statement-breakpoint
CREATE INDEX "service_nps_telephony_thanks_audio_id_idx" ON "service_nps_telephony" USING btree ("thanks_audio_id");--> statement-breakpoint
CREATE INDEX "service_operations_site_id_idx" ON "service_operations" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "service_operations_contract_id_idx" ON "service_operations" USING btree ("contract_id");--> statement-breakpoint
CREATE INDEX "service_operations_department_id_idx" ON "service_operations" USING btree ("department_id");--> statement-breakpoint
CREATE INDEX "service_operations_calendar_id_idx" ON "service_operations" USING btree ("calendar_id");--> statement-breakpoint
CREATE INDEX "service_operations_supervisors_user_id_idx" ON "service_operations_supervisors" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "service_operations_teams_team_id_idx" ON "service_operations_teams" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "service_pauses_site_id_idx" ON "service_pauses" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "service_pauses_teams_team_id_idx" ON "service_pauses_teams" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "service_sub_classifications_site_id_idx" ON "service_sub_classifications" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "service_team_permissions_site_id_idx" ON "service_team_permissions" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "service_team_permissions_team_id_idx" ON "service_team_permissions" USING btree ("team_id");--> statement-breakpoint
CREATE UNIQUE INDEX "service_team_permissions_team_destination_unique" ON "service_team_permissions" USING btree ("site_id","team_id","destination_app","destination_appdata");--> statement-breakpoint
CREATE INDEX "service_unions_site_id_idx" ON "service_unions" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "service_unions_classification_id_idx" ON "service_unions" USING btree ("classification_id");--> statement-breakpoint
CREATE INDEX "service_unions_sub_classification_id_idx" ON "service_unions" USING btree ("sub_classification_id");--> statement-breakpoint
CREATE UNIQUE INDEX "service_unions_classification_sub_classification_unique" ON "service_unions" USING btree ("site_id","classification_id","sub_classification_id");--> statement-breakpoint
CREATE INDEX "users_chat_channels_channel_id_idx" ON "users_chat_channels" USING btree ("channel_id");--> statement-breakpoint
ALTER TABLE "teams" ADD CONSTRAINT "teams_after_service_pause_id_service_pauses_id_fk" FOREIGN KEY ("after_service_pause_id") REFERENCES "public"."service_pauses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_department_id_business_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."business_departments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_device_id_pabx_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."pabx_devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "users_department_id_idx" ON "users" USING btree ("department_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_device_unique" ON "users" USING btree ("site_id","device_id");