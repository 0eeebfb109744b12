import {
  BUILDER_DATASETS,
  BUILDER_GROUPS,
  BUILDER_MEASURE_FIELDS,
  BUILDER_MEASURES,
  BUILDER_PERIODS,
  BUILDER_TEXTS,
  BUILDER_WIDGET_TYPES,
  QUERY_WIDGETS,
} from '../api/builder.ts'
import { PERMISSIONS } from '../permissions.ts'
import { defineEntity, t } from './define.ts'
import { choice, description, fk, integer, isActive, many, rows, when } from './fields.ts'
import type { Entity, Option, Texts } from './types.ts'

// Settings → system → builder (spec 000 §2 system/builder, system/builder/dashboards and system/builder/reports;
// issue 19 item 4). Queries over the server's datasets (contract/api/builder.ts), widgets showing a query, and the
// dashboard and report pages that lay widgets out in a 12-column grid, placed in the side menu by menus and
// categories under the page's permission. Permission prefix `builder.` (spec 000 §6). README.md says what each of the
// spec's system/builder items is here.

const options = <K extends string>(keys: readonly K[], texts: Record<K, Texts>): Option[] => keys.map((key) => ({ value: key, text: texts[key] }))

export const queries = defineEntity({
  area: 'builder',
  name: 'queries',
  model: 'query',
  route: 'system/builder/queries',
  label: { singular: t('Consulta', 'Query', 'Consulta'), plural: t('Consultas', 'Queries', 'Consultas') },
  fields: [
    description(),
    choice('dataset', t('Conjunto de dados', 'Dataset', 'Conjunto de datos'), options(BUILDER_DATASETS, BUILDER_TEXTS.datasets), { required: true }),
    choice('period', t('Período', 'Period', 'Período'), options(BUILDER_PERIODS, BUILDER_TEXTS.periods), { required: true, default: 'today' }),
    choice('measure', t('Medida', 'Measure', 'Medida'), options(BUILDER_MEASURES, BUILDER_TEXTS.measures), { required: true, default: 'count' }),
    choice('measure_field', t('Campo medido', 'Measured field', 'Campo medido'), options(BUILDER_MEASURE_FIELDS, BUILDER_TEXTS.fields), {
      ...when({ field: 'measure', oneOf: ['sum', 'avg', 'min', 'max'] }),
    }),
    choice('group_by', t('Agrupar por', 'Group by', 'Agrupar por'), options(BUILDER_GROUPS, BUILDER_TEXTS.groups), { required: true, default: 'none' }),
    integer('max_groups', t('Máximo de grupos', 'Most groups', 'Máximo de grupos'), { default: 10, min: 1, max: 100 }),
    fk('team', t('Equipe', 'Team', 'Equipo'), 'service.teams', { title: 'name' }),
    fk('agent', t('Agente', 'Agent', 'Agente'), 'business.users', { kind: 'autocomplete', title: 'username' }),
    fk('queue', t('Fila', 'Queue', 'Cola'), 'pabx.queues'),
    fk('chat_queue', t('Fila de chat', 'Chat queue', 'Cola de chat'), 'chat.queues'),
    fk('campaign', t('Campanha', 'Campaign', 'Campaña'), 'service.shipments-campaigns'),
    fk('classification', t('Classificação', 'Classification', 'Clasificación'), 'service.classifications'),
  ],
  list: { columns: ['id', 'description', 'dataset', 'measure', 'group_by', 'period'] },
  form: {
    tabs: [
      {
        key: 'general',
        label: t('Geral', 'General', 'General'),
        fields: ['description', 'dataset', 'period', 'measure', 'measure_field', 'group_by', 'max_groups'],
      },
      { key: 'filters', label: t('Filtros', 'Filters', 'Filtros'), fields: ['team', 'agent', 'queue', 'chat_queue', 'campaign', 'classification'] },
    ],
  },
})

export const widgets = defineEntity({
  area: 'builder',
  name: 'widgets',
  model: 'widget',
  route: 'system/builder/widgets',
  label: { singular: t('Widget', 'Widget', 'Widget'), plural: t('Widgets', 'Widgets', 'Widgets') },
  fields: [
    description({ label: t('Título', 'Title', 'Título') }),
    choice('type', t('Tipo', 'Type', 'Tipo'), options(BUILDER_WIDGET_TYPES, BUILDER_TEXTS.widgets), { required: true, default: 'number' }),
    fk('query', t('Consulta', 'Query', 'Consulta'), 'builder.queries', { ...when({ field: 'type', oneOf: [...QUERY_WIDGETS] }), onDelete: 'protect' }),
  ],
  list: { columns: ['id', 'description', 'type', 'query'] },
})

