CREATE TABLE "report_call_hours" (
	"site_id" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"user_id" integer DEFAULT 0 NOT NULL,
	"queue_id" integer DEFAULT 0 NOT NULL,
	"calls" integer DEFAULT 0 NOT NULL,
	"calls_answered" integer DEFAULT 0 NOT NULL,
	"wait_sum" bigint DEFAULT 0 NOT NULL,
	"wait_n" integer DEFAULT 0 NOT NULL,
	"talk_sum" bigint DEFAULT 0 NOT NULL,
	"agent_answered" integer DEFAULT 0 NOT NULL,
	"agent_talk" bigint DEFAULT 0 NOT NULL,
	"placed" integer DEFAULT 0 NOT NULL,
	"placed_answered" integer DEFAULT 0 NOT NULL,
	"placed_talk" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "report_call_hours_site_id_hour_user_id_queue_id_pk" PRIMARY KEY("site_id","hour","user_id","queue_id")
);
--> statement-breakpoint
CREATE TABLE "report_hours" (
	"site_id" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"dirty" boolean DEFAULT true NOT NULL,
	"version" bigint DEFAULT 1 NOT NULL,
	"refreshed_at" timestamp with time zone,
	CONSTRAINT "report_hours_site_id_hour_pk" PRIMARY KEY("site_id","hour")
);
--> statement-breakpoint
ALTER TABLE "report_call_hours" ADD CONSTRAINT "report_call_hours_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_hours" ADD CONSTRAINT "report_hours_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_hours_dirty_idx" ON "report_hours" USING btree ("site_id","hour") WHERE "report_hours"."dirty";--> statement-breakpoint
CREATE INDEX "call_records_after_service_started_idx" ON "call_records" USING btree ("site_id","after_service_started_at") WHERE "call_records"."after_service_started_at" IS NOT NULL;--> statement-breakpoint
-- Written by hand (drizzle-kit knows no triggers): every write to call_records marks dirty, in its own transaction,
-- the UTC hour the step started in and the hour its call's step 1 started in (server/reports/hours.ts).
CREATE FUNCTION "report_hours_mark"(p_site integer, p_at timestamptz) RETURNS void LANGUAGE sql AS $$
  INSERT INTO report_hours (site_id, hour, dirty, version)
  VALUES (p_site, date_bin('1 hour', p_at, timestamptz '2000-01-01 00:00:00+00'), true, 1)
  ON CONFLICT (site_id, hour) DO UPDATE SET dirty = true, version = report_hours.version + 1
$$;--> statement-breakpoint
CREATE FUNCTION "call_records_report_hours"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE first_at timestamptz;
BEGIN
  IF TG_OP = 'UPDATE' AND (OLD.started_at IS DISTINCT FROM NEW.started_at OR OLD.call_id <> NEW.call_id OR OLD.site_id <> NEW.site_id) THEN
    PERFORM report_hours_mark(OLD.site_id, OLD.started_at);
    SELECT started_at INTO first_at FROM call_records WHERE site_id = OLD.site_id AND call_id = OLD.call_id AND step = 1;
    IF first_at IS NOT NULL THEN PERFORM report_hours_mark(OLD.site_id, first_at); END IF;
  END IF;
  PERFORM report_hours_mark(NEW.site_id, NEW.started_at);
  IF NEW.step <> 1 THEN
    SELECT started_at INTO first_at FROM call_records WHERE site_id = NEW.site_id AND call_id = NEW.call_id AND step = 1;
    IF first_at IS NOT NULL THEN PERFORM report_hours_mark(NEW.site_id, first_at); END IF;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "call_records_report_hours" AFTER INSERT OR UPDATE ON "call_records" FOR EACH ROW EXECUTE FUNCTION "call_records_report_hours"();
--> statement-breakpoint
-- The hours of the calls written before the trigger: dirty, so the refresher builds them (until then they are read raw).
INSERT INTO "report_hours" ("site_id", "hour", "dirty", "version")
  SELECT DISTINCT "site_id", date_bin('1 hour', "started_at", timestamptz '2000-01-01 00:00:00+00'), true, 1 FROM "call_records"
  ON CONFLICT DO NOTHING;
