CREATE TABLE "crm_interaction_attachments" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"interaction_id" integer NOT NULL,
	"name" text NOT NULL,
	"stored" varchar(40) NOT NULL,
	"mime" varchar(64) NOT NULL,
	"size" integer NOT NULL,
	"user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "crm_interaction_attachments" ADD CONSTRAINT "crm_interaction_attachments_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_interaction_attachments" ADD CONSTRAINT "crm_interaction_attachments_interaction_id_crm_client_interactions_id_fk" FOREIGN KEY ("interaction_id") REFERENCES "public"."crm_client_interactions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_interaction_attachments" ADD CONSTRAINT "crm_interaction_attachments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "crm_interaction_attachments_interaction_idx" ON "crm_interaction_attachments" USING btree ("interaction_id","id");--> statement-breakpoint
ALTER TABLE "crm_client_interactions" DROP COLUMN "attachment";