import { defineEntity, opt, t } from './define.ts'
import { PERMISSIONS } from '../permissions.ts'

/** The agent's call and chat forms read the chain (spec 000 §7 "Lookups for the webphone"). */
const AGENT_READERS = [PERMISSIONS.viewSoftphone, PERMISSIONS.viewChat]
import { choice, description, field, fk, integer, isActive, many, toggle } from './fields.ts'

// Settings → service → classifications: the chain queue → classification → sub-classification (spec 000 §3). A
// union joins a classification to a sub-classification and carries the scheduling options the agent's form obeys.

export const classifications = defineEntity({
  area: 'service',
  name: 'classifications',
  model: 'classification',
  readers: AGENT_READERS,
  route: 'service/classifications/primary',
  label: { singular: t('Classificação', 'Classification', 'Clasificación'), plural: t('Classificações', 'Classifications', 'Clasificaciones') },
  fields: [
    description(),
    isActive(),
    many('queues', t('Filas de telefonia', 'Telephony queues', 'Colas de telefonía'), 'pabx.queues'),
    many('chat_queues', t('Filas de chat', 'Chat queues', 'Colas de chat'), 'chat.queues'),
    // The dialer's calls are classified by their mailing (spec 000 §7 ?mailing_id=; the profile's dialer_classifications).
    many('mailings', t('Mailings', 'Mailing lists', 'Mailings'), 'crm.mailings'),
  ],
})

export const subClassifications = defineEntity({
  area: 'service',
  name: 'sub-classifications',
  model: 'subclassification',
  readers: AGENT_READERS,
  route: 'service/classifications/secondary',
  label: {
    singular: t('Subclassificação', 'Sub-classification', 'Subclasificación'),
    plural: t('Subclassificações', 'Sub-classifications', 'Subclasificaciones'),
  },
  fields: [
    description(),
    isActive(),
    choice(
      'result',
      t('Resultado', 'Outcome', 'Resultado'),
      [opt('positive', 'Positivo', 'Positive', 'Positivo'), opt('neutral', 'Neutro', 'Neutral', 'Neutro'), opt('negative', 'Negativo', 'Negative', 'Negativo')],
      { required: true, default: 'neutral' },
    ),
  ],
})

const SCHEDULE_ON = { field: 'enable_schedule', oneOf: [true] } as const

export const unions = defineEntity({
  area: 'service',
  name: 'unions',
  model: 'union',
  readers: AGENT_READERS,
  route: 'service/classifications/union',
  label: {
    singular: t('União de classificações', 'Classification union', 'Unión de clasificaciones'),
    plural: t('Uniões de classificações', 'Classification unions', 'Uniones de clasificaciones'),
  },
  titleField: 'sub_classification',
  fields: [
    fk('classification', t('Classificação', 'Classification', 'Clasificación'), 'service.classifications', { required: true }),
    fk('sub_classification', t('Subclassificação', 'Sub-classification', 'Subclasificación'), 'service.sub-classifications', { required: true }),
    isActive(),
    toggle('enable_schedule', t('Permite agendamento', 'Allows scheduling', 'Permite agendar')),
    integer('schedule_interval_applied', t('Agendar para daqui a (minutos)', 'Schedule for (minutes from now)', 'Agendar para dentro de (minutos)'), {
      default: 60,
      visibleWhen: SCHEDULE_ON,
    }),
    choice(
      'auto_run_schedule',
      t('Execução automática do agendamento', 'Run the schedule automatically', 'Ejecución automática del agendamiento'),
      [
        opt(1, 'Sim, automaticamente', 'Yes, automatically', 'Sí, automáticamente'),
        opt(2, 'Nunca (oculto)', 'Never (hidden)', 'Nunca (oculto)'),
        opt(3, 'Opcional (visível)', 'Optional (visible)', 'Opcional (visible)'),
      ],
      { default: 3, visibleWhen: SCHEDULE_ON },
    ),
    choice(
      'schedule_send_to',
      t('Enviar agendamento para', 'Send the schedule to', 'Enviar el agendamiento a'),
      [
        opt(1, 'O próprio agente', 'The same agent', 'El mismo agente'),
        opt(2, 'Qualquer agente da fila', 'Any agent of the queue', 'Cualquier agente de la cola'),
        opt(3, 'Um mailing', 'A mailing list', 'Un mailing'),
        opt(4, 'O agente escolhe', 'The agent chooses', 'El agente elige'),
      ],
      { default: 1, visibleWhen: SCHEDULE_ON },
    ),
    // Mailings belong to the shipments area (a later issue): a lookup by path until that entity is registered.
    field('mailing', 'api', t('Mailing', 'Mailing list', 'Mailing'), {
      lookup: { path: '/api/v1/crm/mailings/', value: 'id', label: 'description' },
      visibleWhen: { field: 'schedule_send_to', oneOf: [3] },
      requiredWhen: { field: 'schedule_send_to', oneOf: [3] },
    }),
    toggle('enable_short_schedule_version', t('Agendamento simplificado', 'Short scheduling form', 'Agendamiento simplificado'), { visibleWhen: SCHEDULE_ON }),
  ],
  list: { columns: ['id', 'is_active', 'classification', 'sub_classification', 'enable_schedule'] },
  uniqueTogether: [['classification', 'sub_classification']],
})

export const CLASSIFICATIONS = [classifications, subClassifications, unions] as const
