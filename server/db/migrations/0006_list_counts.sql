CREATE TABLE "list_counts" (
	"table_name" text NOT NULL,
	"site_id" integer NOT NULL,
	"n" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "list_counts_table_site_idx" ON "list_counts" USING btree ("table_name","site_id");--> statement-breakpoint
CREATE OR REPLACE FUNCTION list_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO list_counts (table_name, site_id, n) SELECT TG_TABLE_NAME, site_id, count(*) FROM new_rows GROUP BY site_id;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO list_counts (table_name, site_id, n) SELECT TG_TABLE_NAME, site_id, -count(*) FROM old_rows GROUP BY site_id;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO list_counts (table_name, site_id, n)
      SELECT TG_TABLE_NAME, site_id, sum(d) FROM (SELECT site_id, 1 AS d FROM new_rows UNION ALL SELECT site_id, -1 FROM old_rows) moved
      GROUP BY site_id HAVING sum(d) <> 0;
  ELSE
    DELETE FROM list_counts WHERE table_name = TG_TABLE_NAME;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['business_contracts', 'business_departments', 'crm_interactions', 'crm_organizations', 'crm_products', 'crm_status', 'crm_tags', 'service_blacklists', 'service_calendars', 'service_forms', 'service_kpi', 'service_operations', 'service_pauses', 'service_team_permissions', 'service_classifications', 'service_sub_classifications', 'service_unions', 'pabx_queues', 'chat_queues', 'service_nps_telephony', 'service_nps_chat', 'pabx_devices', 'pabx_trunks', 'pabx_voicemails', 'pabx_call_groups', 'pabx_call_group_members', 'pabx_call_group_permissions', 'pabx_detours', 'pabx_inbound_routes', 'pabx_numbers', 'pabx_outbound_routes', 'pabx_outbound_route_trunks', 'pabx_moh', 'pabx_moh_entries', 'pabx_sounds', 'pabx_sounds_entries', 'pabx_ivrs', 'chat_bots', 'chat_channels', 'chat_flows', 'chat_groups', 'chat_inbounds', 'chat_messages', 'chat_templates', 'integration_events', 'integration_integrations', 'integration_proxies'] LOOP
    EXECUTE format('CREATE TRIGGER list_counts_insert AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track()', t);
    EXECUTE format('CREATE TRIGGER list_counts_delete AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track()', t);
    EXECUTE format('CREATE TRIGGER list_counts_update AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track()', t);
    EXECUTE format('CREATE TRIGGER list_counts_truncate AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION list_counts_track()', t);
    EXECUTE format('INSERT INTO list_counts (table_name, site_id, n) SELECT %L, site_id, count(*) FROM %I GROUP BY site_id', t, t);
  END LOOP;
END
$$;
