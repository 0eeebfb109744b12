import { defineEntity, t } from './define.ts'
import { description, items, text } from './fields.ts'

// Settings → service → shipments (spec 000 §2 service/shipments/layout): how the columns of a CSV of leads map to a
// lead's fields. A layout is saved once and chosen at each import into a mailing (server/crm/lead-import/); columns
// it maps to no field are kept in the lead's `data` for the call form. Column names match the header case-insensitively.

export const leadLayouts = defineEntity({
  area: 'service',
  name: 'shipments-layouts',
  model: 'layout',
  route: 'service/shipments/layout',
  label: { singular: t('Layout de importação', 'Import layout', 'Diseño de importación'), plural: t('Layouts de importação', 'Import layouts', 'Diseños de importación') },
  fields: [
    description(),
    text('name_column', t('Coluna do nome', 'Name column', 'Columna del nombre'), { required: true, max: 100 }),
    text('surname_column', t('Coluna do sobrenome', 'Surname column', 'Columna del apellido'), { max: 100 }),
    items('phone_columns', t('Colunas de telefone', 'Phone columns', 'Columnas de teléfono'), ';', {
      required: true,
      max: 1000,
      hint: t('Separadas por ;, ex.: celular;fixo', 'Separated by ;, e.g. mobile;landline', 'Separadas por ;, p. ej. movil;fijo'),
    }),
  ],
  list: { columns: ['id', 'description', 'name_column', 'phone_columns'] },
})

export const SHIPMENTS = [leadLayouts] as const
