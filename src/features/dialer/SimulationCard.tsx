import { useState } from 'react'
import { Box, Button, Card, Checkbox, FormControl, FormHelperText, FormLabel, Radio, RadioGroup, Stack, Table, Typography } from '@mui/joy'
import { useForm } from '@tanstack/react-form'
import { useMutation } from '@tanstack/react-query'
import { useLingui } from '@lingui/react/macro'
import { SIMULATION_MODES, SimulateBody, simulatePath } from '../../../contract/api/dialer.ts'
import type { SimulateResponse } from '../../../contract/api/dialer.ts'
import { api } from '../../api/client.ts'
import { AppForm } from '../../components/form/AppForm.tsx'
import { TextField, errorText } from '../../components/form/TextField.tsx'
import { applyServerErrors } from '../../components/form/serverErrors.ts'
import { schemaFieldErrors } from '../../components/form/validation.ts'

// "Simular" beside a saved campaign's form (issue 18 item 5): N agents for some hours, from the campaign's past results
// or from given rates and talk times, under the modes to compare; one row per mode with the predicted occupancy,
// abandon rate and answered calls per agent-hour (POST /api/v1/service/dialer/simulate/, the live pacer's code).

type Mode = (typeof SIMULATION_MODES)[number]

type Values = {
  agents: string
  hours: string
  source: 'history' | 'rates'
  rates: { answer: string; busy: string; no_answer: string }
  talk: { min: string; max: string }
  modes: Record<Mode, boolean>
  ratio: string
}

const DEFAULTS: Values = {
  agents: '10',
  hours: '1',
  source: 'history',
  rates: { answer: '30', busy: '10', no_answer: '50' },
  talk: { min: '60', max: '180' },
  modes: { progressive: true, power: true, predictive: true },
  ratio: '2',
}

/** A number typed in a field ('' and text stay as they are, for the schema to refuse). */
const num = (text: string): unknown => (text.trim() !== '' && Number.isFinite(Number(text.replace(',', '.'))) ? Number(text.replace(',', '.')) : text)

export function bodyOf(campaign: number, values: Values): SimulateBody {
  const modes = SIMULATION_MODES.filter((m) => values.modes[m]).map((mode) => (mode === 'power' ? { mode, ratio: num(values.ratio) } : { mode }))
  const fromRates = values.source === 'rates'
  return {
    ...(fromRates ? {} : { campaign }),
    agents: num(values.agents),
    hours: num(values.hours),
    ...(fromRates
      ? {
          rates: { answer: num(values.rates.answer), busy: num(values.rates.busy), no_answer: num(values.rates.no_answer) },
          talk: { min: num(values.talk.min), max: num(values.talk.max) },
        }
      : {}),
    modes,
  } as SimulateBody
}

/** The body's error paths to the form's fields (a power ratio's error goes under the ratio field). */
function toFieldKey(key: string): string {
  if (/^modes\.\d+\.ratio$/.test(key)) return 'ratio'
  if (key.startsWith('modes')) return 'modes'
  if (key === 'campaign') return 'source'
  return key
}

const FIELDS = ['agents', 'hours', 'source', 'rates.answer', 'rates.busy', 'rates.no_answer', 'talk.min', 'talk.max', 'modes', 'ratio']

/** Equal columns that shrink with the card (inputs keep their intrinsic width in a row and overflow it). */
const columns = (n: number) => ({ display: 'grid', gridTemplateColumns: `repeat(${n}, minmax(0, 1fr))`, gap: 1 })

