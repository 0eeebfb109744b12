-- ordering=id within a site: (id) INCLUDE (site_id) on every generated table (server/db/entity-schema/list-id-index.ts).
CREATE INDEX IF NOT EXISTS "business_contracts_list_id_idx" ON "business_contracts" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "business_departments_list_id_idx" ON "business_departments" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "crm_interactions_list_id_idx" ON "crm_interactions" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "crm_organizations_list_id_idx" ON "crm_organizations" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "crm_products_list_id_idx" ON "crm_products" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "crm_status_list_id_idx" ON "crm_status" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "crm_tags_list_id_idx" ON "crm_tags" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "service_blacklists_list_id_idx" ON "service_blacklists" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "service_calendars_list_id_idx" ON "service_calendars" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "service_forms_list_id_idx" ON "service_forms" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "service_kpi_list_id_idx" ON "service_kpi" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "service_operations_list_id_idx" ON "service_operations" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "service_pauses_list_id_idx" ON "service_pauses" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "service_team_permissions_list_id_idx" ON "service_team_permissions" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "service_classifications_list_id_idx" ON "service_classifications" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "service_sub_classifications_list_id_idx" ON "service_sub_classifications" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "service_unions_list_id_idx" ON "service_unions" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "pabx_queues_list_id_idx" ON "pabx_queues" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "chat_queues_list_id_idx" ON "chat_queues" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "service_nps_telephony_list_id_idx" ON "service_nps_telephony" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "service_nps_chat_list_id_idx" ON "service_nps_chat" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "pabx_devices_list_id_idx" ON "pabx_devices" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "pabx_trunks_list_id_idx" ON "pabx_trunks" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "pabx_voicemails_list_id_idx" ON "pabx_voicemails" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "pabx_call_groups_list_id_idx" ON "pabx_call_groups" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "pabx_call_group_members_list_id_idx" ON "pabx_call_group_members" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "pabx_call_group_permissions_list_id_idx" ON "pabx_call_group_permissions" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "pabx_detours_list_id_idx" ON "pabx_detours" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "pabx_inbound_routes_list_id_idx" ON "pabx_inbound_routes" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "pabx_numbers_list_id_idx" ON "pabx_numbers" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "pabx_outbound_routes_list_id_idx" ON "pabx_outbound_routes" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "pabx_outbound_route_trunks_list_id_idx" ON "pabx_outbound_route_trunks" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "pabx_moh_list_id_idx" ON "pabx_moh" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "pabx_moh_entries_list_id_idx" ON "pabx_moh_entries" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "pabx_sounds_list_id_idx" ON "pabx_sounds" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "pabx_sounds_entries_list_id_idx" ON "pabx_sounds_entries" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "pabx_ivrs_list_id_idx" ON "pabx_ivrs" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "chat_bots_list_id_idx" ON "chat_bots" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "chat_channels_list_id_idx" ON "chat_channels" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "chat_flows_list_id_idx" ON "chat_flows" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "chat_groups_list_id_idx" ON "chat_groups" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "chat_inbounds_list_id_idx" ON "chat_inbounds" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "chat_messages_list_id_idx" ON "chat_messages" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "chat_templates_list_id_idx" ON "chat_templates" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "integration_events_list_id_idx" ON "integration_events" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "integration_integrations_list_id_idx" ON "integration_integrations" USING btree ("id") INCLUDE ("site_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "integration_proxies_list_id_idx" ON "integration_proxies" USING btree ("id") INCLUDE ("site_id");
