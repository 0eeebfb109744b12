CREATE TABLE "crm_client_interactions" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"interaction_id" integer NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"attachment" text,
	"client_id" integer,
	"call_id" integer,
	"chat_id" integer,
	"form_data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "crm_clients" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"documents" text DEFAULT '' NOT NULL,
	"phones" text DEFAULT '' NOT NULL,
	"emails" text DEFAULT '' NOT NULL,
	"organization_id" integer,
	"status_id" integer,
	"owner_id" integer,
	"notes" text DEFAULT '' NOT NULL,
	"form_id" integer,
	"form_data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "crm_clients_tags" (
	"client_id" integer NOT NULL,
	"tag_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	CONSTRAINT "crm_clients_tags_client_id_tag_id_pk" PRIMARY KEY("client_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "crm_leads" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"mailing_id" integer NOT NULL,
	"client_id" integer,
	"name" text DEFAULT '' NOT NULL,
	"surname" text DEFAULT '' NOT NULL,
	"phones" text DEFAULT '' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "crm_mailings" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"form_id" integer,
	"start_date" timestamp with time zone,
	"end_date" timestamp with time zone,
	"notes" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "crm_client_keys" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"kind" varchar(16) NOT NULL,
	"value" varchar(32) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "crm_client_merges" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"merged_client_id" integer NOT NULL,
	"merged_record" jsonb NOT NULL,
	"moved" jsonb NOT NULL,
	"user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "call_records" ADD COLUMN "client_id" integer;--> statement-breakpoint
