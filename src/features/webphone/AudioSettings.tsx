import { useEffect, useState } from 'react'
import Button from '@mui/joy/Button'
import CircularProgress from '@mui/joy/CircularProgress'
import FormControl from '@mui/joy/FormControl'
import FormLabel from '@mui/joy/FormLabel'
import Option from '@mui/joy/Option'
import Select from '@mui/joy/Select'
import Stack from '@mui/joy/Stack'
import Typography from '@mui/joy/Typography'
import { Trans, useLingui } from '@lingui/react/macro'
import { toast } from '../../components/toast/toastStore.ts'
import { listAudioDevices, readAudioChoice, saveAudioChoice } from './audioDevices.ts'
import type { AudioDevice, AudioDevices } from './audioDevices.ts'
import type { Webphone } from './useWebphone.ts'

// Audio settings (spec 000 §2, §5): the microphone and the speaker, kept in local storage; saving needs devices.

export function AudioSettings({ webphone }: { webphone: Webphone }) {
  const { t } = useLingui()
  const [devices, setDevices] = useState<AudioDevices | null>(null)
  const [choice, setChoice] = useState(readAudioChoice)
  useEffect(() => {
    let live = true
    void listAudioDevices().then((found) => live && setDevices(found))
    return () => {
      live = false
    }
  }, [])
  if (!devices) return <CircularProgress size="sm" sx={{ alignSelf: 'center' }} />
  const none = devices.inputs.length === 0 && devices.outputs.length === 0
  const noDevices = t`Não foram encontrados dispositivos de áudio, altere as configurações do seu navegador`
  const save = () => {
    if (none) {
      toast.error(noDevices)
      return
    }
    saveAudioChoice(choice)
    webphone.send({ type: 'SET_AUDIO_DEVICES', input: choice.input, output: choice.output })
    toast.success(t`Configurações de áudio salvas`)
    webphone.send({ type: 'SET_STAGE', stage: 'dialpad' })
  }
  return (
    <Stack spacing={1.5} data-testid="webphone-settings">
      {none && (
        <Typography level="body-sm" color="warning" data-testid="webphone-no-devices">
          {noDevices}
        </Typography>
      )}
      <DeviceSelect
        label={t`Saída de áudio`}
        testId="webphone-output"
        devices={devices.outputs}
        value={choice.output}
        onChange={(output) => setChoice((was) => ({ ...was, output }))}
      />
      <DeviceSelect
        label={t`Entrada de áudio`}
        testId="webphone-input"
        devices={devices.inputs}
        value={choice.input}
        onChange={(input) => setChoice((was) => ({ ...was, input }))}
      />
      <Button onClick={save} data-testid="webphone-settings-save">
        <Trans>Salvar</Trans>
      </Button>
    </Stack>
  )
}

type SelectProps = { label: string; testId: string; devices: AudioDevice[]; value: string | null; onChange: (id: string | null) => void }

function DeviceSelect({ label, testId, devices, value, onChange }: SelectProps) {
  const { t } = useLingui()
  // A saved device that is gone now reads as the browser's default.
  const known = devices.some((device) => device.id === value) ? value : null
  return (
    <FormControl size="sm" disabled={devices.length === 0}>
      <FormLabel>{label}</FormLabel>
      <Select
        value={known}
        placeholder={t`Padrão do navegador`}
        onChange={(_, id) => onChange(id)}
        slotProps={{ listbox: { disablePortal: true, sx: { zIndex: 1 } } }}
        data-testid={testId}
      >
        {devices.map((device) => (
          <Option key={device.id} value={device.id}>
            {device.label}
          </Option>
        ))}
      </Select>
    </FormControl>
  )
}
