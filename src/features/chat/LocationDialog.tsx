import { useState } from 'react'
import Button from '@mui/joy/Button'
import DialogActions from '@mui/joy/DialogActions'
import DialogContent from '@mui/joy/DialogContent'
import DialogTitle from '@mui/joy/DialogTitle'
import FormControl from '@mui/joy/FormControl'
import FormHelperText from '@mui/joy/FormHelperText'
import FormLabel from '@mui/joy/FormLabel'
import Input from '@mui/joy/Input'
import Modal from '@mui/joy/Modal'
import ModalClose from '@mui/joy/ModalClose'
import ModalDialog from '@mui/joy/ModalDialog'
import Stack from '@mui/joy/Stack'
import { useLingui } from '@lingui/react/macro'
import type { ChatLocation } from '../../../contract/api/chat.ts'
import { PlaceIcon } from './icons.tsx'

/**
 * 'latitude, longitude' as a maps page copies it ("-23.561414, -46.655881", also with a semicolon or spaces only);
 * null unless both are numbers in range.
 */
export function parseCoordinates(text: string): { latitude: number; longitude: number } | null {
  const parts = text
    .trim()
    .split(/\s*[,;]\s*|\s+/)
    .filter(Boolean)
  if (parts.length !== 2 || !parts.every((part) => /^[+-]?\d+(\.\d+)?$/.test(part))) return null
  const [latitude, longitude] = parts.map(Number) as [number, number]
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null
  return { latitude, longitude }
}

/**
 * The agent shares a place (spec 001 §3 Message `location`: name, latitude, longitude; issue 14 "a location both
 * ways"): the coordinates pasted from a maps page or taken from the browser's position, an optional name and address.
 * WhatsApp gets a location message; the website widget a line with the place and its map link.
 */
export function LocationDialog({ onSend, onClose }: { onSend: (location: ChatLocation) => void; onClose: () => void }) {
  const { t } = useLingui()
  const [coordinates, setCoordinates] = useState('')
  const [name, setName] = useState('')
  const [address, setAddress] = useState('')
  const [touched, setTouched] = useState(false)
  const [locating, setLocating] = useState(false)
  const [positionError, setPositionError] = useState(false)
  const parsed = parseCoordinates(coordinates)
  const invalid = touched && !parsed
  const canLocate = typeof navigator !== 'undefined' && !!navigator.geolocation

  const locate = () => {
    setLocating(true)
    setPositionError(false)
    navigator.geolocation.getCurrentPosition(
      (position) => {
        setCoordinates(`${position.coords.latitude.toFixed(6)}, ${position.coords.longitude.toFixed(6)}`)
        setLocating(false)
      },
      () => {
        setPositionError(true)
        setLocating(false)
      },
      { timeout: 10_000 },
    )
  }

  const submit = () => {
    setTouched(true)
    if (!parsed) return
    onSend({ ...parsed, name: name.trim(), address: address.trim() })
  }

  return (
    <Modal open onClose={onClose}>
      <ModalDialog sx={{ width: 'min(500px, 96vw)' }} data-testid="location-dialog">
        <ModalClose aria-label={t`Fechar`} />
        <DialogTitle>{t`Enviar localização`}</DialogTitle>
        <DialogContent>
          <Stack
            component="form"
            spacing={1.5}
            noValidate
            onSubmit={(event) => {
              event.preventDefault()
              submit()
            }}
          >
            <FormControl error={invalid || positionError} required>
              <FormLabel>{t`Latitude, longitude`}</FormLabel>
              <Input
                autoFocus
                value={coordinates}
                onChange={(event) => setCoordinates(event.target.value)}
                onBlur={() => setTouched(coordinates.trim() !== '')}
                placeholder="-23.561414, -46.655881"
                slotProps={{ input: { inputMode: 'decimal', 'data-testid': 'location-coordinates' } }}
                endDecorator={
                  canLocate && (
                    <Button size="sm" variant="soft" loading={locating} startDecorator={<PlaceIcon />} onClick={locate} data-testid="location-mine">
                      {t`Minha localização`}
                    </Button>
                  )
                }
              />
              {invalid && <FormHelperText>{t`Coordenadas inválidas`}</FormHelperText>}
              {positionError && !invalid && <FormHelperText>{t`Não foi possível obter a sua localização`}</FormHelperText>}
            </FormControl>
            <FormControl>
              <FormLabel>{t`Nome do local`}</FormLabel>
              <Input value={name} onChange={(event) => setName(event.target.value)} slotProps={{ input: { maxLength: 255, 'data-testid': 'location-name' } }} />
            </FormControl>
            <FormControl>
              <FormLabel>{t`Endereço`}</FormLabel>
              <Input value={address} onChange={(event) => setAddress(event.target.value)} slotProps={{ input: { maxLength: 255 } }} />
            </FormControl>
            <button type="submit" hidden />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={submit} data-testid="location-send">
            {t`Enviar`}
          </Button>
          <Button variant="plain" color="neutral" onClick={onClose}>
            {t`Cancelar`}
          </Button>
        </DialogActions>
      </ModalDialog>
    </Modal>
  )
}
