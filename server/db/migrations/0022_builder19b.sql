CREATE TABLE "builder_dashboard_pages_inside_pages" (
	"dashboardpage_id" integer NOT NULL,
	"target_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	CONSTRAINT "builder_dashboard_pages_inside_pages_dashboardpage_id_target_id_pk" PRIMARY KEY("dashboardpage_id","target_id")
);
--> statement-breakpoint
CREATE TABLE "builder_homepages" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"page_id" integer NOT NULL,
	"team_id" integer,
	"user_id" integer,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "builder_report_pages_inside_pages" (
	"reportpage_id" integer NOT NULL,
	"target_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	CONSTRAINT "builder_report_pages_inside_pages_reportpage_id_target_id_pk" PRIMARY KEY("reportpage_id","target_id")
);
--> statement-breakpoint
ALTER TABLE "builder_dashboard_categories" ADD COLUMN "parent_id" integer;--> statement-breakpoint
ALTER TABLE "builder_report_categories" ADD COLUMN "parent_id" integer;--> statement-breakpoint
ALTER TABLE "builder_dashboard_pages_inside_pages" ADD CONSTRAINT "builder_dashboard_pages_inside_pages_dashboardpage_id_builder_dashboard_pages_id_fk" FOREIGN KEY ("dashboardpage_id") REFERENCES "public"."builder_dashboard_pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_dashboard_pages_inside_pages" ADD CONSTRAINT "builder_dashboard_pages_inside_pages_target_id_builder_dashboard_pages_id_fk" FOREIGN KEY ("target_id") REFERENCES "public"."builder_dashboard_pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_dashboard_pages_inside_pages" ADD CONSTRAINT "builder_dashboard_pages_inside_pages_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_homepages" ADD CONSTRAINT "builder_homepages_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_homepages" ADD CONSTRAINT "builder_homepages_page_id_builder_dashboard_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."builder_dashboard_pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_homepages" ADD CONSTRAINT "builder_homepages_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_homepages" ADD CONSTRAINT "builder_homepages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_report_pages_inside_pages" ADD CONSTRAINT "builder_report_pages_inside_pages_reportpage_id_builder_report_pages_id_fk" FOREIGN KEY ("reportpage_id") REFERENCES "public"."builder_report_pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_report_pages_inside_pages" ADD CONSTRAINT "builder_report_pages_inside_pages_target_id_builder_report_pages_id_fk" FOREIGN KEY ("target_id") REFERENCES "public"."builder_report_pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_report_pages_inside_pages" ADD CONSTRAINT "builder_report_pages_inside_pages_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "builder_dashboard_pages_inside_pages_target_id_idx" ON "builder_dashboard_pages_inside_pages" USING btree ("target_id");--> statement-breakpoint
CREATE INDEX "builder_homepages_page_id_idx" ON "builder_homepages" USING btree ("page_id");--> statement-breakpoint
CREATE INDEX "builder_homepages_team_id_idx" ON "builder_homepages" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "builder_homepages_user_id_idx" ON "builder_homepages" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "builder_homepages_list_order_idx" ON "builder_homepages" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "builder_homepages_description_trgm_idx" ON "builder_homepages" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "builder_report_pages_inside_pages_target_id_idx" ON "builder_report_pages_inside_pages" USING btree ("target_id");--> statement-breakpoint
ALTER TABLE "builder_dashboard_categories" ADD CONSTRAINT "builder_dashboard_categories_parent_id_builder_dashboard_categories_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."builder_dashboard_categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_report_categories" ADD CONSTRAINT "builder_report_categories_parent_id_builder_report_categories_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."builder_report_categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "builder_dashboard_categories_parent_id_idx" ON "builder_dashboard_categories" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "builder_report_categories_parent_id_idx" ON "builder_report_categories" USING btree ("parent_id");
--> statement-breakpoint
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['builder_homepages'] LOOP
    EXECUTE format('CREATE TRIGGER list_counts_insert AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track()', t);
    EXECUTE format('CREATE TRIGGER list_counts_delete AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track()', t);
    EXECUTE format('CREATE TRIGGER list_counts_update AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track()', t);
    EXECUTE format('CREATE TRIGGER list_counts_truncate AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track()', t);
    EXECUTE format('INSERT INTO list_counts (table_name, site_id, n) SELECT %L, site_id, count(*) FROM %I GROUP BY site_id', t, t);
  END LOOP;
END
$$;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "builder_homepages_list_id_idx" ON "builder_homepages" USING btree ("id") INCLUDE ("site_id");
