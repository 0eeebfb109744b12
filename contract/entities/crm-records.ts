import { defineEntity, opt, t } from './define.ts'
import { choice, datetime, description, field, fk, integer, isActive, items, many, text, textarea } from './fields.ts'

// The CRM's own records (spec 000 §2 /clients, /leads, /interactions; §3 Lead): the customers agents serve, the
// mailing lists the dialer works, their leads, and the free-form interactions kept about a customer. They live at
// homes of their own (the same generic list and form as the settings), except mailings, which are a CRM setting.
// Clients and leads carry the spec's codenames (000 §6): sites.view_client, sites.view_mailingclient.

const NAME = t('Nome', 'Name', 'Nombre')
const PHONES = t('Telefones', 'Phones', 'Teléfonos')

export const clients = defineEntity({
  area: 'crm',
  name: 'clients',
  model: 'client',
  permissionArea: 'sites',
  home: 'clients',
  route: '',
  section: 'crm',
  label: { singular: t('Cliente', 'Client', 'Cliente'), plural: t('Clientes', 'Clients', 'Clientes') },
  titleField: 'name',
  fields: [
    text('name', NAME, { required: true, searchable: true }),
    // Stored as digits (and a new CNPJ's letters), one per item; the same document twice flags a duplicate.
    items('documents', t('Documentos (CPF/CNPJ)', 'Documents (CPF/CNPJ)', 'Documentos (CPF/CNPJ)'), ';', {
      validation: 'cpf-cnpj',
      searchable: true,
      max: 1000,
    }),
    // Stored in E.164 (contract/phone.ts); the call and chat buttons of the form act on each.
    items('phones', PHONES, ';', { validation: 'phone', searchable: true, max: 1000, btnPhone: true, btnChat: true }),
    items('emails', t('E-mails', 'E-mails', 'Correos electrónicos'), ';', { validation: 'email', max: 2000 }),
    fk('organization', t('Organização', 'Organization', 'Organización'), 'crm.organizations', { kind: 'autocomplete' }),
    fk('status', t('Status', 'Status', 'Estado'), 'crm.status'),
    fk('owner', t('Responsável', 'Owner', 'Responsable'), 'business.users', { kind: 'autocomplete', title: 'username' }),
    many('tags', t('Etiquetas', 'Tags', 'Etiquetas'), 'crm.tags'),
    textarea('notes', t('Observações', 'Notes', 'Observaciones')),
    // Custom fields: a form of the form builder, and the values typed in it (an object keyed by the form's field names).
    fk('form', t('Formulário de campos adicionais', 'Custom fields form', 'Formulario de campos adicionales'), 'service.forms'),
    field('form_data', 'hidden', t('Campos adicionais', 'Custom fields', 'Campos adicionales'), { storage: 'jsonb' }),
  ],
  list: { columns: ['id', 'name', 'documents', 'phones', 'status', 'owner'], ordering: ['-id'] },
  form: {
    tabs: [
      {
        key: 'general',
        label: t('Geral', 'General', 'General'),
        fields: ['name', 'documents', 'phones', 'emails', 'organization', 'status', 'owner', 'tags', 'notes'],
      },
      { key: 'custom', label: t('Campos adicionais', 'Custom fields', 'Campos adicionales'), fields: ['form', 'form_data'] },
    ],
  },
})

export const mailings = defineEntity({
  area: 'crm',
  name: 'mailings',
  model: 'mailing',
  route: 'crm/mailings',
  label: { singular: t('Mailing', 'Mailing list', 'Mailing'), plural: t('Mailings', 'Mailing lists', 'Mailings') },
  fields: [
    description(),
    isActive(),
    fk('form', t('Formulário', 'Form', 'Formulario'), 'service.forms'),
    datetime('start_date', t('Data inicial', 'Start date', 'Fecha inicial')),
    datetime('end_date', t('Data final', 'End date', 'Fecha final')),
    textarea('notes', t('Observações', 'Notes', 'Observaciones')),
  ],
})

/** A lead's place in the dialer's work (the dialer issue moves it). */
export const LEAD_STATUSES = ['pending', 'in_progress', 'done', 'inactive'] as const

export const leads = defineEntity({
  area: 'crm',
  name: 'leads',
  model: 'mailingclient',
  permissionArea: 'sites',
  home: 'leads',
  route: '',
  section: 'crm',
  label: { singular: t('Lead', 'Lead', 'Lead'), plural: t('Leads', 'Leads', 'Leads') },
  titleField: 'name',
  fields: [
    fk('mailing', t('Mailing', 'Mailing list', 'Mailing'), 'crm.mailings', { required: true, onDelete: 'cascade' }),
    fk('client', t('Cliente', 'Client', 'Cliente'), 'crm.clients', { kind: 'autocomplete', title: 'name' }),
    text('name', NAME, { required: true, searchable: true }),
    text('surname', t('Sobrenome', 'Surname', 'Apellido'), { searchable: true }),
    items('phones', PHONES, ';', { validation: 'phone', searchable: true, max: 1000, btnPhone: true, btnChat: true }),
    integer('attempts', t('Tentativas', 'Call attempts', 'Intentos'), { default: 0 }),
    choice(
      'status',
      t('Status', 'Status', 'Estado'),
      [
        opt('pending', 'Pendente', 'Pending', 'Pendiente'),
        opt('in_progress', 'Em andamento', 'In progress', 'En curso'),
        opt('done', 'Finalizado', 'Done', 'Finalizado'),
        opt('inactive', 'Inativo', 'Inactive', 'Inactivo'),
      ],
      { default: 'pending', required: true },
    ),
    // The columns of the imported row the layout mapped to no field, kept for the call form.
    field('data', 'hidden', t('Dados adicionais', 'Extra data', 'Datos adicionales'), { storage: 'jsonb' }),
  ],
  list: { columns: ['id', 'name', 'surname', 'mailing', 'client', 'attempts', 'status'], ordering: ['-id'] },
})

export const clientInteractions = defineEntity({
  area: 'crm',
  name: 'client-interactions',
  model: 'clientinteraction',
  home: 'interactions',
  route: '',
  section: 'crm',
  label: { singular: t('Interação', 'Interaction', 'Interacción'), plural: t('Interações', 'Interactions', 'Interacciones') },
  titleField: 'subject',
  fields: [
    fk('interaction', t('Tipo', 'Type', 'Tipo'), 'crm.interactions', { required: true }),
    text('subject', t('Assunto', 'Subject', 'Asunto'), { required: true, searchable: true }),
    textarea('text', t('Texto', 'Text', 'Texto')),
    fk('client', t('Cliente', 'Client', 'Cliente'), 'crm.clients', { kind: 'autocomplete', title: 'name' }),
    // The call (call_records.id) and the chat (chat_rooms.id) it is about, when it came from one.
    field('call_id', 'hidden', t('Chamada', 'Call', 'Llamada'), { storage: 'int' }),
    field('chat_id', 'hidden', t('Conversa', 'Chat', 'Conversación'), { storage: 'int' }),
    // The interaction type's form, filled in (an object keyed by the form's field names); the renderer draws the
    // type's form here (src/features/crm/InteractionCustomFields.tsx). Files are kept beside the record, several per
    // interaction (crm_interaction_attachments, server/crm/interaction-files.ts).
    field('form_data', 'hidden', t('Campos adicionais', 'Custom fields', 'Campos adicionales'), { storage: 'jsonb' }),
  ],
  list: { columns: ['id', 'interaction', 'subject', 'client'], ordering: ['-id'] },
})

export const CRM_RECORDS = [clients, mailings, leads, clientInteractions] as const
