CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX "business_contracts_site_id_idx";--> statement-breakpoint
DROP INDEX "business_departments_site_id_idx";--> statement-breakpoint
DROP INDEX "chat_bots_site_id_idx";--> statement-breakpoint
DROP INDEX "chat_channels_site_id_idx";--> statement-breakpoint
DROP INDEX "chat_flows_site_id_idx";--> statement-breakpoint
DROP INDEX "chat_groups_site_id_idx";--> statement-breakpoint
DROP INDEX "chat_inbounds_site_id_idx";--> statement-breakpoint
DROP INDEX "chat_messages_site_id_idx";--> statement-breakpoint
DROP INDEX "chat_queues_site_id_idx";--> statement-breakpoint
DROP INDEX "chat_templates_site_id_idx";--> statement-breakpoint
DROP INDEX "crm_interactions_site_id_idx";--> statement-breakpoint
DROP INDEX "crm_organizations_site_id_idx";--> statement-breakpoint
DROP INDEX "crm_products_site_id_idx";--> statement-breakpoint
DROP INDEX "crm_status_site_id_idx";--> statement-breakpoint
DROP INDEX "crm_tags_site_id_idx";--> statement-breakpoint
DROP INDEX "integration_events_site_id_idx";--> statement-breakpoint
DROP INDEX "integration_integrations_site_id_idx";--> statement-breakpoint
DROP INDEX "integration_proxies_site_id_idx";--> statement-breakpoint
DROP INDEX "pabx_call_group_members_site_id_idx";--> statement-breakpoint
DROP INDEX "pabx_call_group_permissions_site_id_idx";--> statement-breakpoint
DROP INDEX "pabx_call_groups_site_id_idx";--> statement-breakpoint
DROP INDEX "pabx_detours_site_id_idx";--> statement-breakpoint
DROP INDEX "pabx_devices_site_id_idx";--> statement-breakpoint
DROP INDEX "pabx_inbound_routes_site_id_idx";--> statement-breakpoint
DROP INDEX "pabx_ivrs_site_id_idx";--> statement-breakpoint
DROP INDEX "pabx_moh_site_id_idx";--> statement-breakpoint
DROP INDEX "pabx_moh_entries_site_id_idx";--> statement-breakpoint
DROP INDEX "pabx_numbers_site_id_idx";--> statement-breakpoint
DROP INDEX "pabx_outbound_route_trunks_site_id_idx";--> statement-breakpoint
DROP INDEX "pabx_outbound_routes_site_id_idx";--> statement-breakpoint
DROP INDEX "pabx_queues_site_id_idx";--> statement-breakpoint
DROP INDEX "pabx_sounds_site_id_idx";--> statement-breakpoint
DROP INDEX "pabx_sounds_entries_site_id_idx";--> statement-breakpoint
DROP INDEX "pabx_trunks_site_id_idx";--> statement-breakpoint
DROP INDEX "pabx_voicemails_site_id_idx";--> statement-breakpoint
DROP INDEX "service_blacklists_site_id_idx";--> statement-breakpoint
DROP INDEX "service_calendars_site_id_idx";--> statement-breakpoint
DROP INDEX "service_classifications_site_id_idx";--> statement-breakpoint
DROP INDEX "service_forms_site_id_idx";--> statement-breakpoint
DROP INDEX "service_kpi_site_id_idx";--> statement-breakpoint
DROP INDEX "service_nps_chat_site_id_idx";--> statement-breakpoint
DROP INDEX "service_nps_telephony_site_id_idx";--> statement-breakpoint
DROP INDEX "service_operations_site_id_idx";--> statement-breakpoint
DROP INDEX "service_pauses_site_id_idx";--> statement-breakpoint
DROP INDEX "service_sub_classifications_site_id_idx";--> statement-breakpoint
DROP INDEX "service_team_permissions_site_id_idx";--> statement-breakpoint
DROP INDEX "service_unions_site_id_idx";--> statement-breakpoint
CREATE INDEX "business_contracts_list_order_idx" ON "business_contracts" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "business_contracts_description_trgm_idx" ON "business_contracts" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "business_contracts_code_trgm_idx" ON "business_contracts" USING gin ("code" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "business_departments_list_order_idx" ON "business_departments" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "business_departments_description_trgm_idx" ON "business_departments" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "chat_bots_list_order_idx" ON "chat_bots" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "chat_bots_description_trgm_idx" ON "chat_bots" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "chat_channels_list_order_idx" ON "chat_channels" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "chat_channels_description_trgm_idx" ON "chat_channels" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "chat_flows_list_order_idx" ON "chat_flows" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "chat_flows_description_trgm_idx" ON "chat_flows" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "chat_groups_list_order_idx" ON "chat_groups" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "chat_groups_description_trgm_idx" ON "chat_groups" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "chat_inbounds_list_order_idx" ON "chat_inbounds" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "chat_inbounds_description_trgm_idx" ON "chat_inbounds" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "chat_messages_list_order_idx" ON "chat_messages" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "chat_messages_description_trgm_idx" ON "chat_messages" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "chat_messages_shortcut_trgm_idx" ON "chat_messages" USING gin ("shortcut" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "chat_messages_content_trgm_idx" ON "chat_messages" USING gin ("content" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "chat_queues_list_order_idx" ON "chat_queues" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "chat_queues_description_trgm_idx" ON "chat_queues" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "chat_templates_list_order_idx" ON "chat_templates" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "chat_templates_description_trgm_idx" ON "chat_templates" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "crm_interactions_list_order_idx" ON "crm_interactions" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "crm_interactions_description_trgm_idx" ON "crm_interactions" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "crm_organizations_list_order_idx" ON "crm_organizations" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "crm_organizations_description_trgm_idx" ON "crm_organizations" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "crm_organizations_trade_name_trgm_idx" ON "crm_organizations" USING gin ("trade_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "crm_organizations_document_trgm_idx" ON "crm_organizations" USING gin ("document" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "crm_products_list_order_idx" ON "crm_products" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "crm_products_description_trgm_idx" ON "crm_products" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "crm_products_code_trgm_idx" ON "crm_products" USING gin ("code" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "crm_status_list_order_idx" ON "crm_status" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "crm_status_description_trgm_idx" ON "crm_status" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "crm_tags_list_order_idx" ON "crm_tags" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "crm_tags_description_trgm_idx" ON "crm_tags" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "integration_events_list_order_idx" ON "integration_events" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "integration_events_description_trgm_idx" ON "integration_events" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "integration_integrations_list_order_idx" ON "integration_integrations" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "integration_integrations_description_trgm_idx" ON "integration_integrations" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "integration_proxies_list_order_idx" ON "integration_proxies" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "integration_proxies_description_trgm_idx" ON "integration_proxies" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "pabx_call_group_members_list_order_idx" ON "pabx_call_group_members" USING btree ("site_id","order","id");--> statement-breakpoint
CREATE INDEX "pabx_call_group_permissions_list_order_idx" ON "pabx_call_group_permissions" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "pabx_call_groups_list_order_idx" ON "pabx_call_groups" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "pabx_call_groups_description_trgm_idx" ON "pabx_call_groups" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "pabx_detours_list_order_idx" ON "pabx_detours" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "pabx_detours_description_trgm_idx" ON "pabx_detours" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "pabx_devices_list_order_idx" ON "pabx_devices" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "pabx_devices_description_trgm_idx" ON "pabx_devices" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "pabx_devices_username_trgm_idx" ON "pabx_devices" USING gin ("username" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "pabx_inbound_routes_list_order_idx" ON "pabx_inbound_routes" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "pabx_inbound_routes_description_trgm_idx" ON "pabx_inbound_routes" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "pabx_ivrs_list_order_idx" ON "pabx_ivrs" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "pabx_ivrs_description_trgm_idx" ON "pabx_ivrs" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "pabx_moh_list_order_idx" ON "pabx_moh" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "pabx_moh_description_trgm_idx" ON "pabx_moh" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "pabx_moh_entries_list_order_idx" ON "pabx_moh_entries" USING btree ("site_id","order","id");--> statement-breakpoint
CREATE INDEX "pabx_moh_entries_description_trgm_idx" ON "pabx_moh_entries" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "pabx_numbers_list_order_idx" ON "pabx_numbers" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "pabx_numbers_number_trgm_idx" ON "pabx_numbers" USING gin ("number" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "pabx_numbers_description_trgm_idx" ON "pabx_numbers" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "pabx_outbound_route_trunks_list_order_idx" ON "pabx_outbound_route_trunks" USING btree ("site_id","order","id");--> statement-breakpoint
CREATE INDEX "pabx_outbound_routes_list_order_idx" ON "pabx_outbound_routes" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "pabx_outbound_routes_description_trgm_idx" ON "pabx_outbound_routes" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "pabx_queues_list_order_idx" ON "pabx_queues" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "pabx_queues_description_trgm_idx" ON "pabx_queues" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "pabx_sounds_list_order_idx" ON "pabx_sounds" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "pabx_sounds_description_trgm_idx" ON "pabx_sounds" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "pabx_sounds_entries_list_order_idx" ON "pabx_sounds_entries" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "pabx_sounds_entries_description_trgm_idx" ON "pabx_sounds_entries" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "pabx_trunks_list_order_idx" ON "pabx_trunks" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "pabx_trunks_description_trgm_idx" ON "pabx_trunks" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "pabx_trunks_host_trgm_idx" ON "pabx_trunks" USING gin ("host" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "pabx_voicemails_list_order_idx" ON "pabx_voicemails" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "pabx_voicemails_description_trgm_idx" ON "pabx_voicemails" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "pabx_voicemails_mailbox_trgm_idx" ON "pabx_voicemails" USING gin ("mailbox" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "service_blacklists_list_order_idx" ON "service_blacklists" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "service_blacklists_description_trgm_idx" ON "service_blacklists" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "service_blacklists_phones_trgm_idx" ON "service_blacklists" USING gin ("phones" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "service_calendars_list_order_idx" ON "service_calendars" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "service_calendars_description_trgm_idx" ON "service_calendars" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "service_classifications_list_order_idx" ON "service_classifications" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "service_classifications_description_trgm_idx" ON "service_classifications" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "service_forms_list_order_idx" ON "service_forms" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "service_forms_description_trgm_idx" ON "service_forms" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "service_kpi_list_order_idx" ON "service_kpi" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "service_kpi_description_trgm_idx" ON "service_kpi" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "service_nps_chat_list_order_idx" ON "service_nps_chat" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "service_nps_chat_description_trgm_idx" ON "service_nps_chat" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "service_nps_telephony_list_order_idx" ON "service_nps_telephony" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "service_nps_telephony_description_trgm_idx" ON "service_nps_telephony" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "service_operations_list_order_idx" ON "service_operations" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "service_operations_description_trgm_idx" ON "service_operations" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "service_pauses_list_order_idx" ON "service_pauses" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "service_pauses_description_trgm_idx" ON "service_pauses" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "service_sub_classifications_list_order_idx" ON "service_sub_classifications" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "service_sub_classifications_description_trgm_idx" ON "service_sub_classifications" USING gin ("description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "service_team_permissions_list_order_idx" ON "service_team_permissions" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "service_unions_list_order_idx" ON "service_unions" USING btree ("site_id","is_active" DESC NULLS FIRST,"id");