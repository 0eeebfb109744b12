import { PERMISSIONS } from '../permissions.ts'
import { defineEntity, opt, t } from './define.ts'
import { choice, color, decimal, description, field, fk, integer, isActive, items, many, text, textarea, toggle } from './fields.ts'

// Settings → CRM: what clients and leads are described with.

const BR_STATES = [
  'AC',
  'AL',
  'AP',
  'AM',
  'BA',
  'CE',
  'DF',
  'ES',
  'GO',
  'MA',
  'MT',
  'MS',
  'MG',
  'PA',
  'PB',
  'PR',
  'PE',
  'PI',
  'RJ',
  'RN',
  'RS',
  'RO',
  'RR',
  'SC',
  'SP',
  'SE',
  'TO',
]

export const interactions = defineEntity({
  area: 'crm',
  name: 'interactions',
  model: 'interaction',
  route: 'crm/interactions',
  label: { singular: t('Interação', 'Interaction', 'Interacción'), plural: t('Interações', 'Interactions', 'Interacciones') },
  // Whoever keeps interactions picks their type (the record form's Tipo, the list of one type).
  readers: ['crm.view_clientinteraction'],
  fields: [
    description(),
    isActive(),
    // /interactions/:interaction_id/:slug — the slug names the page in its address.
    text('slug', t('Identificador na URL', 'URL slug', 'Identificador en la URL'), { required: true, max: 50, unique: true }),
    fk('form', t('Formulário', 'Form', 'Formulario'), 'service.forms', { required: true }),
    text('icon', t('Ícone', 'Icon', 'Icono'), { max: 50 }),
    color('color', t('Cor', 'Colour', 'Color')),
    toggle('show_in_menu', t('Mostrar no menu', 'Show in the menu', 'Mostrar en el menú'), { default: true }),
  ],
})

export const organizations = defineEntity({
  area: 'crm',
  name: 'organizations',
  model: 'organization',
  route: 'crm/organizations',
  // Whoever sees clients reads what a client's form picks from (agents create the client of an unknown number).
  readers: [PERMISSIONS.viewClient],
  label: { singular: t('Organização', 'Organization', 'Organización'), plural: t('Organizações', 'Organizations', 'Organizaciones') },
  fields: [
    description({ label: t('Razão social', 'Legal name', 'Razón social') }),
    isActive(),
    text('trade_name', t('Nome fantasia', 'Trade name', 'Nombre comercial'), { searchable: true }),
    text('document', t('CNPJ', 'CNPJ', 'CNPJ'), { validation: 'cnpj', max: 18, unique: true, searchable: true }),
    text('email', t('E-mail', 'E-mail', 'Correo electrónico'), { validation: 'email', max: 254 }),
    items('phones', t('Telefones', 'Phones', 'Teléfonos'), ';', { validation: 'phone' }),
    text('website', t('Site', 'Website', 'Sitio web'), { validation: 'url', max: 500 }),
    field('zip_code', 'mask', t('CEP', 'Postcode', 'Código postal'), { mask: '#####-###', max: 9 }),
    text('address', t('Endereço', 'Address', 'Dirección')),
    text('number', t('Número', 'Number', 'Número'), { max: 20 }),
    text('complement', t('Complemento', 'Address line 2', 'Complemento')),
    text('district', t('Bairro', 'District', 'Barrio')),
    text('city', t('Cidade', 'City', 'Ciudad'), { max: 100 }),
    choice(
      'state',
      t('UF', 'State', 'Estado'),
      BR_STATES.map((uf) => opt(uf, uf, uf, uf)),
    ),
    many('tags', t('Etiquetas', 'Tags', 'Etiquetas'), 'crm.tags'),
    textarea('notes', t('Observações', 'Notes', 'Observaciones')),
  ],
  form: {
    tabs: [
      {
        key: 'general',
        label: t('Geral', 'General', 'General'),
        fields: ['description', 'is_active', 'trade_name', 'document', 'email', 'phones', 'website', 'tags', 'notes'],
      },
      {
        key: 'address',
        label: t('Endereço', 'Address', 'Dirección'),
        fields: ['zip_code', 'address', 'number', 'complement', 'district', 'city', 'state'],
      },
    ],
  },
  list: { columns: ['id', 'is_active', 'description', 'document', 'city'] },
  importable: {
    columns: [
      'description',
      'trade_name',
      'document',
      'email',
      'phones',
      'website',
      'zip_code',
      'address',
      'number',
      'complement',
      'district',
      'city',
      'state',
    ],
  },
})

export const products = defineEntity({
  area: 'crm',
  name: 'products',
  model: 'product',
  route: 'crm/products',
  label: { singular: t('Produto', 'Product', 'Producto'), plural: t('Produtos', 'Products', 'Productos') },
  fields: [
    description(),
    isActive(),
    text('code', t('Código', 'Code', 'Código'), { max: 50, unique: true, searchable: true }),
    decimal('price', t('Preço', 'Price', 'Precio')),
    textarea('details', t('Detalhes', 'Details', 'Detalles')),
  ],
  list: { columns: ['id', 'is_active', 'description', 'code', 'price'] },
  importable: { columns: ['description', 'code', 'price', 'details'] },
})

export const status = defineEntity({
  area: 'crm',
  name: 'status',
  model: 'status',
  route: 'crm/status',
  // Whoever sees clients reads what a client's form picks from (agents create the client of an unknown number).
  readers: [PERMISSIONS.viewClient],
  label: { singular: t('Status', 'Status', 'Estado'), plural: t('Status', 'Statuses', 'Estados') },
  fields: [
    description(),
    isActive(),
    color('color', t('Cor', 'Colour', 'Color')),
    integer('order', t('Ordem', 'Order', 'Orden'), { default: 0 }),
    toggle('is_final', t('Status final', 'Final status', 'Estado final'), {
      hint: t(
        'Clientes neste status saem das listas de trabalho',
        'Clients in this status leave the work lists',
        'Los clientes en este estado salen de las listas de trabajo',
      ),
    }),
  ],
})

export const tags = defineEntity({
  area: 'crm',
  name: 'tags',
  model: 'tag',
  route: 'crm/tags',
  // Whoever sees clients reads what a client's form picks from (agents create the client of an unknown number).
  readers: [PERMISSIONS.viewClient],
  label: { singular: t('Etiqueta', 'Tag', 'Etiqueta'), plural: t('Etiquetas', 'Tags', 'Etiquetas') },
  fields: [description({ unique: true }), isActive(), color('color', t('Cor', 'Colour', 'Color'))],
})

export const CRM = [interactions, organizations, products, status, tags] as const