const WIDTHS = [
  { value: 3, text: t('1/4 da largura', '1/4 of the width', '1/4 del ancho') },
  { value: 4, text: t('1/3 da largura', '1/3 of the width', '1/3 del ancho') },
  { value: 6, text: t('Metade da largura', 'Half the width', 'Mitad del ancho') },
  { value: 8, text: t('2/3 da largura', '2/3 of the width', '2/3 del ancho') },
  { value: 12, text: t('Largura inteira', 'Full width', 'Ancho completo') },
]
const HEIGHTS = [
  { value: 1, text: t('Baixo', 'Short', 'Bajo') },
  { value: 2, text: t('Médio', 'Medium', 'Medio') },
  { value: 3, text: t('Alto', 'Tall', 'Alto') },
]

type Kind = 'dashboard' | 'report'
const KIND_TEXTS = {
  dashboard: {
    menu: [t('Menu de painéis', 'Dashboard menu', 'Menú de paneles'), t('Menus de painéis', 'Dashboard menus', 'Menús de paneles')],
    category: [
      t('Categoria de painéis', 'Dashboard category', 'Categoría de paneles'),
      t('Categorias de painéis', 'Dashboard categories', 'Categorías de paneles'),
    ],
    page: [t('Página de painel', 'Dashboard page', 'Página de panel'), t('Páginas de painéis', 'Dashboard pages', 'Páginas de paneles')],
  },
  report: {
    menu: [t('Menu de relatórios', 'Report menu', 'Menú de informes'), t('Menus de relatórios', 'Report menus', 'Menús de informes')],
    category: [
      t('Categoria de relatórios', 'Report category', 'Categoría de informes'),
      t('Categorias de relatórios', 'Report categories', 'Categorías de informes'),
    ],
    page: [t('Página de relatório', 'Report page', 'Página de informe'), t('Páginas de relatórios', 'Report pages', 'Páginas de informes')],
  },
} as const

const position = () =>
  integer('position', t('Ordem', 'Order', 'Orden'), {
    default: 0,
    max: 9999,
    hint: t('Menores primeiro', 'Lowest first', 'Los menores primero'),
  })

function menuEntity(kind: Kind): Entity {
  const [singular, plural] = KIND_TEXTS[kind].menu
  return defineEntity({
    area: 'builder',
    name: `${kind}-menus`,
    model: `${kind}menu`,
    route: `system/builder/${kind}s/menus`,
    label: { singular, plural },
    fields: [description({ label: t('Título no menu', 'Title in the menu', 'Título en el menú') }), isActive(), position()],
    list: { columns: ['id', 'is_active', 'description', 'position'] },
  })
}

function categoryEntity(kind: Kind): Entity {
  const [singular, plural] = KIND_TEXTS[kind].category
  return defineEntity({
    area: 'builder',
    name: `${kind}-categories`,
    model: `${kind}category`,
    route: `system/builder/${kind}s/categories`,
    label: { singular, plural },
    fields: [
      description({ label: t('Título no menu', 'Title in the menu', 'Título en el menú') }),
      isActive(),
      fk('menu', t('Menu', 'Menu', 'Menú'), `builder.${kind}-menus`, { required: true, onDelete: 'cascade' }),
      // A sub-category (spec's system/builder sub-categories) sits inside its parent in the side menu.
      fk('parent', t('Categoria mãe', 'Parent category', 'Categoría padre'), `builder.${kind}-categories`, {
        onDelete: 'cascade',
        hint: t('Vazio: no primeiro nível do menu', 'Empty: at the menu’s first level', 'Vacío: en el primer nivel del menú'),
      }),
      position(),
    ],
    list: { columns: ['id', 'is_active', 'description', 'menu', 'parent', 'position'] },
  })
}

