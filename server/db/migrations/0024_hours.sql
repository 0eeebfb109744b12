CREATE TABLE "report_queue_hours" (
	"site_id" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"queue_hour" timestamp with time zone NOT NULL,
	"user_id" integer DEFAULT 0 NOT NULL,
	"queue_id" integer NOT NULL,
	"offered" integer DEFAULT 0 NOT NULL,
	"answered" integer DEFAULT 0 NOT NULL,
	"in_target" integer DEFAULT 0 NOT NULL,
	"waited_sum" numeric DEFAULT '0' NOT NULL,
	"waited_n" integer DEFAULT 0 NOT NULL,
	"talk_sum" bigint DEFAULT 0 NOT NULL,
	"acw_sum" bigint DEFAULT 0 NOT NULL,
	"acw_n" integer DEFAULT 0 NOT NULL,
	"missed" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "report_queue_hours_site_id_hour_queue_hour_user_id_queue_id_pk" PRIMARY KEY("site_id","hour","queue_hour","user_id","queue_id")
);
--> statement-breakpoint
ALTER TABLE "report_queue_hours" ADD CONSTRAINT "report_queue_hours_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Written by hand: a call's figures are counted in the hour of one of its steps (its step 1, its first step in a
-- queue, an agent's first answered step), so a write to any step marks dirty the hours of every step of its call
-- (and of the caller's call for a media leg, call-key.ts), not only its own hour and its step 1's: a later step
-- can change what an earlier hour counted. A call has a handful of steps (index call_records_call_step_unique);
-- the hours are marked in order, so two writers never wait on each other's hours crosswise.
CREATE FUNCTION "report_hours_mark_call"(p_site integer, p_call text, p_at timestamptz) RETURNS void LANGUAGE sql AS $$
  INSERT INTO report_hours (site_id, hour, dirty, version)
  SELECT p_site, x.h, true, 1 FROM (
    SELECT date_bin('1 hour', p_at, timestamptz '2000-01-01 00:00:00+00') AS h
    UNION SELECT date_bin('1 hour', started_at, timestamptz '2000-01-01 00:00:00+00') FROM call_records WHERE site_id = p_site AND call_id = p_call) x
  ORDER BY x.h
  ON CONFLICT (site_id, hour) DO UPDATE SET dirty = true, version = report_hours.version + 1
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "call_records_report_hours"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (OLD.started_at IS DISTINCT FROM NEW.started_at OR OLD.call_id <> NEW.call_id OR OLD.site_id <> NEW.site_id) THEN
    PERFORM report_hours_mark_call(OLD.site_id, OLD.call_id, OLD.started_at);
  END IF;
  PERFORM report_hours_mark_call(NEW.site_id, NEW.call_id, NEW.started_at);
  IF NEW.parent_uid IS NOT NULL THEN
    PERFORM report_hours_mark_call(p.site_id, p.call_id, p.started_at) FROM call_records p
      WHERE p.uid = NEW.parent_uid AND p.site_id = NEW.site_id AND p.call_id <> NEW.call_id;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Written by hand (drizzle-kit knows no triggers): a queue's calls are in or out of its target by the target of the
-- refresh that counted them, so changing a queue's service_level marks dirty, in the same transaction, every hour
-- holding its calls (read raw until the refresher rebuilds them with the new target; server/reports/hours.ts).
CREATE FUNCTION "pabx_queues_report_hours"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE report_hours c SET dirty = true, version = c.version + 1
  WHERE c.site_id = NEW.site_id AND c.hour IN (SELECT DISTINCT h.hour FROM report_queue_hours h WHERE h.site_id = NEW.site_id AND h.queue_id = NEW.id);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "pabx_queues_report_hours" AFTER UPDATE OF "service_level" ON "pabx_queues" FOR EACH ROW
  WHEN (OLD.service_level IS DISTINCT FROM NEW.service_level) EXECUTE FUNCTION "pabx_queues_report_hours"();
--> statement-breakpoint
-- Backfill: every hour holding a queue step is dirty again, so the refresher (or rebuild-report-hours) counts its
-- queue calls; until then those hours are read raw.
INSERT INTO "report_hours" ("site_id", "hour", "dirty", "version")
  SELECT DISTINCT "site_id", date_bin('1 hour', "started_at", timestamptz '2000-01-01 00:00:00+00'), true, 1 FROM "call_records" WHERE "queue_id" IS NOT NULL
  ON CONFLICT ("site_id", "hour") DO UPDATE SET "dirty" = true, "version" = "report_hours"."version" + 1;
