import { useState } from 'react'
import type { ReactNode } from 'react'
import Alert from '@mui/joy/Alert'
import Box from '@mui/joy/Box'
import Button from '@mui/joy/Button'
import DialogActions from '@mui/joy/DialogActions'
import DialogContent from '@mui/joy/DialogContent'
import DialogTitle from '@mui/joy/DialogTitle'
import IconButton from '@mui/joy/IconButton'
import Modal from '@mui/joy/Modal'
import ModalDialog from '@mui/joy/ModalDialog'
import Sheet from '@mui/joy/Sheet'
import Table from '@mui/joy/Table'
import Typography from '@mui/joy/Typography'
import { useLingui } from '@lingui/react/macro'
import type { Field, Values } from '../../../../contract/entities/index.ts'
import { formValuesFor } from '../../../../contract/entities/index.ts'
import { has, PERMISSIONS } from '../../../../contract/permissions.ts'
import { ArrowUpIcon, DeleteIcon, EditIcon } from '../../../components/icons/icons.tsx'
import { AddIcon } from '../../icons.tsx'
import { useRoles } from '../../permissions.ts'
import { useText } from '../../text.ts'
import { FIELD_COMPONENTS } from '../fieldKinds.ts'
import { FormFields } from '../FieldRenderer.tsx'
import type { FieldComponents, FieldInputProps, FieldReadOnlyProps } from '../types.ts'
import { nestedOf, rowEntity, validateValues } from '../validate.ts'
import { asList } from './shared.ts'

type Row = Values

/** At most this many columns in the table; the row's dialog shows every field. */
const MAX_COLUMNS = 6

/** The columns a rows table shows: the first sub-fields but hidden and layout ones. */
function columnsOf(field: Field): Field[] {
  return (field.fields ?? []).filter((f) => f.kind !== 'hidden' && f.storage !== 'none').slice(0, MAX_COLUMNS)
}

function RowsTable({
  field,
  rows,
  errors,
  actions,
}: {
  field: Field
  rows: Row[]
  errors?: Readonly<Record<string, string>>
  actions?: (row: Row, index: number) => ReactNode
}) {
  const { t } = useLingui()
  const text = useText()
  const columns = columnsOf(field)
  return (
    <Sheet variant="outlined" sx={{ borderRadius: 'sm', overflowX: 'auto' }}>
      <Table size="sm" sx={{ '& thead th': { bgcolor: 'background.level1' }, minWidth: columns.length * 120 }}>
        <thead>
          <tr>
            <th style={{ width: 40 }}>#</th>
            {columns.map((c) => (
              <th key={c.name}>{text(c.label)}</th>
            ))}
            {actions && <th style={{ width: 150 }} aria-label={t`Ações`} />}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr>
              <td colSpan={columns.length + 2}>
                <Typography level="body-sm" textColor="text.tertiary" sx={{ textAlign: 'center', py: 1.5 }}>
                  {t`Sem resultados`}
                </Typography>
              </td>
            </tr>
          )}
          {rows.map((row, index) => {
            const rowErrors = errors ? nestedOf(errors, String(index)) : {}
            const invalid = Object.keys(rowErrors).length > 0
            return (
              <tr
                key={index}
                data-testid="datatable-row"
                data-invalid={invalid || undefined}
                style={invalid ? { background: 'var(--joy-palette-danger-softBg)' } : undefined}
              >
                <td>{index + 1}</td>
                {columns.map((c) => {
                  const { ReadOnly } = FIELD_COMPONENTS[c.kind]
                  return (
                    <td key={c.name} title={rowErrors[c.name]}>
                      <ReadOnly field={c} value={row[c.name]} values={row} />
                      {rowErrors[c.name] && (
                        <Typography level="body-xs" color="danger">
                          {rowErrors[c.name]}
                        </Typography>
                      )}
                    </td>
                  )
                })}
                {actions && <td style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>{actions(row, index)}</td>}
              </tr>
            )
          })}
        </tbody>
      </Table>
    </Sheet>
  )
}