export function SimulationCard({ campaign }: { campaign: number }) {
  const { t, i18n } = useLingui()
  const [formErrors, setFormErrors] = useState<string[]>([])
  const simulate = useMutation({ mutationFn: (body: SimulateBody) => api.post<SimulateResponse>(simulatePath, body) })
  const validate = ({ value }: { value: Values }) => {
    const errors = schemaFieldErrors(SimulateBody, bodyOf(campaign, value), i18n.locale)
    if (!errors) return undefined
    const fields: Record<string, string> = {}
    for (const [key, message] of Object.entries(errors)) fields[toFieldKey(key)] ??= message
    return { fields }
  }
  const form = useForm({
    defaultValues: DEFAULTS,
    validators: { onChange: validate, onSubmit: validate },
    onSubmit: async ({ value }) => {
      setFormErrors([])
      try {
        await simulate.mutateAsync(bodyOf(campaign, value))
      } catch (error) {
        setFormErrors(applyServerErrors(form, error, FIELDS))
      }
    },
  })
  const modeLabel: Record<Mode, string> = { progressive: t`Progressivo`, power: t`Power`, predictive: t`Preditivo` }
  const pct = (x: number) => i18n.number(x, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 })
  const result = simulate.data
  return (
    <Card variant="soft" sx={{ minWidth: 280 }} data-testid="campaign-simulation">
      <Typography level="title-md">{t`Simular`}</Typography>
      <Typography level="body-sm">{t`Prevê a ocupação dos agentes e a taxa de abandono de cada modo com o mesmo código de ritmo do discador.`}</Typography>
      <AppForm onSubmit={form.handleSubmit} errors={formErrors} spacing={1.5}>
        <Box sx={columns(2)}>
          <form.Field name="agents">{(f) => <TextField field={f} label={t`Agentes`} size="sm" />}</form.Field>
          <form.Field name="hours">{(f) => <TextField field={f} label={t`Horas`} size="sm" />}</form.Field>
        </Box>
        <form.Field name="source">
          {(f) => (
            <FormControl id="source" size="sm" error={f.state.meta.errors.length > 0}>
              <FormLabel>{t`Dados`}</FormLabel>
              <RadioGroup orientation="horizontal" value={f.state.value} onChange={(e) => f.handleChange(e.target.value as Values['source'])}>
                <Radio value="history" label={t`Histórico da campanha`} size="sm" />
                <Radio value="rates" label={t`Taxas informadas`} size="sm" />
              </RadioGroup>
              {f.state.meta.errors.length > 0 && <FormHelperText>{errorText(f.state.meta.errors)}</FormHelperText>}
            </FormControl>
          )}
        </form.Field>
        <form.Subscribe selector={(s) => s.values.source}>
          {(source) =>
            source === 'rates' && (
              <>
                <Box sx={columns(3)}>
                  <form.Field name="rates.answer">{(f) => <TextField field={f} label={t`Atendidas (%)`} size="sm" />}</form.Field>
                  <form.Field name="rates.busy">{(f) => <TextField field={f} label={t`Ocupado (%)`} size="sm" />}</form.Field>
                  <form.Field name="rates.no_answer">{(f) => <TextField field={f} label={t`Sem resposta (%)`} size="sm" />}</form.Field>
                </Box>
                <Box sx={columns(2)}>
                  <form.Field name="talk.min">{(f) => <TextField field={f} label={t`Conversa mín. (s)`} size="sm" />}</form.Field>
                  <form.Field name="talk.max">{(f) => <TextField field={f} label={t`Conversa máx. (s)`} size="sm" />}</form.Field>
                </Box>
              </>
            )
          }
        </form.Subscribe>
        <form.Field name="modes">
          {(f) => (
            // Not a FormControl: it would give its one id to the three checkboxes.
            <Stack spacing={0.5} role="group" aria-labelledby="simulation-modes-label">
              <Typography id="simulation-modes-label" level="title-sm">{t`Modos a comparar`}</Typography>
              <Stack direction="row" spacing={2}>
                {SIMULATION_MODES.map((m) => (
                  <Checkbox
                    key={m}
                    size="sm"
                    label={modeLabel[m]}
                    checked={f.state.value[m]}
                    onChange={(e) => f.handleChange({ ...form.getFieldValue('modes'), [m]: e.target.checked })}
                  />
                ))}
              </Stack>
              {f.state.meta.errors.length > 0 && (
                <Typography level="body-sm" color="danger" data-testid="simulation-modes-error">
                  {errorText(f.state.meta.errors)}
                </Typography>
              )}
            </Stack>
          )}
        </form.Field>
        <form.Subscribe selector={(s) => s.values.modes.power}>
          {(power) => power && <form.Field name="ratio">{(f) => <TextField field={f} label={t`Razão do power (chamadas por agente)`} size="sm" />}</form.Field>}
        </form.Subscribe>
        <Stack direction="row" justifyContent="flex-end">
          <Button type="submit" size="sm" loading={simulate.isPending}>
            {t`Simular`}
          </Button>
        </Stack>
      </AppForm>
      {result && (
        <>
          <Typography level="body-xs" data-testid="simulation-source">
            {result.source === 'history'
              ? t`Histórico da campanha: ${result.history_attempts} tentativas.`
              : result.history_attempts !== null
                ? t`Histórico curto (${result.history_attempts} tentativas): simulado com as taxas informadas.`
                : t`Simulado com as taxas informadas.`}
          </Typography>
          <Table size="sm" aria-label={t`Resultado da simulação`} data-testid="simulation-results">
            <thead>
              <tr>
                <th>{t`Modo`}</th>
                <th style={{ textAlign: 'right' }}>{t`Ocupação`}</th>
                <th style={{ textAlign: 'right' }}>{t`Abandono`}</th>
                <th style={{ textAlign: 'right' }}>{t`Atendidas/agente·h`}</th>
              </tr>
            </thead>
            <tbody>
              {result.results.map((r) => (
                <tr key={`${r.mode}-${r.ratio ?? ''}`}>
                  <td>{r.mode === 'power' && r.ratio !== null ? `${modeLabel[r.mode]} ${r.ratio}` : modeLabel[r.mode]}</td>
                  <td style={{ textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}>{pct(r.occupancy)}</td>
                  <td style={{ textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}>{pct(r.abandon_rate)}</td>
                  <td style={{ textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}>
                    {i18n.number(r.answered_per_agent_hour, { maximumFractionDigits: 1, minimumFractionDigits: 1 })}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        </>
      )}
    </Card>
  )
}