ALTER TABLE "call_records" ADD COLUMN "lead_id" integer;--> statement-breakpoint
ALTER TABLE "chat_rooms" ADD COLUMN "client_id" integer;--> statement-breakpoint
ALTER TABLE "crm_client_interactions" ADD CONSTRAINT "crm_client_interactions_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_client_interactions" ADD CONSTRAINT "crm_client_interactions_interaction_id_crm_interactions_id_fk" FOREIGN KEY ("interaction_id") REFERENCES "public"."crm_interactions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_client_interactions" ADD CONSTRAINT "crm_client_interactions_client_id_crm_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."crm_clients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_clients" ADD CONSTRAINT "crm_clients_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_clients" ADD CONSTRAINT "crm_clients_organization_id_crm_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."crm_organizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_clients" ADD CONSTRAINT "crm_clients_status_id_crm_status_id_fk" FOREIGN KEY ("status_id") REFERENCES "public"."crm_status"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_clients" ADD CONSTRAINT "crm_clients_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_clients" ADD CONSTRAINT "crm_clients_form_id_service_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."service_forms"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_clients_tags" ADD CONSTRAINT "crm_clients_tags_client_id_crm_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."crm_clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_clients_tags" ADD CONSTRAINT "crm_clients_tags_tag_id_crm_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."crm_tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_clients_tags" ADD CONSTRAINT "crm_clients_tags_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_leads" ADD CONSTRAINT "crm_leads_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_leads" ADD CONSTRAINT "crm_leads_mailing_id_crm_mailings_id_fk" FOREIGN KEY ("mailing_id") REFERENCES "public"."crm_mailings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_leads" ADD CONSTRAINT "crm_leads_client_id_crm_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."crm_clients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_mailings" ADD CONSTRAINT "crm_mailings_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_mailings" ADD CONSTRAINT "crm_mailings_form_id_service_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."service_forms"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_client_keys" ADD CONSTRAINT "crm_client_keys_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_client_keys" ADD CONSTRAINT "crm_client_keys_client_id_crm_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."crm_clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_client_merges" ADD CONSTRAINT "crm_client_merges_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_client_merges" ADD CONSTRAINT "crm_client_merges_client_id_crm_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."crm_clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_client_merges" ADD CONSTRAINT "crm_client_merges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "crm_client_interactions_interaction_id_idx" ON "crm_client_interactions" USING btree ("interaction_id");--> statement-breakpoint
CREATE INDEX "crm_client_interactions_client_id_idx" ON "crm_client_interactions" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "crm_client_interactions_list_order_idx" ON "crm_client_interactions" USING btree ("site_id","id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "crm_client_interactions_subject_trgm_idx" ON "crm_client_interactions" USING gin ("subject" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "crm_clients_organization_id_idx" ON "crm_clients" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "crm_clients_status_id_idx" ON "crm_clients" USING btree ("status_id");--> statement-breakpoint
CREATE INDEX "crm_clients_owner_id_idx" ON "crm_clients" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "crm_clients_form_id_idx" ON "crm_clients" USING btree ("form_id");--> statement-breakpoint
CREATE INDEX "crm_clients_list_order_idx" ON "crm_clients" USING btree ("site_id","id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "crm_clients_name_trgm_idx" ON "crm_clients" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "crm_clients_documents_trgm_idx" ON "crm_clients" USING gin ("documents" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "crm_clients_phones_trgm_idx" ON "crm_clients" USING gin ("phones" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "crm_clients_tags_tag_id_idx" ON "crm_clients_tags" USING btree ("tag_id");--> statement-breakpoint
CREATE INDEX "crm_leads_mailing_id_idx" ON "crm_leads" USING btree ("mailing_id");--> statement-breakpoint
CREATE INDEX "crm_leads_client_id_idx" ON "crm_leads" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "crm_leads_list_order_idx" ON "crm_leads" USING btree ("site_id","id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "crm_leads_name_trgm_idx" ON "crm_leads" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "crm_leads_surname_trgm_idx" ON "crm_leads" USING gin ("surname" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "crm_leads_phones_trgm_idx" ON "crm_leads" USING gin ("phones" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "crm_mailings_form_id_idx" ON "crm_mailings" USING btree ("form_id");--> statement-breakpoint
CREATE INDEX "crm_mailings_list_order_idx" ON "crm_mailings" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "crm_mailings_description_trgm_idx" ON "crm_mailings" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "crm_client_keys_unique" ON "crm_client_keys" USING btree ("client_id","kind","value");--> statement-breakpoint
CREATE INDEX "crm_client_keys_lookup_idx" ON "crm_client_keys" USING btree ("site_id","kind","value");--> statement-breakpoint
CREATE INDEX "crm_client_merges_client_idx" ON "crm_client_merges" USING btree ("client_id","created_at" DESC NULLS LAST);--> statement-breakpoint
-- Before the CRM, activities named clients, mailings and leads by bare ids no table held: none can be kept.
UPDATE "activities" SET "client_id" = NULL, "mailing_id" = NULL, "mailing_client_id" = NULL WHERE "client_id" IS NOT NULL OR "mailing_id" IS NOT NULL OR "mailing_client_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_client_id_crm_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."crm_clients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_mailing_id_crm_mailings_id_fk" FOREIGN KEY ("mailing_id") REFERENCES "public"."crm_mailings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_mailing_client_id_crm_leads_id_fk" FOREIGN KEY ("mailing_client_id") REFERENCES "public"."crm_leads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_records" ADD CONSTRAINT "call_records_client_id_crm_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."crm_clients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_records" ADD CONSTRAINT "call_records_lead_id_crm_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."crm_leads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_rooms" ADD CONSTRAINT "chat_rooms_client_id_crm_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."crm_clients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activities_client_idx" ON "activities" USING btree ("client_id","start" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "activities"."client_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "call_records_client_idx" ON "call_records" USING btree ("client_id","started_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "call_records"."client_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "call_records_lead_idx" ON "call_records" USING btree ("lead_id","started_at" DESC NULLS LAST) WHERE "call_records"."lead_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "chat_rooms_client_idx" ON "chat_rooms" USING btree ("client_id","started_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "chat_rooms"."client_id" IS NOT NULL;--> statement-breakpoint
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['crm_clients', 'crm_mailings', 'crm_leads', 'crm_client_interactions'] LOOP
    EXECUTE format('CREATE TRIGGER list_counts_insert AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track()', t);
    EXECUTE format('CREATE TRIGGER list_counts_delete AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track()', t);
    EXECUTE format('CREATE TRIGGER list_counts_update AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track()', t);
    EXECUTE format('CREATE TRIGGER list_counts_truncate AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track()', t);
    EXECUTE format('INSERT INTO list_counts (table_name, site_id, n) SELECT %L, site_id, count(*) FROM %I GROUP BY site_id', t, t);
  END LOOP;
END
$$;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "crm_mailings_list_id_idx" ON "crm_mailings" USING btree ("id") INCLUDE ("site_id");
