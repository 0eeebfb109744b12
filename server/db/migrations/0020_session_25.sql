CREATE TABLE "builder_dashboard_categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"menu_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "builder_dashboard_menus" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "builder_dashboard_pages" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"menu_id" integer,
	"category_id" integer,
	"position" integer DEFAULT 0 NOT NULL,
	"permission" text DEFAULT 'sites.view_dashboard_supervisor' NOT NULL,
	"refresh" integer DEFAULT 30 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "builder_dashboard_pages_widgets" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"dashboardpage_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"widget_id" integer NOT NULL,
	"width" integer DEFAULT 6 NOT NULL,
	"height" integer DEFAULT 2 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "builder_queries" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"dataset" text DEFAULT '' NOT NULL,
	"period" text DEFAULT 'today' NOT NULL,
	"measure" text DEFAULT 'count' NOT NULL,
	"measure_field" text DEFAULT '' NOT NULL,
	"group_by" text DEFAULT 'none' NOT NULL,
	"max_groups" integer DEFAULT 10 NOT NULL,
	"team_id" integer,
	"agent_id" integer,
	"queue_id" integer,
	"campaign_id" integer,
	"classification_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "builder_report_categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"menu_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "builder_report_menus" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "builder_report_pages" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"menu_id" integer,
	"category_id" integer,
	"position" integer DEFAULT 0 NOT NULL,
	"permission" text DEFAULT 'sites.view_reports' NOT NULL,
	"refresh" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "builder_report_pages_widgets" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"reportpage_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"widget_id" integer NOT NULL,
	"width" integer DEFAULT 6 NOT NULL,
	"height" integer DEFAULT 2 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "builder_widgets" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"type" text DEFAULT 'number' NOT NULL,
	"query_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "service_shipments_campaigns" ADD COLUMN "amd" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "report_jobs" ADD COLUMN "checksum" varchar(64) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "builder_dashboard_categories" ADD CONSTRAINT "builder_dashboard_categories_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_dashboard_categories" ADD CONSTRAINT "builder_dashboard_categories_menu_id_builder_dashboard_menus_id_fk" FOREIGN KEY ("menu_id") REFERENCES "public"."builder_dashboard_menus"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_dashboard_menus" ADD CONSTRAINT "builder_dashboard_menus_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_dashboard_pages" ADD CONSTRAINT "builder_dashboard_pages_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_dashboard_pages" ADD CONSTRAINT "builder_dashboard_pages_menu_id_builder_dashboard_menus_id_fk" FOREIGN KEY ("menu_id") REFERENCES "public"."builder_dashboard_menus"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_dashboard_pages" ADD CONSTRAINT "builder_dashboard_pages_category_id_builder_dashboard_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."builder_dashboard_categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_dashboard_pages_widgets" ADD CONSTRAINT "builder_dashboard_pages_widgets_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_dashboard_pages_widgets" ADD CONSTRAINT "builder_dashboard_pages_widgets_dashboardpage_id_builder_dashboard_pages_id_fk" FOREIGN KEY ("dashboardpage_id") REFERENCES "public"."builder_dashboard_pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_dashboard_pages_widgets" ADD CONSTRAINT "builder_dashboard_pages_widgets_widget_id_builder_widgets_id_fk" FOREIGN KEY ("widget_id") REFERENCES "public"."builder_widgets"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_queries" ADD CONSTRAINT "builder_queries_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_queries" ADD CONSTRAINT "builder_queries_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_queries" ADD CONSTRAINT "builder_queries_agent_id_users_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_queries" ADD CONSTRAINT "builder_queries_queue_id_pabx_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."pabx_queues"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_queries" ADD CONSTRAINT "builder_queries_campaign_id_service_shipments_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."service_shipments_campaigns"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_queries" ADD CONSTRAINT "builder_queries_classification_id_service_classifications_id_fk" FOREIGN KEY ("classification_id") REFERENCES "public"."service_classifications"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_report_categories" ADD CONSTRAINT "builder_report_categories_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_report_categories" ADD CONSTRAINT "builder_report_categories_menu_id_builder_report_menus_id_fk" FOREIGN KEY ("menu_id") REFERENCES "public"."builder_report_menus"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_report_menus" ADD CONSTRAINT "builder_report_menus_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_report_pages" ADD CONSTRAINT "builder_report_pages_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_report_pages" ADD CONSTRAINT "builder_report_pages_menu_id_builder_report_menus_id_fk" FOREIGN KEY ("menu_id") REFERENCES "public"."builder_report_menus"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_report_pages" ADD CONSTRAINT "builder_report_pages_category_id_builder_report_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."builder_report_categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_report_pages_widgets" ADD CONSTRAINT "builder_report_pages_widgets_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_report_pages_widgets" ADD CONSTRAINT "builder_report_pages_widgets_reportpage_id_builder_report_pages_id_fk" FOREIGN KEY ("reportpage_id") REFERENCES "public"."builder_report_pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_report_pages_widgets" ADD CONSTRAINT "builder_report_pages_widgets_widget_id_builder_widgets_id_fk" FOREIGN KEY ("widget_id") REFERENCES "public"."builder_widgets"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_widgets" ADD CONSTRAINT "builder_widgets_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "builder_widgets" ADD CONSTRAINT "builder_widgets_query_id_builder_queries_id_fk" FOREIGN KEY ("query_id") REFERENCES "public"."builder_queries"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "builder_dashboard_categories_menu_id_idx" ON "builder_dashboard_categories" USING btree ("menu_id");--> statement-breakpoint
