import Box from '@mui/joy/Box'
import FormControl from '@mui/joy/FormControl'
import FormHelperText from '@mui/joy/FormHelperText'
import FormLabel from '@mui/joy/FormLabel'
import Input from '@mui/joy/Input'
import Option from '@mui/joy/Option'
import Select from '@mui/joy/Select'
import { useLingui } from '@lingui/react/macro'
import { apiPath } from '../../../../contract/entities/index.ts'
import { formatDateTime } from '../../../app/dates.ts'
import type { FieldComponents, FieldInputProps, FieldReadOnlyProps } from '../types.ts'
import { ReadOnlyText } from './ReadOnlyText.tsx'
import { defaultSchedule, fromLocalInput, toLocalInput } from './datetime.ts'
import { asText, useLookup } from './shared.ts'
import { useOpenOnPress } from '../../../components/form/openOnPress.ts'

// classification, classificationWithCache: the chain classification → sub-classification (the unions of the chosen
// classification), and a schedule when that union enables scheduling, defaulting to one hour from now (spec 000 §5).
// The value is a list, as the contract stores these kinds: [classification, sub-classification, schedule?].

const CLASSIFICATIONS = { path: apiPath('service.classifications'), value: 'id', label: 'description' }
const UNIONS = { path: apiPath('service.unions'), value: 'sub_classification', label: 'sub_classification_description' }

type Chain = [classification: string | number | '', sub: string | number | '', schedule?: string]

function asChain(value: unknown): Chain {
  const list = Array.isArray(value) ? value : []
  return [list[0] ?? '', list[1] ?? '', list[2] === undefined ? undefined : asText(list[2])]
}

function ClassificationInput(props: FieldInputProps & { cache?: boolean }) {
  const { t } = useLingui()
  const { field, value, onChange, onBlur, id, error, required, disabled, label, cache } = props
  const [classification, sub, schedule] = asChain(value)
  // A call's form names its queue's classifications (spec 000 §7 ?queue_id=) through the field's lookup path.
  const classifications = useLookup(CLASSIFICATIONS, field.lookup?.path ?? CLASSIFICATIONS.path, undefined, cache)
  const unionsPath = classification === '' ? undefined : `${UNIONS.path}?classification=${encodeURIComponent(String(classification))}&is_active=true`
  const unions = useLookup(UNIONS, unionsPath, undefined, cache)
  const union = unions.rows.find((row) => String(row.sub_classification) === String(sub))
  const schedules = union?.enable_schedule === true
  const set = (next: Chain) => onChange(next[0] === '' ? [] : next.filter((x) => x !== undefined))
  const pressClassification = useOpenOnPress(disabled)
  const pressSub = useOpenOnPress(disabled || classification === '')
  const failed = classifications.error || unions.error ? t`Não foi possível carregar as opções.` : undefined
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: schedules ? '1fr 1fr 1fr' : '1fr 1fr' }, gap: 1.5 }} data-field={field.name}>
      <FormControl id={id} required={required} disabled={disabled} error={Boolean(error)}>
        <FormLabel>{label}</FormLabel>
        <Select<string | number>
          listboxOpen={pressClassification.listboxOpen}
          onListboxOpenChange={pressClassification.onListboxOpenChange}
          slotProps={{ button: pressClassification.button }}
          value={classification === '' ? null : classification}
          placeholder={t`Selecione`}
          onClose={onBlur}
          onChange={(_, next) => set([next ?? '', ''])}
        >
          {classifications.choices.map((c) => (
            <Option key={String(c.value)} value={c.value}>
              {c.label}
            </Option>
          ))}
        </Select>
        {(error || failed) && <FormHelperText>{error ?? failed}</FormHelperText>}
      </FormControl>
      <FormControl id={`${id}-sub`} required={required} disabled={disabled || classification === ''} error={Boolean(error)}>
        <FormLabel>{t`Subclassificação`}</FormLabel>
        <Select<string | number>
          listboxOpen={pressSub.listboxOpen}
          onListboxOpenChange={pressSub.onListboxOpenChange}
          slotProps={{ button: pressSub.button }}
          value={sub === '' ? null : sub}
          placeholder={t`Selecione`}
          onClose={onBlur}
          onChange={(_, next) => {
            const row = unions.rows.find((r) => String(r.sub_classification) === String(next))
            set([classification, next ?? '', row?.enable_schedule === true ? defaultSchedule() : undefined])
          }}
        >
          {unions.choices.map((c) => (
            <Option key={String(c.value)} value={c.value}>
              {c.label}
            </Option>
          ))}
        </Select>
      </FormControl>
      {schedules && (
        <FormControl id={`${id}-schedule`} required disabled={disabled}>
          <FormLabel>{t`Agendamento`}</FormLabel>
          <Input
            type="datetime-local"
            value={toLocalInput(schedule)}
            onChange={(e) => set([classification, sub, fromLocalInput(e.target.value)])}
            onBlur={onBlur}
            slotProps={{ input: { step: 1 } }}
          />
        </FormControl>
      )}
    </Box>
  )
}

function ClassificationReadOnly({ value }: FieldReadOnlyProps) {
  const [classification, sub, schedule] = asChain(value)
  return <ReadOnlyText text={[classification, sub, schedule ? formatDateTime(schedule) : ''].filter((x) => x !== '').join(' › ')} />
}

export const classificationField: FieldComponents = { Input: ClassificationInput, ReadOnly: ClassificationReadOnly, ownLabel: true, wide: true }
/** The same chain with its lookups kept for the session (the agent's call form opens it on every call). */
export const classificationWithCacheField: FieldComponents = {
  Input: (props) => <ClassificationInput {...props} cache />,
  ReadOnly: ClassificationReadOnly,
  ownLabel: true,
  wide: true,
}