/** The sub-form of one row: the same renderer; Save is refused while the row is invalid (spec 001 §5). */
function RowDialog({
  field,
  initial,
  onSave,
  onClose,
  context,
}: {
  field: Field
  initial: Row
  onSave: (row: Row) => void
  onClose: () => void
  context: FieldInputProps['context']
}) {
  const { t, i18n } = useLingui()
  const text = useText()
  const [row, setRow] = useState<Row>(initial)
  const [attempted, setAttempted] = useState(false)
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set())
  const entity = rowEntity(field, context.entity)
  const errors = validateValues(entity, context.mode, row, i18n.locale)
  const shown = Object.fromEntries(Object.entries(errors).filter(([path]) => attempted || touched.has(path.split('.')[0]!)))
  const save = () => {
    setAttempted(true)
    if (Object.keys(errors).length === 0) onSave(row)
  }
  return (
    <Modal open onClose={onClose}>
      <ModalDialog aria-labelledby="row-dialog-title" sx={{ width: 'min(720px, 96vw)', overflowY: 'auto' }} data-testid="datatable-dialog">
        <DialogTitle id="row-dialog-title">{text(field.label)}</DialogTitle>
        <DialogContent sx={{ overflow: 'visible' }}>
          <form
            noValidate
            id="row-form"
            onSubmit={(e) => {
              e.preventDefault()
              e.stopPropagation()
              save()
            }}
          >
            {attempted && Object.keys(errors).length > 0 && (
              <Alert color="danger" variant="soft" sx={{ mb: 2 }} data-testid="row-invalid">
                {t`Corrija os campos destacados para salvar a linha.`}
              </Alert>
            )}
            <FormFields
              fields={field.fields ?? []}
              values={row}
              errors={shown}
              onChange={(name, value) => setRow((prev) => ({ ...prev, [name]: value }))}
              onBlur={(name) => setTouched((prev) => new Set(prev).add(name))}
              context={{ ...context, entity }}
            />
          </form>
        </DialogContent>
        <DialogActions>
          <Button type="submit" form="row-form" data-testid="row-save">
            {t`Salvar linha`}
          </Button>
          <Button variant="plain" color="neutral" onClick={onClose}>
            {t`Cancelar`}
          </Button>
        </DialogActions>
      </ModalDialog>
    </Modal>
  )
}

function DatatableInput(props: FieldInputProps) {
  const { t } = useLingui()
  const { field, value, onChange, onBlur, label, error, nested, context, disabled, id } = props
  const rows = asList<Row>(value)
  // Spec 001 §6: the data-table 'new' and its dialog need sites.add_site.
  const mayAdd = has(useRoles(), PERMISSIONS.addSite)
  const [editing, setEditing] = useState<{ index: number; row: Row }>()
  const entity = rowEntity(field, context.entity)
  const close = () => {
    setEditing(undefined)
    onBlur()
  }
  const move = (index: number, by: number) => {
    const next = [...rows]
    const [row] = next.splice(index, 1)
    next.splice(index + by, 0, row!)
    onChange(next)
  }
  return (
    <Box data-field={field.name} role="group" aria-labelledby={`${id}-label`}>
      <Box sx={{ display: 'flex', alignItems: 'center', mb: 1, gap: 1 }}>
        <Typography level="title-sm" id={`${id}-label`} sx={{ flex: 1 }}>
          {label}
          {props.required && ' *'}
        </Typography>
        {!disabled && mayAdd && (
          <Button
            size="sm"
            variant="soft"
            startDecorator={<AddIcon />}
            onClick={() => setEditing({ index: rows.length, row: formValuesFor(entity) })}
            data-testid="datatable-add"
          >
            {t`Adicionar`}
          </Button>
        )}
      </Box>
      <RowsTable
        field={field}
        rows={rows}
        errors={nested}
        actions={
          disabled
            ? undefined
            : (row, index) => (
                <>
                  <IconButton size="sm" variant="plain" disabled={index === 0} onClick={() => move(index, -1)} aria-label={t`Mover para cima`}>
                    <ArrowUpIcon />
                  </IconButton>
                  <IconButton
                    size="sm"
                    variant="plain"
                    onClick={() => setEditing({ index, row })}
                    aria-label={t`Editar linha ${index + 1}`}
                    data-testid="datatable-edit"
                  >
                    <EditIcon />
                  </IconButton>
                  <IconButton
                    size="sm"
                    variant="plain"
                    color="danger"
                    onClick={() => onChange(rows.filter((_, i) => i !== index))}
                    aria-label={t`Remover linha ${index + 1}`}
                  >
                    <DeleteIcon />
                  </IconButton>
                </>
              )
        }
      />
      {error && (
        <Typography level="body-sm" color="danger" sx={{ mt: 0.5 }} id={`${id}-helper-text`}>
          {error}
        </Typography>
      )}
      {editing && (
        <RowDialog
          field={field}
          initial={editing.row}
          context={context}
          onClose={close}
          onSave={(row) => {
            const next = [...rows]
            next[editing.index] = row
            onChange(next)
            close()
          }}
        />
      )}
    </Box>
  )
}

/** datatable: rows edited in a table, each through a sub-form dialog; the table is the read-only twin. */
export const datatableField: FieldComponents = {
  Input: DatatableInput,
  ReadOnly: ({ field, value }: FieldReadOnlyProps) => <RowsTable field={field} rows={asList<Row>(value)} />,
  ownLabel: true,
}

export { RowsTable }