CREATE INDEX "builder_dashboard_categories_list_order_idx" ON "builder_dashboard_categories" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "builder_dashboard_categories_description_trgm_idx" ON "builder_dashboard_categories" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "builder_dashboard_menus_list_order_idx" ON "builder_dashboard_menus" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "builder_dashboard_menus_description_trgm_idx" ON "builder_dashboard_menus" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "builder_dashboard_pages_menu_id_idx" ON "builder_dashboard_pages" USING btree ("menu_id");--> statement-breakpoint
CREATE INDEX "builder_dashboard_pages_category_id_idx" ON "builder_dashboard_pages" USING btree ("category_id");--> statement-breakpoint
CREATE INDEX "builder_dashboard_pages_list_order_idx" ON "builder_dashboard_pages" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "builder_dashboard_pages_description_trgm_idx" ON "builder_dashboard_pages" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "builder_dashboard_pages_widgets_site_id_idx" ON "builder_dashboard_pages_widgets" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "builder_dashboard_pages_widgets_dashboardpage_id_idx" ON "builder_dashboard_pages_widgets" USING btree ("dashboardpage_id");--> statement-breakpoint
CREATE INDEX "builder_dashboard_pages_widgets_widget_id_idx" ON "builder_dashboard_pages_widgets" USING btree ("widget_id");--> statement-breakpoint
CREATE INDEX "builder_queries_team_id_idx" ON "builder_queries" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "builder_queries_agent_id_idx" ON "builder_queries" USING btree ("agent_id");--> statement-breakpoint
CREATE INDEX "builder_queries_queue_id_idx" ON "builder_queries" USING btree ("queue_id");--> statement-breakpoint
CREATE INDEX "builder_queries_campaign_id_idx" ON "builder_queries" USING btree ("campaign_id");--> statement-breakpoint
CREATE INDEX "builder_queries_classification_id_idx" ON "builder_queries" USING btree ("classification_id");--> statement-breakpoint
CREATE INDEX "builder_queries_list_order_idx" ON "builder_queries" USING btree ("site_id","id");--> statement-breakpoint
CREATE INDEX "builder_queries_description_trgm_idx" ON "builder_queries" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "builder_report_categories_menu_id_idx" ON "builder_report_categories" USING btree ("menu_id");--> statement-breakpoint
CREATE INDEX "builder_report_categories_list_order_idx" ON "builder_report_categories" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "builder_report_categories_description_trgm_idx" ON "builder_report_categories" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "builder_report_menus_list_order_idx" ON "builder_report_menus" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "builder_report_menus_description_trgm_idx" ON "builder_report_menus" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "builder_report_pages_menu_id_idx" ON "builder_report_pages" USING btree ("menu_id");--> statement-breakpoint
CREATE INDEX "builder_report_pages_category_id_idx" ON "builder_report_pages" USING btree ("category_id");--> statement-breakpoint
CREATE INDEX "builder_report_pages_list_order_idx" ON "builder_report_pages" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "builder_report_pages_description_trgm_idx" ON "builder_report_pages" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "builder_report_pages_widgets_site_id_idx" ON "builder_report_pages_widgets" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "builder_report_pages_widgets_reportpage_id_idx" ON "builder_report_pages_widgets" USING btree ("reportpage_id");--> statement-breakpoint
CREATE INDEX "builder_report_pages_widgets_widget_id_idx" ON "builder_report_pages_widgets" USING btree ("widget_id");--> statement-breakpoint
CREATE INDEX "builder_widgets_query_id_idx" ON "builder_widgets" USING btree ("query_id");--> statement-breakpoint
CREATE INDEX "builder_widgets_list_order_idx" ON "builder_widgets" USING btree ("site_id","id");--> statement-breakpoint
CREATE INDEX "builder_widgets_description_trgm_idx" ON "builder_widgets" USING gin ("description" gin_trgm_ops);
--> statement-breakpoint
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['builder_queries','builder_widgets','builder_dashboard_menus','builder_dashboard_categories','builder_dashboard_pages','builder_report_menus','builder_report_categories','builder_report_pages'] LOOP
    EXECUTE format('CREATE TRIGGER list_counts_insert AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track()', t);
    EXECUTE format('CREATE TRIGGER list_counts_delete AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track()', t);
    EXECUTE format('CREATE TRIGGER list_counts_update AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track()', t);
    EXECUTE format('CREATE TRIGGER list_counts_truncate AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track()', t);
    EXECUTE format('INSERT INTO list_counts (table_name, site_id, n) SELECT %L, site_id, count(*) FROM %I GROUP BY site_id', t, t);
  END LOOP;
END
$$;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "builder_queries_list_id_idx" ON "builder_queries" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "builder_widgets_list_id_idx" ON "builder_widgets" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "builder_dashboard_menus_list_id_idx" ON "builder_dashboard_menus" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "builder_dashboard_categories_list_id_idx" ON "builder_dashboard_categories" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "builder_dashboard_pages_list_id_idx" ON "builder_dashboard_pages" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "builder_report_menus_list_id_idx" ON "builder_report_menus" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "builder_report_categories_list_id_idx" ON "builder_report_categories" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "builder_report_pages_list_id_idx" ON "builder_report_pages" USING btree ("id") INCLUDE ("site_id");
