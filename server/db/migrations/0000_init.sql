CREATE TABLE "sites" (
	"id" serial PRIMARY KEY NOT NULL,
	"domain" varchar(253) NOT NULL,
	"name" varchar(100) NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"password_expire_days" integer DEFAULT 90 NOT NULL,
	"password_notify_days" integer DEFAULT 7 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sites_domain_unique" UNIQUE("domain")
);
--> statement-breakpoint
CREATE TABLE "teams" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"name" varchar(150) NOT NULL,
	"enable_auto_login_webphone" boolean DEFAULT false NOT NULL,
	"enable_webphone_auto_answer" boolean DEFAULT false NOT NULL,
	"enable_auto_login_webchat" boolean DEFAULT false NOT NULL,
	"enable_webchat_auto_answer" boolean DEFAULT false NOT NULL,
	"chat_limit_per_user" integer DEFAULT 1 NOT NULL,
	"chat_timeout_to_remove_inactive" integer DEFAULT 15 NOT NULL,
	"enable_after_service" boolean DEFAULT false NOT NULL,
	"duration_of_after_service" integer DEFAULT 0 NOT NULL,
	"ignore_after_service_with_duration_shorter_than" integer DEFAULT 0 NOT NULL,
	"ignore_after_service_unaccepted" boolean DEFAULT false NOT NULL,
	"enable_classifications" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"enable_comment" boolean DEFAULT false NOT NULL,
	"minimum_comment_size" integer DEFAULT 0 NOT NULL,
	"maximum_comment_size" integer DEFAULT 255 NOT NULL,
	CONSTRAINT "teams_site_name_unique" UNIQUE("site_id","name")
);
--> statement-breakpoint
CREATE TABLE "user_extras" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"login_channel_telephony" boolean DEFAULT false NOT NULL,
	"login_channel_chat" boolean DEFAULT false NOT NULL,
	"password_expire_date" timestamp with time zone,
	"password_notification_start" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"username" varchar(150) NOT NULL,
	"password" text NOT NULL,
	"first_name" varchar(150) DEFAULT '' NOT NULL,
	"last_name" varchar(150) DEFAULT '' NOT NULL,
	"email" varchar(254) DEFAULT '' NOT NULL,
	"avatar" varchar(64),
	"avatar_message" varchar(255) DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"last_login" timestamp with time zone,
	"date_joined" timestamp with time zone DEFAULT now() NOT NULL,
	"team_id" integer,
	CONSTRAINT "users_site_username_unique" UNIQUE("site_id","username")
);
--> statement-breakpoint
CREATE TABLE "voip_accounts" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"websocket" varchar(255) NOT NULL,
	"endpoint" varchar(80) NOT NULL,
	"realm" varchar(253) NOT NULL,
	"password" varchar(128) NOT NULL,
	"device_state_busy_at" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "permission_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"name" varchar(150) NOT NULL,
	"permissions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	CONSTRAINT "permission_groups_site_name_unique" UNIQUE("site_id","name")
);
--> statement-breakpoint
CREATE TABLE "user_groups" (
	"user_id" integer NOT NULL,
	"group_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	CONSTRAINT "user_groups_user_id_group_id_pk" PRIMARY KEY("user_id","group_id")
);
--> statement-breakpoint
CREATE TABLE "auth_tokens" (
	"key_hash" text PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"key_hash" text PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"csrf_token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "teams" ADD CONSTRAINT "teams_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_extras" ADD CONSTRAINT "user_extras_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_extras" ADD CONSTRAINT "user_extras_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voip_accounts" ADD CONSTRAINT "voip_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voip_accounts" ADD CONSTRAINT "voip_accounts_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "permission_groups" ADD CONSTRAINT "permission_groups_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_groups" ADD CONSTRAINT "user_groups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_groups" ADD CONSTRAINT "user_groups_group_id_permission_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."permission_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_groups" ADD CONSTRAINT "user_groups_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_tokens" ADD CONSTRAINT "auth_tokens_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_tokens" ADD CONSTRAINT "auth_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "users_team_idx" ON "users" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "auth_tokens_user_idx" ON "auth_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");