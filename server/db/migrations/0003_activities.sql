CREATE TABLE "activities" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"destination" varchar(64) DEFAULT '' NOT NULL,
	"client_id" integer,
	"mailing_id" integer,
	"mailing_client_id" integer,
	"campaign_id" integer,
	"dialer_id" integer,
	"count" integer DEFAULT 0 NOT NULL,
	"done" boolean DEFAULT false NOT NULL,
	"start" timestamp with time zone NOT NULL,
	"end" timestamp with time zone,
	"subject" varchar(255) DEFAULT '' NOT NULL,
	"type" varchar(32) DEFAULT 'call' NOT NULL,
	"target" text DEFAULT '' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"automatic_execution" boolean DEFAULT true NOT NULL,
	"created_by" integer,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"updated" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activities_pending_idx" ON "activities" USING btree ("site_id","user_id","start") WHERE "activities"."done" = false;