// Generated from contract/entities by `node server/db/entity-schema/generate.ts`; do not edit by hand.
// Storage conventions: server/db/entity-schema/plan.ts. Entities mapped onto older tables: bridge.ts.
import { sql } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import { boolean, index, integer, jsonb, numeric, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { sites } from './sites.ts'
import { users } from './users.ts'
import { teams } from './teams.ts'
import { permissionGroups } from './groups.ts'

// business.contracts: Contracts
export const businessContracts = pgTable(
  'business_contracts',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    code: text('code').notNull().default(''),
    organizationId: integer('organization_id').notNull().references((): AnyPgColumn => crmOrganizations.id, { onDelete: 'restrict' }),
    startDate: timestamp('start_date', { withTimezone: true }),
    endDate: timestamp('end_date', { withTimezone: true }),
    monthlyValue: numeric('monthly_value', { mode: 'number' }),
    notes: text('notes').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('business_contracts_organization_id_idx').on(t.organizationId),
    index('business_contracts_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('business_contracts_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
    index('business_contracts_code_trgm_idx').using('gin', t.code.op('gin_trgm_ops')),
    uniqueIndex('business_contracts_code_unique').on(t.siteId, t.code).where(sql`${t.code} <> ''`),
  ],
)

// business.departments: Departments
export const businessDepartments = pgTable(
  'business_departments',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    managerId: integer('manager_id').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    email: text('email').notNull().default(''),
    phone: text('phone').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('business_departments_manager_id_idx').on(t.managerId),
    index('business_departments_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('business_departments_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// business.users.chat_channels (m2m)
export const usersChatChannels = pgTable(
  'users_chat_channels',
  {
    userId: integer('user_id').notNull().references((): AnyPgColumn => users.id, { onDelete: 'cascade' }),
    channelId: integer('channel_id').notNull().references((): AnyPgColumn => chatChannels.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.channelId] }),
    index('users_chat_channels_channel_id_idx').on(t.channelId),
  ],
)

// crm.interactions: Interactions
export const crmInteractions = pgTable(
  'crm_interactions',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    slug: text('slug').notNull().default(''),
    formId: integer('form_id').notNull().references((): AnyPgColumn => serviceForms.id, { onDelete: 'restrict' }),
    icon: text('icon').notNull().default(''),
    color: text('color').notNull().default(''),
    showInMenu: boolean('show_in_menu').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('crm_interactions_form_id_idx').on(t.formId),
    index('crm_interactions_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('crm_interactions_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
    uniqueIndex('crm_interactions_slug_unique').on(t.siteId, t.slug),
  ],
)

// crm.organizations: Organizations
export const crmOrganizations = pgTable(
  'crm_organizations',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    tradeName: text('trade_name').notNull().default(''),
    document: text('document').notNull().default(''),
    email: text('email').notNull().default(''),
    phones: text('phones').notNull().default(''),
    website: text('website').notNull().default(''),
    zipCode: text('zip_code').notNull().default(''),
    address: text('address').notNull().default(''),
    number: text('number').notNull().default(''),
    complement: text('complement').notNull().default(''),
    district: text('district').notNull().default(''),
    city: text('city').notNull().default(''),
    state: text('state').notNull().default(''),
    notes: text('notes').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('crm_organizations_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('crm_organizations_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
    index('crm_organizations_trade_name_trgm_idx').using('gin', t.tradeName.op('gin_trgm_ops')),
    index('crm_organizations_document_trgm_idx').using('gin', t.document.op('gin_trgm_ops')),
    uniqueIndex('crm_organizations_document_unique').on(t.siteId, t.document).where(sql`${t.document} <> ''`),
  ],
)

// crm.organizations.tags (m2m)
export const crmOrganizationsTags = pgTable(
  'crm_organizations_tags',
  {
    organizationId: integer('organization_id').notNull().references((): AnyPgColumn => crmOrganizations.id, { onDelete: 'cascade' }),
    tagId: integer('tag_id').notNull().references((): AnyPgColumn => crmTags.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.tagId] }),
    index('crm_organizations_tags_tag_id_idx').on(t.tagId),
  ],
)

// crm.products: Products
export const crmProducts = pgTable(
  'crm_products',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    code: text('code').notNull().default(''),
    price: numeric('price', { mode: 'number' }),
    details: text('details').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('crm_products_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('crm_products_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
    index('crm_products_code_trgm_idx').using('gin', t.code.op('gin_trgm_ops')),
    uniqueIndex('crm_products_code_unique').on(t.siteId, t.code).where(sql`${t.code} <> ''`),
  ],
)

// crm.status: Statuses
export const crmStatus = pgTable(
  'crm_status',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    color: text('color').notNull().default(''),
    order: integer('order').notNull().default(0),
    isFinal: boolean('is_final').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('crm_status_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('crm_status_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// crm.tags: Tags
export const crmTags = pgTable(
  'crm_tags',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    color: text('color').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('crm_tags_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('crm_tags_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
    uniqueIndex('crm_tags_description_unique').on(t.siteId, t.description),
  ],
)

// crm.clients: Clients
export const crmClients = pgTable(
  'crm_clients',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    name: text('name').notNull().default(''),
    documents: text('documents').notNull().default(''),
    phones: text('phones').notNull().default(''),
    emails: text('emails').notNull().default(''),
    organizationId: integer('organization_id').references((): AnyPgColumn => crmOrganizations.id, { onDelete: 'set null' }),
    statusId: integer('status_id').references((): AnyPgColumn => crmStatus.id, { onDelete: 'set null' }),
    ownerId: integer('owner_id').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    notes: text('notes').notNull().default(''),
    formId: integer('form_id').references((): AnyPgColumn => serviceForms.id, { onDelete: 'set null' }),
    formData: jsonb('form_data').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('crm_clients_organization_id_idx').on(t.organizationId),
    index('crm_clients_status_id_idx').on(t.statusId),
    index('crm_clients_owner_id_idx').on(t.ownerId),
    index('crm_clients_form_id_idx').on(t.formId),
    index('crm_clients_list_order_idx').on(t.siteId, t.id.desc().nullsFirst()),
    index('crm_clients_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    index('crm_clients_documents_trgm_idx').using('gin', t.documents.op('gin_trgm_ops')),
    index('crm_clients_phones_trgm_idx').using('gin', t.phones.op('gin_trgm_ops')),
  ],
)

// crm.clients.tags (m2m)
export const crmClientsTags = pgTable(
  'crm_clients_tags',
  {
    clientId: integer('client_id').notNull().references((): AnyPgColumn => crmClients.id, { onDelete: 'cascade' }),
    tagId: integer('tag_id').notNull().references((): AnyPgColumn => crmTags.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.clientId, t.tagId] }),
    index('crm_clients_tags_tag_id_idx').on(t.tagId),
  ],
)

