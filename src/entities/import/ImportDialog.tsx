import { useState } from 'react'
import Alert from '@mui/joy/Alert'
import Box from '@mui/joy/Box'
import Button from '@mui/joy/Button'
import DialogActions from '@mui/joy/DialogActions'
import DialogContent from '@mui/joy/DialogContent'
import DialogTitle from '@mui/joy/DialogTitle'
import FormControl from '@mui/joy/FormControl'
import FormLabel from '@mui/joy/FormLabel'
import Modal from '@mui/joy/Modal'
import ModalClose from '@mui/joy/ModalClose'
import ModalDialog from '@mui/joy/ModalDialog'
import Option from '@mui/joy/Option'
import Select from '@mui/joy/Select'
import Sheet from '@mui/joy/Sheet'
import Table from '@mui/joy/Table'
import Typography from '@mui/joy/Typography'
import { useQueryClient } from '@tanstack/react-query'
import { useLingui } from '@lingui/react/macro'
import type { Entity } from '../../../contract/entities/index.ts'
import { UploadIcon } from '../../components/icons/icons.tsx'
import { toast } from '../../components/toast/toastStore.ts'
import { entityQueryKey } from '../api.ts'
import { fieldOf } from '../list/cells.tsx'
import { useText } from '../text.ts'
import { previewImport, rowErrors, runImport } from './importApi.ts'
import type { ImportPreview, Mapping, RowError } from './importApi.ts'

/** Target field → column, from the server's suggestion (only columns the file has). */
export function initialMapping(targets: readonly string[], preview: ImportPreview): Mapping {
  const mapping: Mapping = {}
  for (const target of targets) {
    const column = preview.suggestion[target]
    if (column && preview.columns.includes(column)) mapping[target] = column
  }
  return mapping
}

/**
 * CSV import (importable entities): choose a file → the server previews it and suggests a column for each field →
 * adjust the mapping → import. All or nothing: a refused import lists each failing row, field and message.
 */
