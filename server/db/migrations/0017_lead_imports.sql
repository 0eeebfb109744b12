CREATE TABLE "service_shipments_layouts" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"name_column" text DEFAULT '' NOT NULL,
	"surname_column" text DEFAULT '' NOT NULL,
	"phone_columns" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "crm_lead_imports" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"mailing_id" integer NOT NULL,
	"layout_id" integer,
	"layout" jsonb NOT NULL,
	"user_id" integer,
	"lang" varchar(8) DEFAULT 'pt-BR' NOT NULL,
	"file_name" varchar(255) DEFAULT '' NOT NULL,
	"stored_name" varchar(64) NOT NULL,
	"status" varchar(16) DEFAULT 'queued' NOT NULL,
	"total_bytes" bigint DEFAULT 0 NOT NULL,
	"read_bytes" bigint DEFAULT 0 NOT NULL,
	"rows_read" integer DEFAULT 0 NOT NULL,
	"rows_imported" integer DEFAULT 0 NOT NULL,
	"rows_failed" integer DEFAULT 0 NOT NULL,
	"error" jsonb,
	"attempts" integer DEFAULT 0 NOT NULL,
	"heartbeat_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "service_shipments_layouts" ADD CONSTRAINT "service_shipments_layouts_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_lead_imports" ADD CONSTRAINT "crm_lead_imports_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_lead_imports" ADD CONSTRAINT "crm_lead_imports_mailing_id_crm_mailings_id_fk" FOREIGN KEY ("mailing_id") REFERENCES "public"."crm_mailings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_lead_imports" ADD CONSTRAINT "crm_lead_imports_layout_id_service_shipments_layouts_id_fk" FOREIGN KEY ("layout_id") REFERENCES "public"."service_shipments_layouts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_lead_imports" ADD CONSTRAINT "crm_lead_imports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "service_shipments_layouts_list_order_idx" ON "service_shipments_layouts" USING btree ("site_id","id");--> statement-breakpoint
CREATE INDEX "service_shipments_layouts_description_trgm_idx" ON "service_shipments_layouts" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "crm_lead_imports_site_idx" ON "crm_lead_imports" USING btree ("site_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "crm_lead_imports_status_idx" ON "crm_lead_imports" USING btree ("status");--> statement-breakpoint
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['service_shipments_layouts'] LOOP
    EXECUTE format('CREATE TRIGGER list_counts_insert AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track()', t);
    EXECUTE format('CREATE TRIGGER list_counts_delete AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track()', t);
    EXECUTE format('CREATE TRIGGER list_counts_update AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track()', t);
    EXECUTE format('CREATE TRIGGER list_counts_truncate AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track()', t);
    EXECUTE format('INSERT INTO list_counts (table_name, site_id, n) SELECT %L, site_id, count(*) FROM %I GROUP BY site_id', t, t);
  END LOOP;
END
$$;

