import Input from '@mui/joy/Input'
import { FieldShell } from '../FieldShell.tsx'
import type { FieldComponents, FieldInputProps } from '../types.ts'
import { ReadOnlyText } from './ReadOnlyText.tsx'
import { asText } from './shared.ts'

// Masks: '#' a digit, 'A' a letter, 'X' a letter or digit, anything else is written as is. Several patterns joined by
// '|' are tried shortest first (a landline and a mobile number). The named ones are the spec's CPF, CNPJ and phones.
export const NAMED_MASKS: Record<string, string> = {
  cpf: '###.###.###-##',
  // The alphanumeric CNPJ (from July 2026) keeps the layout; its last two characters stay digits.
  cnpj: 'XX.XXX.XXX/XXXX-##',
  phone: '(##) ####-####|(##) #####-####',
  cep: '#####-###',
}

const SLOT: Record<string, RegExp> = { '#': /\d/, A: /[a-zA-Z]/, X: /[a-zA-Z0-9]/ }

function slots(pattern: string): number {
  return [...pattern].filter((c) => c in SLOT).length
}

function fit(raw: string, pattern: string): string {
  let out = ''
  let i = 0
  for (const c of pattern) {
    if (i >= raw.length) break
    const slot = SLOT[c]
    if (!slot) {
      out += c
      continue
    }
    // Skip typed characters that cannot fill this slot.
    while (i < raw.length && !slot.test(raw[i]!)) i++
    if (i < raw.length) out += c === 'A' || c === 'X' ? raw[i]!.toUpperCase() : raw[i]!
    i++
  }
  return out
}

/** The typed text laid out in the mask (the shortest pattern that holds every character typed). */
export function applyMask(text: string, mask: string): string {
  const patterns = (NAMED_MASKS[mask] ?? mask).split('|').sort((a, b) => slots(a) - slots(b))
  const raw = text.replace(/[^a-zA-Z0-9]/g, '')
  const pattern = patterns.find((p) => slots(p) >= raw.length) ?? patterns[patterns.length - 1]!
  return fit(raw, pattern)
}

function MaskInput(props: FieldInputProps<string>) {
  const { field, value, onChange, onBlur } = props
  const mask = field.mask ?? field.validation ?? ''
  const pattern = (NAMED_MASKS[mask] ?? mask).split('|').pop() ?? ''
  return (
    <FieldShell props={props}>
      <Input
        name={field.name}
        value={asText(value)}
        placeholder={pattern.replace(/[#AX]/g, '_')}
        onChange={(e) => onChange(mask ? applyMask(e.target.value, mask) : e.target.value)}
        onBlur={onBlur}
        slotProps={{ input: { inputMode: /A|X/.test(pattern) ? 'text' : 'numeric', 'aria-invalid': Boolean(props.error) } }}
      />
    </FieldShell>
  )
}

/** mask: text laid out as typed (CPF, CNPJ, phone, CEP or the field's own pattern). */
export const maskField: FieldComponents = { Input: MaskInput, ReadOnly: ({ value }) => <ReadOnlyText text={asText(value)} /> }