export function ImportDialog({ entity, onClose }: { entity: Entity; onClose: () => void }) {
  const { t } = useLingui()
  const text = useText()
  const queryClient = useQueryClient()
  const targets = entity.importable?.columns ?? []
  const [file, setFile] = useState<File>()
  const [preview, setPreview] = useState<ImportPreview>()
  const [mapping, setMapping] = useState<Mapping>({})
  const [errors, setErrors] = useState<RowError[]>([])
  const [failure, setFailure] = useState<string>()
  const [busy, setBusy] = useState(false)
  const labelOf = (name: string) => text(fieldOf(entity, name)?.label) || name
  const plural = text(entity.label.plural)
  const total = preview?.total

  const choose = async (chosen: File) => {
    setFile(chosen)
    setErrors([])
    setFailure(undefined)
    setBusy(true)
    try {
      const read = await previewImport(entity, chosen)
      setPreview(read)
      setMapping(initialMapping(targets, read))
    } catch (error) {
      setPreview(undefined)
      setFailure((error as Error).message)
    } finally {
      setBusy(false)
    }
  }

  const start = async () => {
    if (!file) return
    setErrors([])
    setFailure(undefined)
    setBusy(true)
    try {
      const result = await runImport(entity, file, mapping)
      const count = result?.created ?? 0
      toast.success(t`${count} registros importados.`)
      await queryClient.invalidateQueries({ queryKey: entityQueryKey(entity) })
      onClose()
    } catch (error) {
      const rows = rowErrors(error)
      setErrors(rows)
      if (!rows.length) setFailure((error as Error).message)
    } finally {
      setBusy(false)
    }
  }

  return (
    <Modal open onClose={onClose}>
      <ModalDialog aria-labelledby="import-title" sx={{ width: 'min(860px, 96vw)', overflowY: 'auto' }} data-testid="import-dialog">
        <ModalClose />
        <DialogTitle id="import-title">{t`Importar ${plural}`}</DialogTitle>
        <DialogContent sx={{ gap: 2 }}>
          <Typography level="body-sm">
            {t`Envie um arquivo CSV com cabeçalho. Colunas esperadas:`} {targets.map(labelOf).join(', ')}.
          </Typography>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
            <Button component="label" variant="outlined" color="neutral" startDecorator={<UploadIcon />} loading={busy && !preview}>
              {file ? t`Trocar arquivo` : t`Escolher arquivo CSV`}
              <input
                type="file"
                accept=".csv,text/csv"
                data-testid="import-file"
                style={{ position: 'absolute', width: 1, height: 1, opacity: 0, overflow: 'hidden' }}
                onChange={(e) => {
                  const chosen = e.target.files?.[0]
                  if (chosen) void choose(chosen)
                  e.target.value = ''
                }}
              />
            </Button>
            {file && <Typography level="body-sm">{file.name}</Typography>}
            {preview?.total !== undefined && <Typography level="body-sm" textColor="text.tertiary">{t`${total} linhas`}</Typography>}
          </Box>
          {failure && (
            <Alert color="danger" variant="soft" data-testid="import-failure">
              {failure}
            </Alert>
          )}
          {preview && (
            <>
              <Typography level="title-sm">{t`Colunas do arquivo para cada campo`}</Typography>
              <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: '1fr 1fr 1fr' }, gap: 1.5 }}>
                {targets.map((target) => (
                  <FormControl key={target} id={`import-map-${target}`}>
                    <FormLabel>{labelOf(target)}</FormLabel>
                    <Select
                      size="sm"
                      value={mapping[target] ?? ''}
                      onChange={(_, column) =>
                        setMapping((prev) => {
                          const next = { ...prev }
                          if (column) next[target] = column
                          else delete next[target]
                          return next
                        })
                      }
                      data-testid={`import-map-${target}`}
                    >
                      <Option value="">{t`Não importar`}</Option>
                      {preview.columns.map((column) => (
                        <Option key={column} value={column}>
                          {column}
                        </Option>
                      ))}
                    </Select>
                  </FormControl>
                ))}
              </Box>
              {preview.rows.length > 0 && (
                <Sheet variant="outlined" sx={{ borderRadius: 'sm', overflowX: 'auto' }}>
                  <Table size="sm" aria-label={t`Primeiras linhas do arquivo`} sx={{ '& thead th': { bgcolor: 'background.level1' } }}>
                    <thead>
                      <tr>
                        {preview.columns.map((column) => (
                          <th key={column}>{column}</th>
                        ))}
                      </tr>
                    </thead>
                    <tbody>
                      {preview.rows.slice(0, 5).map((row, i) => (
                        <tr key={i}>
                          {preview.columns.map((_, j) => (
                            <td key={j}>{row[j] ?? ''}</td>
                          ))}
                        </tr>
                      ))}
                    </tbody>
                  </Table>
                </Sheet>
              )}
            </>
          )}
          {errors.length > 0 && (
            <Box data-testid="import-errors">
              <Alert color="danger" variant="soft" sx={{ mb: 1 }}>
                {t`Nada foi importado: corrija as linhas abaixo e envie o arquivo de novo.`}
              </Alert>
              <Sheet variant="outlined" sx={{ borderRadius: 'sm', maxHeight: 280, overflow: 'auto' }}>
                <Table size="sm" stickyHeader aria-label={t`Erros da importação`}>
                  <thead>
                    <tr>
                      <th style={{ width: 80 }}>{t`Linha`}</th>
                      <th style={{ width: '30%' }}>{t`Campo`}</th>
                      <th>{t`Mensagem`}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {errors.map((e, i) => (
                      <tr key={i} data-testid="import-error-row">
                        <td>{e.row}</td>
                        <td>{e.field ? labelOf(e.field) : '—'}</td>
                        <td>{e.message}</td>
                      </tr>
                    ))}
                  </tbody>
                </Table>
              </Sheet>
            </Box>
          )}
        </DialogContent>
        <DialogActions>
          <Button
            disabled={!preview || busy || Object.keys(mapping).length === 0}
            loading={busy && !!preview}
            onClick={() => void start()}
            data-testid="import-start"
          >
            {t`Importar`}
          </Button>
          <Button variant="plain" color="neutral" onClick={onClose}>
            {t`Cancelar`}
          </Button>
        </DialogActions>
      </ModalDialog>
    </Modal>
  )
}