// crm.mailings: Mailing lists
export const crmMailings = pgTable(
  'crm_mailings',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    formId: integer('form_id').references((): AnyPgColumn => serviceForms.id, { onDelete: 'set null' }),
    startDate: timestamp('start_date', { withTimezone: true }),
    endDate: timestamp('end_date', { withTimezone: true }),
    notes: text('notes').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('crm_mailings_form_id_idx').on(t.formId),
    index('crm_mailings_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('crm_mailings_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// crm.leads: Leads
export const crmLeads = pgTable(
  'crm_leads',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    mailingId: integer('mailing_id').notNull().references((): AnyPgColumn => crmMailings.id, { onDelete: 'cascade' }),
    clientId: integer('client_id').references((): AnyPgColumn => crmClients.id, { onDelete: 'set null' }),
    name: text('name').notNull().default(''),
    surname: text('surname').notNull().default(''),
    phones: text('phones').notNull().default(''),
    attempts: integer('attempts').notNull().default(0),
    status: text('status').notNull().default('pending'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('crm_leads_mailing_id_idx').on(t.mailingId),
    index('crm_leads_client_id_idx').on(t.clientId),
    index('crm_leads_list_order_idx').on(t.siteId, t.id.desc().nullsFirst()),
    index('crm_leads_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    index('crm_leads_surname_trgm_idx').using('gin', t.surname.op('gin_trgm_ops')),
    index('crm_leads_phones_trgm_idx').using('gin', t.phones.op('gin_trgm_ops')),
  ],
)

// crm.client-interactions: Interactions
export const crmClientInteractions = pgTable(
  'crm_client_interactions',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    interactionId: integer('interaction_id').notNull().references((): AnyPgColumn => crmInteractions.id, { onDelete: 'restrict' }),
    subject: text('subject').notNull().default(''),
    text: text('text').notNull().default(''),
    clientId: integer('client_id').references((): AnyPgColumn => crmClients.id, { onDelete: 'set null' }),
    callId: integer('call_id'),
    chatId: integer('chat_id'),
    formData: jsonb('form_data').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('crm_client_interactions_interaction_id_idx').on(t.interactionId),
    index('crm_client_interactions_client_id_idx').on(t.clientId),
    index('crm_client_interactions_list_order_idx').on(t.siteId, t.id.desc().nullsFirst()),
    index('crm_client_interactions_subject_trgm_idx').using('gin', t.subject.op('gin_trgm_ops')),
  ],
)

// service.shipments-layouts: Import layouts
export const serviceShipmentsLayouts = pgTable(
  'service_shipments_layouts',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    nameColumn: text('name_column').notNull().default(''),
    surnameColumn: text('surname_column').notNull().default(''),
    phoneColumns: text('phone_columns').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('service_shipments_layouts_list_order_idx').on(t.siteId, t.id),
    index('service_shipments_layouts_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// service.shipments-campaigns: Campaigns
export const serviceShipmentsCampaigns = pgTable(
  'service_shipments_campaigns',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    mode: text('mode').notNull().default('progressive'),
    queueId: integer('queue_id').notNull().references((): AnyPgColumn => pabxQueues.id, { onDelete: 'restrict' }),
    outboundRouteId: integer('outbound_route_id').references((): AnyPgColumn => pabxOutboundRoutes.id, { onDelete: 'set null' }),
    callerId: text('caller_id').notNull().default(''),
    calendarId: integer('calendar_id').references((): AnyPgColumn => serviceCalendars.id, { onDelete: 'set null' }),
    formId: integer('form_id').references((): AnyPgColumn => serviceForms.id, { onDelete: 'set null' }),
    ratio: integer('ratio').notNull().default(2),
    previewCountdown: integer('preview_countdown').notNull().default(0),
    amd: boolean('amd').notNull().default(false),
    maxAttempts: integer('max_attempts').notNull().default(3),
    minInterval: integer('min_interval').notNull().default(30),
    dialTime: integer('dial_time').notNull().default(30),
    inactivateByDuration: integer('inactivate_by_duration').notNull().default(0),
    maxAbandonRate: integer('max_abandon_rate').notNull().default(3),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('service_shipments_campaigns_queue_id_idx').on(t.queueId),
    index('service_shipments_campaigns_outbound_route_id_idx').on(t.outboundRouteId),
    index('service_shipments_campaigns_calendar_id_idx').on(t.calendarId),
    index('service_shipments_campaigns_form_id_idx').on(t.formId),
    index('service_shipments_campaigns_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('service_shipments_campaigns_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// service.shipments-campaigns.mailings (m2m)
export const serviceShipmentsCampaignsMailings = pgTable(
  'service_shipments_campaigns_mailings',
  {
    campaignId: integer('campaign_id').notNull().references((): AnyPgColumn => serviceShipmentsCampaigns.id, { onDelete: 'cascade' }),
    mailingId: integer('mailing_id').notNull().references((): AnyPgColumn => crmMailings.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.campaignId, t.mailingId] }),
    index('service_shipments_campaigns_mailings_mailing_id_idx').on(t.mailingId),
  ],
)

// service.chats-campaigns: WhatsApp campaigns
export const serviceChatsCampaigns = pgTable(
  'service_chats_campaigns',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    channelId: integer('channel_id').notNull().references((): AnyPgColumn => chatChannels.id, { onDelete: 'restrict' }),
    templateId: integer('template_id').notNull().references((): AnyPgColumn => chatTemplates.id, { onDelete: 'restrict' }),
    queueId: integer('queue_id').notNull().references((): AnyPgColumn => chatQueues.id, { onDelete: 'restrict' }),
    replyWaitHours: integer('reply_wait_hours').notNull().default(72),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('service_chats_campaigns_channel_id_idx').on(t.channelId),
    index('service_chats_campaigns_template_id_idx').on(t.templateId),
    index('service_chats_campaigns_queue_id_idx').on(t.queueId),
    index('service_chats_campaigns_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('service_chats_campaigns_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// service.chats-campaigns.mailings (m2m)
export const serviceChatsCampaignsMailings = pgTable(
  'service_chats_campaigns_mailings',
  {
    chatcampaignId: integer('chatcampaign_id').notNull().references((): AnyPgColumn => serviceChatsCampaigns.id, { onDelete: 'cascade' }),
    mailingId: integer('mailing_id').notNull().references((): AnyPgColumn => crmMailings.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.chatcampaignId, t.mailingId] }),
    index('service_chats_campaigns_mailings_mailing_id_idx').on(t.mailingId),
  ],
)

// service.chats-campaigns.params (rows)
export const serviceChatsCampaignsParams = pgTable(
  'service_chats_campaigns_params',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    chatcampaignId: integer('chatcampaign_id').notNull().references((): AnyPgColumn => serviceChatsCampaigns.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
    name: text('name').notNull().default(''),
    leadField: text('lead_field').notNull().default(''),
    value: text('value').notNull().default(''),
  },
  (t) => [
    index('service_chats_campaigns_params_site_id_idx').on(t.siteId),
    index('service_chats_campaigns_params_chatcampaign_id_idx').on(t.chatcampaignId),
  ],
)

// service.blacklists: Blocklists
export const serviceBlacklists = pgTable(
  'service_blacklists',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    phones: text('phones').notNull().default(''),
    direction: text('direction').notNull().default('both'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('service_blacklists_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('service_blacklists_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
    index('service_blacklists_phones_trgm_idx').using('gin', t.phones.op('gin_trgm_ops')),
  ],
)

// service.calendars: Calendars
export const serviceCalendars = pgTable(
  'service_calendars',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    timezone: text('timezone').notNull().default('America/Sao_Paulo'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('service_calendars_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('service_calendars_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// service.calendars.hours (rows)
export const serviceCalendarsHours = pgTable(
  'service_calendars_hours',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    calendarId: integer('calendar_id').notNull().references((): AnyPgColumn => serviceCalendars.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
    weekday: integer('weekday'),
    start: text('start').notNull().default(''),
    end: text('end').notNull().default(''),
  },
  (t) => [
    index('service_calendars_hours_site_id_idx').on(t.siteId),
    index('service_calendars_hours_calendar_id_idx').on(t.calendarId),
  ],
)

// service.calendars.holidays (rows)
export const serviceCalendarsHolidays = pgTable(
  'service_calendars_holidays',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    calendarId: integer('calendar_id').notNull().references((): AnyPgColumn => serviceCalendars.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
    description: text('description').notNull().default(''),
    start: timestamp('start', { withTimezone: true }),
    end: timestamp('end', { withTimezone: true }),
    yearly: boolean('yearly').notNull().default(false),
  },
  (t) => [
    index('service_calendars_holidays_site_id_idx').on(t.siteId),
    index('service_calendars_holidays_calendar_id_idx').on(t.calendarId),
  ],
)

// service.forms: Forms
export const serviceForms = pgTable(
  'service_forms',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('service_forms_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('service_forms_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// service.forms.fields (rows)
export const serviceFormsFields = pgTable(
  'service_forms_fields',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    formId: integer('form_id').notNull().references((): AnyPgColumn => serviceForms.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
    name: text('name').notNull().default(''),
    label: text('label').notNull().default(''),
    type: text('type').notNull().default('text'),
    tab: text('tab').notNull().default(''),
    cols: integer('cols').notNull().default(12),
    required: boolean('required').notNull().default(false),
    readonly: boolean('readonly').notNull().default(false),
    multiple: boolean('multiple').notNull().default(false),
    min: integer('min'),
    max: integer('max'),
    value: text('value').notNull().default(''),
    options: text('options').notNull().default(''),
    mask: text('mask').notNull().default(''),
    validation: text('validation').notNull().default(''),
    delimiters: text('delimiters').notNull().default(''),
    api: text('api').notNull().default(''),
    returnObject: boolean('return_object').notNull().default(false),
    returnToString: boolean('return_to_string').notNull().default(false),
    dateFormat: text('date_format').notNull().default(''),
    cryptography: boolean('cryptography').notNull().default(false),
    btnPhone: boolean('btn_phone').notNull().default(false),
    btnChat: boolean('btn_chat').notNull().default(false),
  },
  (t) => [
    index('service_forms_fields_site_id_idx').on(t.siteId),
    index('service_forms_fields_form_id_idx').on(t.formId),
  ],
)

// service.kpi: KPIs
export const serviceKpi = pgTable(
  'service_kpi',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    metric: text('metric').notNull().default(''),
    channel: text('channel').notNull().default('telephony'),
    serviceLevelSeconds: integer('service_level_seconds').notNull().default(20),
    target: numeric('target', { mode: 'number' }),
    warning: numeric('warning', { mode: 'number' }),
    higherIsBetter: boolean('higher_is_better').notNull().default(true),
    period: text('period').notNull().default('day'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('service_kpi_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('service_kpi_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// service.kpi.queues (m2m)
export const serviceKpiQueues = pgTable(
  'service_kpi_queues',
  {
    kpiId: integer('kpi_id').notNull().references((): AnyPgColumn => serviceKpi.id, { onDelete: 'cascade' }),
    queueId: integer('queue_id').notNull().references((): AnyPgColumn => pabxQueues.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.kpiId, t.queueId] }),
    index('service_kpi_queues_queue_id_idx').on(t.queueId),
  ],
)

// service.kpi.chat_queues (m2m)
export const serviceKpiChatQueues = pgTable(
  'service_kpi_chat_queues',
  {
    kpiId: integer('kpi_id').notNull().references((): AnyPgColumn => serviceKpi.id, { onDelete: 'cascade' }),
    queueId: integer('queue_id').notNull().references((): AnyPgColumn => chatQueues.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.kpiId, t.queueId] }),
    index('service_kpi_chat_queues_queue_id_idx').on(t.queueId),
  ],
)

// service.operations: Operations
export const serviceOperations = pgTable(
  'service_operations',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    contractId: integer('contract_id').references((): AnyPgColumn => businessContracts.id, { onDelete: 'set null' }),
    departmentId: integer('department_id').references((): AnyPgColumn => businessDepartments.id, { onDelete: 'set null' }),
    calendarId: integer('calendar_id').references((): AnyPgColumn => serviceCalendars.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('service_operations_contract_id_idx').on(t.contractId),
    index('service_operations_department_id_idx').on(t.departmentId),
    index('service_operations_calendar_id_idx').on(t.calendarId),
    index('service_operations_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('service_operations_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// service.operations.teams (m2m)
export const serviceOperationsTeams = pgTable(
  'service_operations_teams',
  {
    operationId: integer('operation_id').notNull().references((): AnyPgColumn => serviceOperations.id, { onDelete: 'cascade' }),
    teamId: integer('team_id').notNull().references((): AnyPgColumn => teams.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.operationId, t.teamId] }),
    index('service_operations_teams_team_id_idx').on(t.teamId),
  ],
)

// service.operations.supervisors (m2m)
export const serviceOperationsSupervisors = pgTable(
  'service_operations_supervisors',
  {
    operationId: integer('operation_id').notNull().references((): AnyPgColumn => serviceOperations.id, { onDelete: 'cascade' }),
    userId: integer('user_id').notNull().references((): AnyPgColumn => users.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.operationId, t.userId] }),
    index('service_operations_supervisors_user_id_idx').on(t.userId),
  ],
)

// service.pauses: Breaks
export const servicePauses = pgTable(
  'service_pauses',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    maximumDuration: integer('maximum_duration').notNull().default(0),
    color: text('color').notNull().default(''),
    productive: boolean('productive').notNull().default(false),
    agentCanStart: boolean('agent_can_start').notNull().default(true),
    enableWebphone: boolean('enable_webphone').notNull().default(true),
    allowIncomingCall: boolean('allow_incoming_call').notNull().default(false),
    allowOutgoingCall: boolean('allow_outgoing_call').notNull().default(false),
    enableWebchat: boolean('enable_webchat').notNull().default(true),
    allowIncomingChat: boolean('allow_incoming_chat').notNull().default(false),
    allowOutgoingChat: boolean('allow_outgoing_chat').notNull().default(false),
    lockScreen: boolean('lock_screen').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('service_pauses_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('service_pauses_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// service.pauses.teams (m2m)
export const servicePausesTeams = pgTable(
  'service_pauses_teams',
  {
    pauseId: integer('pause_id').notNull().references((): AnyPgColumn => servicePauses.id, { onDelete: 'cascade' }),
    teamId: integer('team_id').notNull().references((): AnyPgColumn => teams.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.pauseId, t.teamId] }),
    index('service_pauses_teams_team_id_idx').on(t.teamId),
  ],
)

// service.team-permissions: Team permissions
export const serviceTeamPermissions = pgTable(
  'service_team_permissions',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    teamId: integer('team_id').notNull().references((): AnyPgColumn => teams.id, { onDelete: 'cascade' }),
    isActive: boolean('is_active').notNull().default(true),
    destinationApp: text('destination_app').notNull().default(''),
    destinationAppdata: text('destination_appdata').notNull().default(''),
    allowCall: boolean('allow_call').notNull().default(true),
    allowTransfer: boolean('allow_transfer').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('service_team_permissions_team_id_idx').on(t.teamId),
    index('service_team_permissions_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    uniqueIndex('service_team_permissions_team_destination_unique').on(t.siteId, t.teamId, t.destinationApp, t.destinationAppdata),
  ],
)

// service.classifications: Classifications
export const serviceClassifications = pgTable(
  'service_classifications',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('service_classifications_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('service_classifications_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// service.classifications.queues (m2m)
export const serviceClassificationsQueues = pgTable(
  'service_classifications_queues',
  {
    classificationId: integer('classification_id').notNull().references((): AnyPgColumn => serviceClassifications.id, { onDelete: 'cascade' }),
    queueId: integer('queue_id').notNull().references((): AnyPgColumn => pabxQueues.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.classificationId, t.queueId] }),
    index('service_classifications_queues_queue_id_idx').on(t.queueId),
  ],
)

// service.classifications.chat_queues (m2m)
export const serviceClassificationsChatQueues = pgTable(
  'service_classifications_chat_queues',
  {
    classificationId: integer('classification_id').notNull().references((): AnyPgColumn => serviceClassifications.id, { onDelete: 'cascade' }),
    queueId: integer('queue_id').notNull().references((): AnyPgColumn => chatQueues.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.classificationId, t.queueId] }),
    index('service_classifications_chat_queues_queue_id_idx').on(t.queueId),
  ],
)

// service.classifications.mailings (m2m)
export const serviceClassificationsMailings = pgTable(
  'service_classifications_mailings',
  {
    classificationId: integer('classification_id').notNull().references((): AnyPgColumn => serviceClassifications.id, { onDelete: 'cascade' }),
    mailingId: integer('mailing_id').notNull().references((): AnyPgColumn => crmMailings.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.classificationId, t.mailingId] }),
    index('service_classifications_mailings_mailing_id_idx').on(t.mailingId),
  ],
)

// service.sub-classifications: Sub-classifications
export const serviceSubClassifications = pgTable(
  'service_sub_classifications',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    result: text('result').notNull().default('neutral'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('service_sub_classifications_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('service_sub_classifications_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// service.unions: Classification unions
export const serviceUnions = pgTable(
  'service_unions',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    classificationId: integer('classification_id').notNull().references((): AnyPgColumn => serviceClassifications.id, { onDelete: 'restrict' }),
    subClassificationId: integer('sub_classification_id').notNull().references((): AnyPgColumn => serviceSubClassifications.id, { onDelete: 'restrict' }),
    isActive: boolean('is_active').notNull().default(true),
    enableSchedule: boolean('enable_schedule').notNull().default(false),
    scheduleIntervalApplied: integer('schedule_interval_applied').notNull().default(60),
    autoRunSchedule: integer('auto_run_schedule').notNull().default(3),
    scheduleSendTo: integer('schedule_send_to').notNull().default(1),
    mailing: integer('mailing'),
    enableShortScheduleVersion: boolean('enable_short_schedule_version').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('service_unions_classification_id_idx').on(t.classificationId),
    index('service_unions_sub_classification_id_idx').on(t.subClassificationId),
    index('service_unions_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    uniqueIndex('service_unions_classification_sub_classification_unique').on(t.siteId, t.classificationId, t.subClassificationId),
  ],
)

// pabx.queues: Telephony queues
export const pabxQueues = pgTable(
  'pabx_queues',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    queueType: text('queue_type').notNull().default('inbound'),
    strategy: text('strategy').notNull().default('ringall'),
    weight: integer('weight').notNull().default(0),
    maxWaitTime: integer('max_wait_time').notNull().default(0),
    minimumCommentSize: integer('minimum_comment_size').notNull().default(0),
    maximumCommentSize: integer('maximum_comment_size').notNull().default(255),
    ringTime: integer('ring_time').notNull().default(15),
    retryTime: integer('retry_time').notNull().default(5),
    maxCallers: integer('max_callers').notNull().default(0),
    joinEmpty: boolean('join_empty').notNull().default(false),
    leaveWhenEmpty: boolean('leave_when_empty').notNull().default(false),
    overflowApp: text('overflow_app').notNull().default(''),
    overflowAppdata: text('overflow_appdata').notNull().default(''),
    mohId: integer('moh_id').references((): AnyPgColumn => pabxMoh.id, { onDelete: 'set null' }),
    announceEntryId: integer('announce_entry_id').references((): AnyPgColumn => pabxSoundsEntries.id, { onDelete: 'set null' }),
    periodicAnnounceId: integer('periodic_announce_id').references((): AnyPgColumn => pabxSoundsEntries.id, { onDelete: 'set null' }),
    periodicAnnounceFrequency: integer('periodic_announce_frequency').notNull().default(60),
    announcePosition: boolean('announce_position').notNull().default(false),
    announceHoldtime: boolean('announce_holdtime').notNull().default(false),
    language: text('language').notNull().default('pt-BR'),
    exitKey: text('exit_key').notNull().default(''),
    exitApp: text('exit_app').notNull().default(''),
    exitAppdata: text('exit_appdata').notNull().default(''),
    serviceLevel: integer('service_level').notNull().default(20),
    recordCalls: boolean('record_calls').notNull().default(true),
    npsId: integer('nps_id').references((): AnyPgColumn => serviceNpsTelephony.id, { onDelete: 'set null' }),
    formId: integer('form_id').references((): AnyPgColumn => serviceForms.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('pabx_queues_moh_id_idx').on(t.mohId),
    index('pabx_queues_announce_entry_id_idx').on(t.announceEntryId),
    index('pabx_queues_periodic_announce_id_idx').on(t.periodicAnnounceId),
    index('pabx_queues_nps_id_idx').on(t.npsId),
    index('pabx_queues_form_id_idx').on(t.formId),
    index('pabx_queues_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('pabx_queues_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// pabx.queues.teams (m2m)
export const pabxQueuesTeams = pgTable(
  'pabx_queues_teams',
  {
    queueId: integer('queue_id').notNull().references((): AnyPgColumn => pabxQueues.id, { onDelete: 'cascade' }),
    teamId: integer('team_id').notNull().references((): AnyPgColumn => teams.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.queueId, t.teamId] }),
    index('pabx_queues_teams_team_id_idx').on(t.teamId),
  ],
)

// pabx.queues.members (rows)
export const pabxQueuesMembers = pgTable(
  'pabx_queues_members',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    queueId: integer('queue_id').notNull().references((): AnyPgColumn => pabxQueues.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
    userId: integer('user_id').notNull().references((): AnyPgColumn => users.id, { onDelete: 'cascade' }),
    penalty: integer('penalty').notNull().default(0),
  },
  (t) => [
    index('pabx_queues_members_site_id_idx').on(t.siteId),
    index('pabx_queues_members_queue_id_idx').on(t.queueId),
    index('pabx_queues_members_user_id_idx').on(t.userId),
  ],
)

// chat.queues: Chat queues
export const chatQueues = pgTable(
  'chat_queues',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    queueType: text('queue_type').notNull().default('inbound'),
    strategy: text('strategy').notNull().default('ringall'),
    weight: integer('weight').notNull().default(0),
    maxWaitTime: integer('max_wait_time').notNull().default(0),
    minimumCommentSize: integer('minimum_comment_size').notNull().default(0),
    maximumCommentSize: integer('maximum_comment_size').notNull().default(255),
    ringTime: integer('ring_time').notNull().default(30),
    actionWhenTimeExpires: text('action_when_time_expires').notNull().default('nothing'),
    timeExpiresMessage: text('time_expires_message').notNull().default(''),
    overflowApp: text('overflow_app').notNull().default(''),
    overflowAppdata: text('overflow_appdata').notNull().default(''),
    announcement: text('announcement').notNull().default('no'),
    announcementType: text('announcement_type').notNull().default(''),
    announcementMessage: text('announcement_message').notNull().default(''),
    announcementFrequency: integer('announcement_frequency').notNull().default(60),
    npsId: integer('nps_id').references((): AnyPgColumn => serviceNpsChat.id, { onDelete: 'set null' }),
    formId: integer('form_id').references((): AnyPgColumn => serviceForms.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('chat_queues_nps_id_idx').on(t.npsId),
    index('chat_queues_form_id_idx').on(t.formId),
    index('chat_queues_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('chat_queues_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// chat.queues.teams (m2m)
export const chatQueuesTeams = pgTable(
  'chat_queues_teams',
  {
    queueId: integer('queue_id').notNull().references((): AnyPgColumn => chatQueues.id, { onDelete: 'cascade' }),
    teamId: integer('team_id').notNull().references((): AnyPgColumn => teams.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.queueId, t.teamId] }),
    index('chat_queues_teams_team_id_idx').on(t.teamId),
  ],
)

// chat.queues.members (rows)
export const chatQueuesMembers = pgTable(
  'chat_queues_members',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    queueId: integer('queue_id').notNull().references((): AnyPgColumn => chatQueues.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
    userId: integer('user_id').notNull().references((): AnyPgColumn => users.id, { onDelete: 'cascade' }),
    penalty: integer('penalty').notNull().default(0),
  },
  (t) => [
    index('chat_queues_members_site_id_idx').on(t.siteId),
    index('chat_queues_members_queue_id_idx').on(t.queueId),
    index('chat_queues_members_user_id_idx').on(t.userId),
  ],
)

// service.nps-telephony: Telephony NPS surveys
export const serviceNpsTelephony = pgTable(
  'service_nps_telephony',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    scale: text('scale').notNull().default('0-10'),
    questionAudioId: integer('question_audio_id').notNull().references((): AnyPgColumn => pabxSoundsEntries.id, { onDelete: 'restrict' }),
    invalidAudioId: integer('invalid_audio_id').references((): AnyPgColumn => pabxSoundsEntries.id, { onDelete: 'set null' }),
    thanksAudioId: integer('thanks_audio_id').references((): AnyPgColumn => pabxSoundsEntries.id, { onDelete: 'set null' }),
    timeout: integer('timeout').notNull().default(5),
    attempts: integer('attempts').notNull().default(3),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('service_nps_telephony_question_audio_id_idx').on(t.questionAudioId),
    index('service_nps_telephony_invalid_audio_id_idx').on(t.invalidAudioId),
    index('service_nps_telephony_thanks_audio_id_idx').on(t.thanksAudioId),
    index('service_nps_telephony_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('service_nps_telephony_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// service.nps-telephony.more_questions (rows)
export const serviceNpsTelephonyMoreQuestions = pgTable(
  'service_nps_telephony_more_questions',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    npstelephonyId: integer('npstelephony_id').notNull().references((): AnyPgColumn => serviceNpsTelephony.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
    audioId: integer('audio_id').notNull().references((): AnyPgColumn => pabxSoundsEntries.id, { onDelete: 'restrict' }),
  },
  (t) => [
    index('service_nps_telephony_more_questions_site_id_idx').on(t.siteId),
    index('service_nps_telephony_more_questions_npstelephony_id_idx').on(t.npstelephonyId),
    index('service_nps_telephony_more_questions_audio_id_idx').on(t.audioId),
  ],
)

// service.nps-chat: Chat NPS surveys
export const serviceNpsChat = pgTable(
  'service_nps_chat',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    scale: text('scale').notNull().default('0-10'),
    question: text('question').notNull().default(''),
    invalidMessage: text('invalid_message').notNull().default(''),
    thanksMessage: text('thanks_message').notNull().default(''),
    timeout: integer('timeout').notNull().default(300),
    attempts: integer('attempts').notNull().default(2),
    templateId: integer('template_id').references((): AnyPgColumn => chatTemplates.id, { onDelete: 'set null' }),
    askComment: boolean('ask_comment').notNull().default(false),
    commentQuestion: text('comment_question').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('service_nps_chat_template_id_idx').on(t.templateId),
    index('service_nps_chat_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('service_nps_chat_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// pabx.devices: Extensions
export const pabxDevices = pgTable(
  'pabx_devices',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    username: text('username').notNull().default(''),
    secret: text('secret').notNull().default(''),
    secretHa1: text('secret_ha1').notNull().default(''),
    calleridName: text('callerid_name').notNull().default(''),
    calleridNumber: text('callerid_number').notNull().default(''),
    codecs: jsonb('codecs').$type<unknown[]>().notNull().default(['PCMU','PCMA']),
    transport: text('transport').notNull().default('wss'),
    webrtc: boolean('webrtc').notNull().default(true),
    nat: boolean('nat').notNull().default(true),
    dtmfMode: text('dtmf_mode').notNull().default('rfc4733'),
    maxContacts: integer('max_contacts').notNull().default(1),
    maxConcurrentCalls: integer('max_concurrent_calls').notNull().default(2),
    deviceStateBusyAt: integer('device_state_busy_at').notNull().default(1),
    allowedIps: text('allowed_ips').notNull().default(''),
    context: text('context').notNull().default('national'),
    voicemailId: integer('voicemail_id').references((): AnyPgColumn => pabxVoicemails.id, { onDelete: 'set null' }),
    mohId: integer('moh_id').references((): AnyPgColumn => pabxMoh.id, { onDelete: 'set null' }),
    recording: text('recording').notNull().default('never'),
    language: text('language').notNull().default('pt-BR'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('pabx_devices_voicemail_id_idx').on(t.voicemailId),
    index('pabx_devices_moh_id_idx').on(t.mohId),
    index('pabx_devices_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('pabx_devices_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
    index('pabx_devices_username_trgm_idx').using('gin', t.username.op('gin_trgm_ops')),
    uniqueIndex('pabx_devices_username_unique').on(t.siteId, t.username),
  ],
)

// pabx.devices.outbound_routes (m2m)
export const pabxDevicesOutboundRoutes = pgTable(
  'pabx_devices_outbound_routes',
  {
    deviceId: integer('device_id').notNull().references((): AnyPgColumn => pabxDevices.id, { onDelete: 'cascade' }),
    outboundrouteId: integer('outboundroute_id').notNull().references((): AnyPgColumn => pabxOutboundRoutes.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.deviceId, t.outboundrouteId] }),
    index('pabx_devices_outbound_routes_outboundroute_id_idx').on(t.outboundrouteId),
  ],
)

// pabx.trunks: Trunks
export const pabxTrunks = pgTable(
  'pabx_trunks',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    host: text('host').notNull().default(''),
    port: integer('port').notNull().default(5060),
    transport: text('transport').notNull().default('udp'),
    outboundProxy: text('outbound_proxy').notNull().default(''),
    authUsername: text('auth_username').notNull().default(''),
    authSecret: text('auth_secret').notNull().default(''),
    fromUser: text('from_user').notNull().default(''),
    fromDomain: text('from_domain').notNull().default(''),
    register: boolean('register').notNull().default(false),
    registrationExpiry: integer('registration_expiry').notNull().default(3600),
    qualify: boolean('qualify').notNull().default(true),
    callerIdNumber: text('caller_id_number').notNull().default(''),
    callerIdName: text('caller_id_name').notNull().default(''),
    maxChannels: integer('max_channels').notNull().default(0),
    codecs: jsonb('codecs').$type<unknown[]>().notNull().default(['PCMA','PCMU']),
    dtmfMode: text('dtmf_mode').notNull().default('rfc4733'),
    allowedIps: text('allowed_ips').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('pabx_trunks_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('pabx_trunks_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
    index('pabx_trunks_host_trgm_idx').using('gin', t.host.op('gin_trgm_ops')),
  ],
)

// pabx.voicemails: Voicemails
export const pabxVoicemails = pgTable(
  'pabx_voicemails',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    mailbox: text('mailbox').notNull().default(''),
    pin: text('pin').notNull().default(''),
    email: text('email').notNull().default(''),
    attachAudio: boolean('attach_audio').notNull().default(true),
    deleteAfterEmail: boolean('delete_after_email').notNull().default(false),
    greetingId: integer('greeting_id').references((): AnyPgColumn => pabxSoundsEntries.id, { onDelete: 'set null' }),
    maxMessageSeconds: integer('max_message_seconds').notNull().default(180),
    maxMessages: integer('max_messages').notNull().default(100),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('pabx_voicemails_greeting_id_idx').on(t.greetingId),
    index('pabx_voicemails_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('pabx_voicemails_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
    index('pabx_voicemails_mailbox_trgm_idx').using('gin', t.mailbox.op('gin_trgm_ops')),
    uniqueIndex('pabx_voicemails_mailbox_unique').on(t.siteId, t.mailbox),
  ],
)

// pabx.call-groups: Call groups
export const pabxCallGroups = pgTable(
  'pabx_call_groups',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    number: text('number').notNull().default(''),
    strategy: text('strategy').notNull().default('ringall'),
    ringTime: integer('ring_time').notNull().default(20),
    timeoutDestinationApp: text('timeout_destination_app').notNull().default(''),
    timeoutDestinationAppdata: text('timeout_destination_appdata').notNull().default(''),
    pickup: boolean('pickup').notNull().default(true),
    mohId: integer('moh_id').references((): AnyPgColumn => pabxMoh.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('pabx_call_groups_moh_id_idx').on(t.mohId),
    index('pabx_call_groups_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('pabx_call_groups_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
    uniqueIndex('pabx_call_groups_number_unique').on(t.siteId, t.number).where(sql`${t.number} <> ''`),
  ],
)

// pabx.call-group-members: Group members
export const pabxCallGroupMembers = pgTable(
  'pabx_call_group_members',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    callGroupId: integer('call_group_id').notNull().references((): AnyPgColumn => pabxCallGroups.id, { onDelete: 'cascade' }),
    isActive: boolean('is_active').notNull().default(true),
    deviceId: integer('device_id').notNull().references((): AnyPgColumn => pabxDevices.id, { onDelete: 'cascade' }),
    order: integer('order').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('pabx_call_group_members_call_group_id_idx').on(t.callGroupId),
    index('pabx_call_group_members_device_id_idx').on(t.deviceId),
    index('pabx_call_group_members_list_order_idx').on(t.siteId, t.order, t.id),
    uniqueIndex('pabx_call_group_members_call_group_device_unique').on(t.siteId, t.callGroupId, t.deviceId),
  ],
)

// pabx.call-group-permissions: Group permissions
export const pabxCallGroupPermissions = pgTable(
  'pabx_call_group_permissions',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    callGroupId: integer('call_group_id').notNull().references((): AnyPgColumn => pabxCallGroups.id, { onDelete: 'cascade' }),
    isActive: boolean('is_active').notNull().default(true),
    destinationApp: text('destination_app').notNull().default(''),
    destinationAppdata: text('destination_appdata').notNull().default(''),
    allowCall: boolean('allow_call').notNull().default(true),
    allowTransfer: boolean('allow_transfer').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('pabx_call_group_permissions_call_group_id_idx').on(t.callGroupId),
    index('pabx_call_group_permissions_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    uniqueIndex('pabx_call_group_permissions_call_group_destination_unique').on(t.siteId, t.callGroupId, t.destinationApp, t.destinationAppdata),
  ],
)

// pabx.detours: Call forwardings
export const pabxDetours = pgTable(
  'pabx_detours',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    deviceId: integer('device_id').notNull().references((): AnyPgColumn => pabxDevices.id, { onDelete: 'cascade' }),
    condition: text('condition').notNull().default('always'),
    ringTime: integer('ring_time').notNull().default(20),
    destinationApp: text('destination_app').notNull().default(''),
    destinationAppdata: text('destination_appdata').notNull().default(''),
    calendarId: integer('calendar_id').references((): AnyPgColumn => serviceCalendars.id, { onDelete: 'set null' }),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('pabx_detours_device_id_idx').on(t.deviceId),
    index('pabx_detours_calendar_id_idx').on(t.calendarId),
    index('pabx_detours_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('pabx_detours_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// pabx.inbound-routes: Inbound routes
export const pabxInboundRoutes = pgTable(
  'pabx_inbound_routes',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    destinationApp: text('destination_app').notNull().default(''),
    destinationAppdata: text('destination_appdata').notNull().default(''),
    calendarId: integer('calendar_id').references((): AnyPgColumn => serviceCalendars.id, { onDelete: 'set null' }),
    closedDestinationApp: text('closed_destination_app').notNull().default(''),
    closedDestinationAppdata: text('closed_destination_appdata').notNull().default(''),
    callerNamePrefix: text('caller_name_prefix').notNull().default(''),
    mohId: integer('moh_id').references((): AnyPgColumn => pabxMoh.id, { onDelete: 'set null' }),
    language: text('language').notNull().default('pt-BR'),
    record: boolean('record').notNull().default(true),
    formId: integer('form_id').references((): AnyPgColumn => serviceForms.id, { onDelete: 'set null' }),
    npsId: integer('nps_id').references((): AnyPgColumn => serviceNpsTelephony.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('pabx_inbound_routes_calendar_id_idx').on(t.calendarId),
    index('pabx_inbound_routes_moh_id_idx').on(t.mohId),
    index('pabx_inbound_routes_form_id_idx').on(t.formId),
    index('pabx_inbound_routes_nps_id_idx').on(t.npsId),
    index('pabx_inbound_routes_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('pabx_inbound_routes_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// pabx.numbers: Numbers
export const pabxNumbers = pgTable(
  'pabx_numbers',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    number: text('number').notNull().default(''),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    trunkId: integer('trunk_id').references((): AnyPgColumn => pabxTrunks.id, { onDelete: 'set null' }),
    inboundRouteId: integer('inbound_route_id').notNull().references((): AnyPgColumn => pabxInboundRoutes.id, { onDelete: 'restrict' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('pabx_numbers_trunk_id_idx').on(t.trunkId),
    index('pabx_numbers_inbound_route_id_idx').on(t.inboundRouteId),
    index('pabx_numbers_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('pabx_numbers_number_trgm_idx').using('gin', t.number.op('gin_trgm_ops')),
    index('pabx_numbers_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
    uniqueIndex('pabx_numbers_number_unique').on(t.siteId, t.number),
  ],
)

// pabx.outbound-routes: Outbound routes
export const pabxOutboundRoutes = pgTable(
  'pabx_outbound_routes',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    dialPatterns: text('dial_patterns').notNull().default(''),
    strip: integer('strip').notNull().default(0),
    prefix: text('prefix').notNull().default(''),
    callerIdNumber: text('caller_id_number').notNull().default(''),
    priority: integer('priority').notNull().default(0),
    webphone: boolean('webphone').notNull().default(true),
    record: boolean('record').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('pabx_outbound_routes_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('pabx_outbound_routes_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// pabx.outbound-routes.teams (m2m)
export const pabxOutboundRoutesTeams = pgTable(
  'pabx_outbound_routes_teams',
  {
    outboundrouteId: integer('outboundroute_id').notNull().references((): AnyPgColumn => pabxOutboundRoutes.id, { onDelete: 'cascade' }),
    teamId: integer('team_id').notNull().references((): AnyPgColumn => teams.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.outboundrouteId, t.teamId] }),
    index('pabx_outbound_routes_teams_team_id_idx').on(t.teamId),
  ],
)

// pabx.outbound-route-trunks: Route trunks
export const pabxOutboundRouteTrunks = pgTable(
  'pabx_outbound_route_trunks',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    outboundRouteId: integer('outbound_route_id').notNull().references((): AnyPgColumn => pabxOutboundRoutes.id, { onDelete: 'cascade' }),
    isActive: boolean('is_active').notNull().default(true),
    trunkId: integer('trunk_id').notNull().references((): AnyPgColumn => pabxTrunks.id, { onDelete: 'restrict' }),
    order: integer('order').notNull().default(0),
    strip: integer('strip'),
    prefix: text('prefix').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('pabx_outbound_route_trunks_outbound_route_id_idx').on(t.outboundRouteId),
    index('pabx_outbound_route_trunks_trunk_id_idx').on(t.trunkId),
    index('pabx_outbound_route_trunks_list_order_idx').on(t.siteId, t.order, t.id),
    uniqueIndex('pabx_outbound_route_trunks_outbound_route_trunk_unique').on(t.siteId, t.outboundRouteId, t.trunkId),
  ],
)

// pabx.moh: Music on hold
export const pabxMoh = pgTable(
  'pabx_moh',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    shuffle: boolean('shuffle').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('pabx_moh_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('pabx_moh_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// pabx.moh-entries: Tracks
export const pabxMohEntries = pgTable(
  'pabx_moh_entries',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    mohId: integer('moh_id').notNull().references((): AnyPgColumn => pabxMoh.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    file: text('file'),
    order: integer('order').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('pabx_moh_entries_moh_id_idx').on(t.mohId),
    index('pabx_moh_entries_list_order_idx').on(t.siteId, t.order, t.id),
    index('pabx_moh_entries_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// pabx.sounds: Sounds
export const pabxSounds = pgTable(
  'pabx_sounds',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    language: text('language').notNull().default('pt-BR'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('pabx_sounds_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('pabx_sounds_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// pabx.sounds-entries: Sounds
export const pabxSoundsEntries = pgTable(
  'pabx_sounds_entries',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    soundId: integer('sound_id').notNull().references((): AnyPgColumn => pabxSounds.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    file: text('file'),
    thenApp: text('then_app').notNull().default(''),
    thenAppdata: text('then_appdata').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('pabx_sounds_entries_sound_id_idx').on(t.soundId),
    index('pabx_sounds_entries_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('pabx_sounds_entries_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// pabx.ivrs: IVRs
export const pabxIvrs = pgTable(
  'pabx_ivrs',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    greetingId: integer('greeting_id').notNull().references((): AnyPgColumn => pabxSoundsEntries.id, { onDelete: 'restrict' }),
    directDial: boolean('direct_dial').notNull().default(false),
    calendarId: integer('calendar_id').references((): AnyPgColumn => serviceCalendars.id, { onDelete: 'set null' }),
    closedDestinationApp: text('closed_destination_app').notNull().default(''),
    closedDestinationAppdata: text('closed_destination_appdata').notNull().default(''),
    timeout: integer('timeout').notNull().default(5),
    timeoutAudioId: integer('timeout_audio_id').references((): AnyPgColumn => pabxSoundsEntries.id, { onDelete: 'set null' }),
    invalidAudioId: integer('invalid_audio_id').references((): AnyPgColumn => pabxSoundsEntries.id, { onDelete: 'set null' }),
    repeatCount: integer('repeat_count').notNull().default(3),
    timeoutDestinationApp: text('timeout_destination_app').notNull().default(''),
    timeoutDestinationAppdata: text('timeout_destination_appdata').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('pabx_ivrs_greeting_id_idx').on(t.greetingId),
    index('pabx_ivrs_calendar_id_idx').on(t.calendarId),
    index('pabx_ivrs_timeout_audio_id_idx').on(t.timeoutAudioId),
    index('pabx_ivrs_invalid_audio_id_idx').on(t.invalidAudioId),
    index('pabx_ivrs_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('pabx_ivrs_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// pabx.ivrs.options (rows)
export const pabxIvrsOptions = pgTable(
  'pabx_ivrs_options',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    ivrId: integer('ivr_id').notNull().references((): AnyPgColumn => pabxIvrs.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
    digit: text('digit').notNull().default(''),
    audioId: integer('audio_id').references((): AnyPgColumn => pabxSoundsEntries.id, { onDelete: 'restrict' }),
    destinationApp: text('destination_app').notNull().default(''),
    destinationAppdata: text('destination_appdata').notNull().default(''),
  },
  (t) => [
    index('pabx_ivrs_options_site_id_idx').on(t.siteId),
    index('pabx_ivrs_options_ivr_id_idx').on(t.ivrId),
    index('pabx_ivrs_options_audio_id_idx').on(t.audioId),
  ],
)

// chat.bots: Bots
export const chatBots = pgTable(
  'chat_bots',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    url: text('url').notNull().default(''),
    authToken: text('auth_token').notNull().default(''),
    timeout: integer('timeout').notNull().default(10),
    fallbackApp: text('fallback_app').notNull().default(''),
    fallbackAppdata: text('fallback_appdata').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('chat_bots_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('chat_bots_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// chat.channels: Channels
export const chatChannels = pgTable(
  'chat_channels',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    type: text('type').notNull().default('whatsapp'),
    phoneNumber: text('phone_number').notNull().default(''),
    phoneNumberId: text('phone_number_id').notNull().default(''),
    wabaId: text('waba_id').notNull().default(''),
    accessToken: text('access_token').notNull().default(''),
    appSecret: text('app_secret').notNull().default(''),
    verifyToken: text('verify_token').notNull().default(''),
    apiVersion: text('api_version').notNull().default('v23.0'),
    graphUrl: text('graph_url').notNull().default('https://graph.facebook.com'),
    messagesPerSecond: integer('messages_per_second').notNull().default(80),
    widgetTitle: text('widget_title').notNull().default(''),
    widgetColor: text('widget_color').notNull().default('#1976d2'),
    widgetLogo: text('widget_logo'),
    welcomeMessage: text('welcome_message').notNull().default(''),
    offlineMessage: text('offline_message').notNull().default(''),
    allowedDomains: text('allowed_domains').notNull().default(''),
    requireName: boolean('require_name').notNull().default(true),
    requireEmail: boolean('require_email').notNull().default(false),
    requirePhone: boolean('require_phone').notNull().default(false),
    sendAttachment: boolean('send_attachment').notNull().default(true),
    emoji: boolean('emoji').notNull().default(true),
    sendVoice: boolean('send_voice').notNull().default(true),
    showMessageStatus: boolean('show_message_status').notNull().default(true),
    btnTemplate: boolean('btn_template').notNull().default(true),
    btnDial: boolean('btn_dial').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('chat_channels_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('chat_channels_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
    uniqueIndex('chat_channels_phone_number_id_unique').on(t.siteId, t.phoneNumberId).where(sql`${t.phoneNumberId} <> ''`),
  ],
)

// chat.flows: Flows
export const chatFlows = pgTable(
  'chat_flows',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    welcomeMessage: text('welcome_message').notNull().default(''),
    invalidMessage: text('invalid_message').notNull().default(''),
    timeout: integer('timeout').notNull().default(300),
    repeatCount: integer('repeat_count').notNull().default(3),
    timeoutDestinationApp: text('timeout_destination_app').notNull().default(''),
    timeoutDestinationAppdata: text('timeout_destination_appdata').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('chat_flows_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('chat_flows_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// chat.flows.options (rows)
export const chatFlowsOptions = pgTable(
  'chat_flows_options',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    flowId: integer('flow_id').notNull().references((): AnyPgColumn => chatFlows.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
    key: text('key').notNull().default(''),
    label: text('label').notNull().default(''),
    destinationApp: text('destination_app').notNull().default(''),
    destinationAppdata: text('destination_appdata').notNull().default(''),
  },
  (t) => [
    index('chat_flows_options_site_id_idx').on(t.siteId),
    index('chat_flows_options_flow_id_idx').on(t.flowId),
  ],
)

// chat.groups: Message groups
export const chatGroups = pgTable(
  'chat_groups',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('chat_groups_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('chat_groups_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// chat.groups.teams (m2m)
export const chatGroupsTeams = pgTable(
  'chat_groups_teams',
  {
    groupId: integer('group_id').notNull().references((): AnyPgColumn => chatGroups.id, { onDelete: 'cascade' }),
    teamId: integer('team_id').notNull().references((): AnyPgColumn => teams.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.teamId] }),
    index('chat_groups_teams_team_id_idx').on(t.teamId),
  ],
)

// chat.inbounds: Chat inbound routes
export const chatInbounds = pgTable(
  'chat_inbounds',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    channelId: integer('channel_id').notNull().references((): AnyPgColumn => chatChannels.id, { onDelete: 'restrict' }),
    destinationApp: text('destination_app').notNull().default(''),
    destinationAppdata: text('destination_appdata').notNull().default(''),
    calendarId: integer('calendar_id').references((): AnyPgColumn => serviceCalendars.id, { onDelete: 'set null' }),
    closedDestinationApp: text('closed_destination_app').notNull().default(''),
    closedDestinationAppdata: text('closed_destination_appdata').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('chat_inbounds_channel_id_idx').on(t.channelId),
    index('chat_inbounds_calendar_id_idx').on(t.calendarId),
    index('chat_inbounds_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('chat_inbounds_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
    uniqueIndex('chat_inbounds_channel_unique').on(t.siteId, t.channelId),
  ],
)

// chat.messages: Canned messages
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    groupId: integer('group_id').references((): AnyPgColumn => chatGroups.id, { onDelete: 'set null' }),
    shortcut: text('shortcut').notNull().default(''),
    content: text('content').notNull().default(''),
    attachment: text('attachment'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('chat_messages_group_id_idx').on(t.groupId),
    index('chat_messages_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('chat_messages_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
    index('chat_messages_shortcut_trgm_idx').using('gin', t.shortcut.op('gin_trgm_ops')),
    index('chat_messages_content_trgm_idx').using('gin', t.content.op('gin_trgm_ops')),
    uniqueIndex('chat_messages_shortcut_unique').on(t.siteId, t.shortcut).where(sql`${t.shortcut} <> ''`),
  ],
)

// chat.templates: Templates
export const chatTemplates = pgTable(
  'chat_templates',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    channelId: integer('channel_id').notNull().references((): AnyPgColumn => chatChannels.id, { onDelete: 'restrict' }),
    language: text('language').notNull().default('pt_BR'),
    category: text('category').notNull().default('UTILITY'),
    templateType: text('template_type').notNull().default('TEXT'),
    media: text('media'),
    content: text('content').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('chat_templates_channel_id_idx').on(t.channelId),
    index('chat_templates_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('chat_templates_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// chat.templates.teams (m2m)
export const chatTemplatesTeams = pgTable(
  'chat_templates_teams',
  {
    templateId: integer('template_id').notNull().references((): AnyPgColumn => chatTemplates.id, { onDelete: 'cascade' }),
    teamId: integer('team_id').notNull().references((): AnyPgColumn => teams.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.templateId, t.teamId] }),
    index('chat_templates_teams_team_id_idx').on(t.teamId),
  ],
)

// chat.templates.params (rows)
export const chatTemplatesParams = pgTable(
  'chat_templates_params',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    templateId: integer('template_id').notNull().references((): AnyPgColumn => chatTemplates.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
    name: text('name').notNull().default(''),
    value: text('value').notNull().default(''),
  },
  (t) => [
    index('chat_templates_params_site_id_idx').on(t.siteId),
    index('chat_templates_params_template_id_idx').on(t.templateId),
  ],
)

// integration.events: Events
export const integrationEvents = pgTable(
  'integration_events',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    eventType: text('event_type').notNull().default(''),
    integrationId: integer('integration_id').notNull().references((): AnyPgColumn => integrationIntegrations.id, { onDelete: 'restrict' }),
    method: text('method').notNull().default('POST'),
    path: text('path').notNull().default(''),
    payload: text('payload').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('integration_events_integration_id_idx').on(t.integrationId),
    index('integration_events_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('integration_events_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// integration.integrations: Integrations
export const integrationIntegrations = pgTable(
  'integration_integrations',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    baseUrl: text('base_url').notNull().default(''),
    authType: text('auth_type').notNull().default('none'),
    username: text('username').notNull().default(''),
    password: text('password').notNull().default(''),
    headerName: text('header_name').notNull().default(''),
    token: text('token').notNull().default(''),
    timeout: integer('timeout').notNull().default(10),
    verifyTls: boolean('verify_tls').notNull().default(true),
    proxyId: integer('proxy_id').references((): AnyPgColumn => integrationProxies.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('integration_integrations_proxy_id_idx').on(t.proxyId),
    index('integration_integrations_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('integration_integrations_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// integration.proxies: Proxies
export const integrationProxies = pgTable(
  'integration_proxies',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    protocol: text('protocol').notNull().default('http'),
    host: text('host').notNull().default(''),
    port: integer('port').notNull().default(3128),
    username: text('username').notNull().default(''),
    password: text('password').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('integration_proxies_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('integration_proxies_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// builder.queries: Queries
export const builderQueries = pgTable(
  'builder_queries',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    dataset: text('dataset').notNull().default(''),
    period: text('period').notNull().default('today'),
    measure: text('measure').notNull().default('count'),
    measureField: text('measure_field').notNull().default(''),
    groupBy: text('group_by').notNull().default('none'),
    maxGroups: integer('max_groups').notNull().default(10),
    teamId: integer('team_id').references((): AnyPgColumn => teams.id, { onDelete: 'set null' }),
    agentId: integer('agent_id').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    queueId: integer('queue_id').references((): AnyPgColumn => pabxQueues.id, { onDelete: 'set null' }),
    chatQueueId: integer('chat_queue_id').references((): AnyPgColumn => chatQueues.id, { onDelete: 'set null' }),
    campaignId: integer('campaign_id').references((): AnyPgColumn => serviceShipmentsCampaigns.id, { onDelete: 'set null' }),
    classificationId: integer('classification_id').references((): AnyPgColumn => serviceClassifications.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('builder_queries_team_id_idx').on(t.teamId),
    index('builder_queries_agent_id_idx').on(t.agentId),
    index('builder_queries_queue_id_idx').on(t.queueId),
    index('builder_queries_chat_queue_id_idx').on(t.chatQueueId),
    index('builder_queries_campaign_id_idx').on(t.campaignId),
    index('builder_queries_classification_id_idx').on(t.classificationId),
    index('builder_queries_list_order_idx').on(t.siteId, t.id),
    index('builder_queries_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// builder.widgets: Widgets
export const builderWidgets = pgTable(
  'builder_widgets',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    type: text('type').notNull().default('number'),
    queryId: integer('query_id').references((): AnyPgColumn => builderQueries.id, { onDelete: 'restrict' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('builder_widgets_query_id_idx').on(t.queryId),
    index('builder_widgets_list_order_idx').on(t.siteId, t.id),
    index('builder_widgets_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// builder.dashboard-menus: Dashboard menus
export const builderDashboardMenus = pgTable(
  'builder_dashboard_menus',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    position: integer('position').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('builder_dashboard_menus_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('builder_dashboard_menus_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// builder.dashboard-categories: Dashboard categories
export const builderDashboardCategories = pgTable(
  'builder_dashboard_categories',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    menuId: integer('menu_id').notNull().references((): AnyPgColumn => builderDashboardMenus.id, { onDelete: 'cascade' }),
    parentId: integer('parent_id').references((): AnyPgColumn => builderDashboardCategories.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('builder_dashboard_categories_menu_id_idx').on(t.menuId),
    index('builder_dashboard_categories_parent_id_idx').on(t.parentId),
    index('builder_dashboard_categories_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('builder_dashboard_categories_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// builder.dashboard-pages: Dashboard pages
export const builderDashboardPages = pgTable(
  'builder_dashboard_pages',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    menuId: integer('menu_id').references((): AnyPgColumn => builderDashboardMenus.id, { onDelete: 'set null' }),
    categoryId: integer('category_id').references((): AnyPgColumn => builderDashboardCategories.id, { onDelete: 'set null' }),
    position: integer('position').notNull().default(0),
    permission: text('permission').notNull().default('sites.view_dashboard_supervisor'),
    refresh: integer('refresh').notNull().default(30),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('builder_dashboard_pages_menu_id_idx').on(t.menuId),
    index('builder_dashboard_pages_category_id_idx').on(t.categoryId),
    index('builder_dashboard_pages_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('builder_dashboard_pages_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// builder.dashboard-pages.inside_pages (m2m)
export const builderDashboardPagesInsidePages = pgTable(
  'builder_dashboard_pages_inside_pages',
  {
    dashboardpageId: integer('dashboardpage_id').notNull().references((): AnyPgColumn => builderDashboardPages.id, { onDelete: 'cascade' }),
    targetId: integer('target_id').notNull().references((): AnyPgColumn => builderDashboardPages.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.dashboardpageId, t.targetId] }),
    index('builder_dashboard_pages_inside_pages_target_id_idx').on(t.targetId),
  ],
)

// builder.dashboard-pages.widgets (rows)
export const builderDashboardPagesWidgets = pgTable(
  'builder_dashboard_pages_widgets',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    dashboardpageId: integer('dashboardpage_id').notNull().references((): AnyPgColumn => builderDashboardPages.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
    widgetId: integer('widget_id').notNull().references((): AnyPgColumn => builderWidgets.id, { onDelete: 'restrict' }),
    width: integer('width').notNull().default(6),
    height: integer('height').notNull().default(2),
  },
  (t) => [
    index('builder_dashboard_pages_widgets_site_id_idx').on(t.siteId),
    index('builder_dashboard_pages_widgets_dashboardpage_id_idx').on(t.dashboardpageId),
    index('builder_dashboard_pages_widgets_widget_id_idx').on(t.widgetId),
  ],
)

// builder.report-menus: Report menus
export const builderReportMenus = pgTable(
  'builder_report_menus',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    position: integer('position').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('builder_report_menus_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('builder_report_menus_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// builder.report-categories: Report categories
export const builderReportCategories = pgTable(
  'builder_report_categories',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    menuId: integer('menu_id').notNull().references((): AnyPgColumn => builderReportMenus.id, { onDelete: 'cascade' }),
    parentId: integer('parent_id').references((): AnyPgColumn => builderReportCategories.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('builder_report_categories_menu_id_idx').on(t.menuId),
    index('builder_report_categories_parent_id_idx').on(t.parentId),
    index('builder_report_categories_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('builder_report_categories_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// builder.report-pages: Report pages
export const builderReportPages = pgTable(
  'builder_report_pages',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    menuId: integer('menu_id').references((): AnyPgColumn => builderReportMenus.id, { onDelete: 'set null' }),
    categoryId: integer('category_id').references((): AnyPgColumn => builderReportCategories.id, { onDelete: 'set null' }),
    position: integer('position').notNull().default(0),
    permission: text('permission').notNull().default('sites.view_reports'),
    refresh: integer('refresh').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('builder_report_pages_menu_id_idx').on(t.menuId),
    index('builder_report_pages_category_id_idx').on(t.categoryId),
    index('builder_report_pages_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('builder_report_pages_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)

// builder.report-pages.inside_pages (m2m)
export const builderReportPagesInsidePages = pgTable(
  'builder_report_pages_inside_pages',
  {
    reportpageId: integer('reportpage_id').notNull().references((): AnyPgColumn => builderReportPages.id, { onDelete: 'cascade' }),
    targetId: integer('target_id').notNull().references((): AnyPgColumn => builderReportPages.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.reportpageId, t.targetId] }),
    index('builder_report_pages_inside_pages_target_id_idx').on(t.targetId),
  ],
)

// builder.report-pages.widgets (rows)
export const builderReportPagesWidgets = pgTable(
  'builder_report_pages_widgets',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    reportpageId: integer('reportpage_id').notNull().references((): AnyPgColumn => builderReportPages.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
    widgetId: integer('widget_id').notNull().references((): AnyPgColumn => builderWidgets.id, { onDelete: 'restrict' }),
    width: integer('width').notNull().default(6),
    height: integer('height').notNull().default(2),
  },
  (t) => [
    index('builder_report_pages_widgets_site_id_idx').on(t.siteId),
    index('builder_report_pages_widgets_reportpage_id_idx').on(t.reportpageId),
    index('builder_report_pages_widgets_widget_id_idx').on(t.widgetId),
  ],
)

// builder.homepages: Home pages
export const builderHomepages = pgTable(
  'builder_homepages',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references((): AnyPgColumn => sites.id, { onDelete: 'cascade' }),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    pageId: integer('page_id').notNull().references((): AnyPgColumn => builderDashboardPages.id, { onDelete: 'cascade' }),
    teamId: integer('team_id').references((): AnyPgColumn => teams.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references((): AnyPgColumn => users.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('builder_homepages_page_id_idx').on(t.pageId),
    index('builder_homepages_team_id_idx').on(t.teamId),
    index('builder_homepages_user_id_idx').on(t.userId),
    index('builder_homepages_list_order_idx').on(t.siteId, t.isActive.desc().nullsFirst(), t.id),
    index('builder_homepages_description_trgm_idx').using('gin', t.description.op('gin_trgm_ops')),
  ],
)