function pageEntity(kind: Kind): Entity {
  const [singular, plural] = KIND_TEXTS[kind].page
  const permissions =
    kind === 'dashboard'
      ? [
          {
            value: PERMISSIONS.viewDashboardSupervisor,
            text: t('Supervisores (painéis de supervisão)', 'Supervisors (supervisor dashboards)', 'Supervisores (paneles de supervisión)'),
          },
          { value: PERMISSIONS.viewDashboard, text: t('Todos com o início (painel)', 'Everyone with the home (dashboard)', 'Todos con el inicio (panel)') },
        ]
      : [{ value: PERMISSIONS.viewReports, text: t('Quem vê relatórios', 'Those who see reports', 'Quienes ven informes') }]
  return defineEntity({
    area: 'builder',
    name: `${kind}-pages`,
    model: `${kind}page`,
    route: `system/builder/${kind}s/pages`,
    label: { singular, plural },
    fields: [
      description({ label: t('Título', 'Title', 'Título') }),
      isActive(),
      fk('menu', t('Menu', 'Menu', 'Menú'), `builder.${kind}-menus`),
      fk('category', t('Categoria', 'Category', 'Categoría'), `builder.${kind}-categories`),
      position(),
      choice('permission', t('Quem vê', 'Who sees it', 'Quién lo ve'), permissions, { required: true, default: permissions[0]!.value }),
      integer('refresh', t('Atualizar a cada (segundos)', 'Refresh every (seconds)', 'Actualizar cada (segundos)'), {
        default: kind === 'dashboard' ? 30 : 0,
        max: 3600,
        hint: t('0: sem atualização automática', '0: no automatic refresh', '0: sin actualización automática'),
      }),
      rows('widgets', t('Widgets', 'Widgets', 'Widgets'), [
        fk('widget', t('Widget', 'Widget', 'Widget'), 'builder.widgets', { required: true }),
        choice('width', t('Largura', 'Width', 'Ancho'), WIDTHS, { required: true, default: 6 }),
        choice('height', t('Altura', 'Height', 'Altura'), HEIGHTS, { required: true, default: 2 }),
      ]),
      // The spec's insidepages: pages reached from inside this one (links under its title), not from the menu.
      many('inside_pages', t('Páginas internas', 'Inside pages', 'Páginas internas'), `builder.${kind}-pages`, {
        hint: t('Links mostrados no topo desta página', 'Links shown at the top of this page', 'Enlaces mostrados arriba de esta página'),
      }),
    ],
    list: { columns: ['id', 'is_active', 'description', 'menu', 'category', 'permission'] },
    form: {
      tabs: [
        {
          key: 'general',
          label: t('Geral', 'General', 'General'),
          fields: ['description', 'is_active', 'menu', 'category', 'position', 'permission', 'refresh'],
        },
        { key: 'widgets', label: t('Widgets', 'Widgets', 'Widgets'), fields: ['widgets', 'inside_pages'] },
      ],
    },
  })
}

export const dashboardMenus = menuEntity('dashboard')
export const dashboardCategories = categoryEntity('dashboard')
export const dashboardPages = pageEntity('dashboard')
export const reportMenus = menuEntity('report')
export const reportCategories = categoryEntity('report')
export const reportPages = pageEntity('report')

/**
 * The spec's homepages: a dashboard page shown at `/` instead of the default home, for one user, one team or
 * everyone (the most specific wins; then the lowest order).
 */
export const homepages = defineEntity({
  area: 'builder',
  name: 'homepages',
  model: 'homepage',
  route: 'system/builder/homepages',
  label: { singular: t('Página inicial', 'Home page', 'Página de inicio'), plural: t('Páginas iniciais', 'Home pages', 'Páginas de inicio') },
  fields: [
    description(),
    isActive(),
    fk('page', t('Página de painel', 'Dashboard page', 'Página de panel'), 'builder.dashboard-pages', { required: true, onDelete: 'cascade' }),
    fk('team', t('Equipe', 'Team', 'Equipo'), 'service.teams', {
      title: 'name',
      onDelete: 'cascade',
      hint: t('Vazio: todas as equipes', 'Empty: every team', 'Vacío: todos los equipos'),
    }),
    fk('user', t('Usuário', 'User', 'Usuario'), 'business.users', {
      kind: 'autocomplete',
      title: 'username',
      onDelete: 'cascade',
      hint: t('Vazio: todos os usuários', 'Empty: every user', 'Vacío: todos los usuarios'),
    }),
    position(),
  ],
  list: { columns: ['id', 'is_active', 'description', 'page', 'team', 'user', 'position'] },
})

export const BUILDER = [queries, widgets, dashboardMenus, dashboardCategories, dashboardPages, reportMenus, reportCategories, reportPages, homepages] as const
