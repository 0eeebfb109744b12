import { useEffect, useRef, useState } from 'react'
import Avatar from '@mui/joy/Avatar'
import Box from '@mui/joy/Box'
import Button from '@mui/joy/Button'
import Stack from '@mui/joy/Stack'
import Typography from '@mui/joy/Typography'
import { useQueryClient } from '@tanstack/react-query'
import { Trans, useLingui } from '@lingui/react/macro'
import { message } from '../../../contract/messages.ts'
import { AVATAR_MAX_BYTES, AVATAR_TYPES } from '../../../contract/api/profile.ts'
import type { Profile } from '../../../contract/api/profile.ts'
import { changeAvatar } from '../../api/profile.ts'
import { profileQuery } from '../../api/session.ts'
import { displayName, useProfile } from '../../api/useProfile.ts'
import { submitErrors } from '../../api/errors.ts'
import { FormErrors } from '../../components/form/FormErrors.tsx'
import { DeleteIcon, UploadIcon } from '../../components/icons/icons.tsx'
import { toast } from '../../components/toast/toastStore.ts'
import { ProfileFormCard } from './ProfileFormCard.tsx'

/** Why a chosen file cannot be an avatar, or undefined when it can. */
export function avatarProblem(file: Pick<File, 'type' | 'size'>, lang: string): string | undefined {
  if (!(AVATAR_TYPES as readonly string[]).includes(file.type)) return message('invalidImage', lang)
  if (file.size > AVATAR_MAX_BYTES) return message('fileTooLarge', lang, { n: AVATAR_MAX_BYTES / 1024 / 1024 })
  return undefined
}

/** /profile/change-avatar — choose an image, see it before saving, or remove the current one. */
export function ChangeAvatarForm() {
  const { t, i18n } = useLingui()
  const profile = useProfile()
  const queryClient = useQueryClient()
  const input = useRef<HTMLInputElement>(null)
  const [file, setFile] = useState<File | null>(null)
  const [preview, setPreview] = useState<string | null>(null)
  const [errors, setErrors] = useState<string[]>([])
  const [busy, setBusy] = useState<'save' | 'remove' | null>(null)

  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview])

  const choose = (chosen: File | undefined) => {
    setErrors([])
    if (!chosen) return
    const problem = avatarProblem(chosen, i18n.locale)
    if (problem) return setErrors([problem])
    setFile(chosen)
    setPreview(URL.createObjectURL(chosen))
  }

  const send = async (next: File | null) => {
    setBusy(next ? 'save' : 'remove')
    setErrors([])
    try {
      const updated = await changeAvatar(next)
      if (updated && typeof updated === 'object' && 'username' in updated) queryClient.setQueryData<Profile>(profileQuery.queryKey, updated)
      else await queryClient.invalidateQueries({ queryKey: profileQuery.queryKey })
      setFile(null)
      setPreview(null)
      toast.success(next ? t`Avatar atualizado.` : t`Avatar removido.`)
    } catch (error) {
      const mapped = submitErrors(error, [])
      const detail = mapped.toast
      if (detail !== undefined) toast.error(t`Ocorreu um erro ${detail}`)
      else setErrors(mapped.form)
    } finally {
      setBusy(null)
    }
  }

  const shown = preview ?? profile.avatar ?? '/default-avatar.svg'
  return (
    <ProfileFormCard title={<Trans>Alterar avatar</Trans>} subtitle={<Trans>PNG, JPEG, GIF ou WebP de até 2 MB.</Trans>}>
      <Stack spacing={3}>
        <FormErrors errors={errors} />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={3} alignItems="center">
          <Avatar src={shown} alt={displayName(profile)} sx={{ '--Avatar-size': '128px', boxShadow: 'md' }} data-testid="avatar-preview" />
          <Box
            onDragOver={(e) => e.preventDefault()}
            onDrop={(e) => {
              e.preventDefault()
              choose(e.dataTransfer.files[0])
            }}
            onClick={() => input.current?.click()}
            role="button"
            tabIndex={0}
            onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && input.current?.click()}
            sx={{
              flex: 1,
              alignSelf: 'stretch',
              border: '2px dashed',
              borderColor: 'neutral.outlinedBorder',
              borderRadius: 'lg',
              p: 3,
              cursor: 'pointer',
              display: 'flex',
              flexDirection: 'column',
              alignItems: 'center',
              justifyContent: 'center',
              gap: 1,
              textAlign: 'center',
              '&:hover': { borderColor: 'primary.400', bgcolor: 'primary.softBg' },
            }}
          >
            <UploadIcon sx={{ fontSize: 32, color: 'primary.500' }} />
            <Typography level="title-sm">{file ? file.name : <Trans>Clique ou arraste uma imagem aqui</Trans>}</Typography>
            <Typography level="body-xs" textColor="text.tertiary">
              {preview ? <Trans>Pré-visualização — salve para aplicar.</Trans> : <Trans>A imagem aparece aqui antes de salvar.</Trans>}
            </Typography>
            <input ref={input} type="file" accept={AVATAR_TYPES.join(',')} hidden data-testid="avatar-input" onChange={(e) => choose(e.target.files?.[0])} />
          </Box>
        </Stack>
        <Stack direction="row" spacing={1} justifyContent="flex-end" flexWrap="wrap" useFlexGap>
          {profile.avatar && !file && (
            <Button
              variant="plain"
              color="danger"
              startDecorator={<DeleteIcon />}
              loading={busy === 'remove'}
              disabled={busy !== null}
              onClick={() => void send(null)}
            >
              <Trans>Remover avatar</Trans>
            </Button>
          )}
          {file && (
            <Button
              variant="plain"
              color="neutral"
              disabled={busy !== null}
              onClick={() => {
                setFile(null)
                setPreview(null)
              }}
            >
              <Trans>Cancelar</Trans>
            </Button>
          )}
          <Button
            startDecorator={<UploadIcon />}
            disabled={!file || busy !== null}
            loading={busy === 'save'}
            onClick={() => file && void send(file)}
            data-testid="avatar-save"
          >
            <Trans>Salvar avatar</Trans>
          </Button>
        </Stack>
      </Stack>
    </ProfileFormCard>
  )
}
