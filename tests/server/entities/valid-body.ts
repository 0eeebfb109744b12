import type { Entity, EntityKey, Field } from '../../../contract/entities/index.ts'
import { destinationApp, entityByKey, formValuesFor, holdsValue, isEmpty, isRequired } from '../../../contract/entities/index.ts'

// A minimal valid body for any entity, built from its field definitions: defaults first, then a value for every
// field required in the resulting state (conditions included), until nothing more is needed. References get a row
// of their target, created through the API by `ensure` (recursively), so the same builder works on any site.

export type Body = { values: Record<string, unknown>; files: Record<string, { name: string; type: string; data: Buffer }> }
export type Ensure = (key: EntityKey) => Promise<number>

let counter = 0
const next = () => ++counter

/** A real PCM WAV (mono 16-bit) of `seconds` of a `hz` tone: prompts and music are decoded at upload. */
export function wavTone(seconds = 0.25, hz = 440, rate = 16000): Buffer {
  const samples = Math.round(seconds * rate)
  const out = Buffer.alloc(44 + samples * 2)
  out.write('RIFF', 0, 'latin1')
  out.writeUInt32LE(36 + samples * 2, 4)
  out.write('WAVEfmt ', 8, 'latin1')
  out.writeUInt32LE(16, 16)
  out.writeUInt16LE(1, 20)
  out.writeUInt16LE(1, 22)
  out.writeUInt32LE(rate, 24)
  out.writeUInt32LE(rate * 2, 28)
  out.writeUInt16LE(2, 32)
  out.writeUInt16LE(16, 34)
  out.write('data', 36, 'latin1')
  out.writeUInt32LE(samples * 2, 40)
  for (let i = 0; i < samples; i++) out.writeInt16LE(Math.round(Math.sin((2 * Math.PI * hz * i) / rate) * 8000), 44 + i * 2)
  return out
}

export const WAV = wavTone()
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000a49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
)

/** A valid CNPJ (check digits computed), different on every call. */
export function cnpj(): string {
  const base = String(10_000_000 + next()).padStart(8, '0') + '0001'
  const digit = (s: string) => {
    let sum = 0
    for (let i = 0; i < s.length; i++) sum += Number(s[i]) * (((s.length - 1 - i) % 8) + 2)
    const rest = sum % 11
    return rest < 2 ? 0 : 11 - rest
  }
  const first = digit(base)
  return `${base}${first}${digit(base + first)}`
}

function textFor(field: Field): string {
  const n = next()
  switch (field.validation) {
    case 'email':
      return `user${n}@example.com`
    case 'phone':
      return `5511${String(900_000_000 + n)}`
    case 'phones-list':
      return `5511${String(900_000_000 + n)}`
    case 'cnpj':
      return cnpj()
    case 'cpf':
      return '52998224725'
    case 'cpf-cnpj':
      return cnpj()
    case 'extension':
      return String(20_000 + (n % 79_999)) // the demo's extensions are 10001 and 10002
    case 'color':
      return '#123456'
    case 'url':
      return `https://example.com/${n}`
    case 'host':
      return `host-${n}.example.com`
    case 'dial-patterns':
      return '0XXXXXXXXXX'
    case 'origin':
      return `https://embed-${n}.example.com`
  }
  if (field.kind === 'hourpicker') return '08:00'
  if (field.secret) return `s3cretpw${n}`.slice(0, Math.max(field.max ?? 64, 8))
  const text = `${field.name.replace(/_/g, ' ')} ${n}`
  const max = field.max ?? 255
  return (text.length > max ? `${n}`.padStart(Math.min(max, 5), 'x') : text).slice(0, max).padEnd(field.min ?? 0, 'x')
}

async function valueFor(field: Field, ensure: Ensure): Promise<unknown> {
  if (field.options?.length) return field.multiple ? [field.options[0]!.value] : field.options[0]!.value
  if (field.relation) {
    const id = await ensure(field.relation.entity)
    return field.relation.many ? [id] : id
  }
  switch (field.storage) {
    case 'app': {
      const apps = field.apps ?? []
      const family = field.family ?? 'pabx'
      const none = apps.find((app) => destinationApp(family, app)?.appdata === 'none')
      if (none) return { app: none, appdata: '' }
      const number = apps.find((app) => destinationApp(family, app)?.appdata === 'number')
      if (number) return { app: number, appdata: '5511999998888' }
      const target = destinationApp(family, apps[0]!)!
      return { app: apps[0], appdata: await ensure(target.entity!) }
    }
    case 'int':
    case 'numeric':
      return Math.max(field.min ?? 0, Math.min(field.max ?? 1, 1))
    case 'bool':
      return true
    case 'timestamptz':
      return '2030-01-01T10:00:00Z'
    case 'jsonb':
      return []
    case 'rows':
      return [await rowFor(field.fields ?? [], ensure)]
    default:
      return textFor(field)
  }
}

async function rowFor(fields: readonly Field[], ensure: Ensure): Promise<Record<string, unknown>> {
  const row: Record<string, unknown> = {}
  for (const field of fields.filter(holdsValue)) if (field.required) row[field.name] = await valueFor(field, ensure)
  return row
}

/** The body of a create; `extra` fields are filled too (e.g. to reach an optional reference). */
export async function validBody(entity: Entity, ensure: Ensure, extra: readonly string[] = []): Promise<Body> {
  const values = formValuesFor(entity)
  for (let round = 0; round < 5; round++) {
    let changed = false
    for (const field of entity.fields.filter(holdsValue)) {
      const wanted = isRequired(field, values, 'create') || (field.unique && field.storage === 'text') || extra.includes(field.name)
      if (!wanted || !isEmpty(values[field.name]) || field.storage === 'file') continue
      values[field.name] = await valueFor(field, ensure)
      changed = true
    }
    if (!changed) break
  }
  const files: Body['files'] = {}
  for (const field of entity.fields.filter((f) => f.storage === 'file' && f.required)) {
    files[field.name] = field.accept?.startsWith('audio')
      ? { name: 'prompt.wav', type: 'audio/wav', data: WAV }
      : { name: 'logo.png', type: 'image/png', data: PNG }
  }
  return { values, files }
}

/** The first required field the schema has no default for: leaving it out must be refused. */
export function requiredWithoutDefault(entity: Entity): Field | undefined {
  return entity.fields.find((f) => holdsValue(f) && f.required && f.default === undefined && f.storage !== 'file' && !f.secret)
}

/** A field naming rows of another entity by id (reference, m2m or destination): what site isolation is tried on. */
export function referenceField(entity: Entity): Field | undefined {
  return entity.fields.find(
    (f) =>
      holdsValue(f) &&
      ((f.relation && f.relation.entity !== entity.key && !f.relation.via) ||
        (f.storage === 'app' && (f.apps ?? []).some((app) => destinationApp(f.family ?? 'pabx', app)?.entity))),
  )
}

export { entityByKey }
