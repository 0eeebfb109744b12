import { PROFILE_PATHS } from '../../contract/api/profile.ts'
import type { ChangePasswordBody, Profile, ProfileUpdateBody } from '../../contract/api/profile.ts'
import { api } from './client.ts'

export function updateProfile(body: ProfileUpdateBody) {
  return api.patch<Profile>(PROFILE_PATHS.profile, body)
}

export function changePassword(body: ChangePasswordBody) {
  return api.post<unknown>(PROFILE_PATHS.password, body)
}

/** Uploads a new avatar (multipart field `avatar`), or removes it when file is null. */
export function changeAvatar(file: File | null) {
  if (!file) return api.delete<Profile>(PROFILE_PATHS.avatar)
  const form = new FormData()
  form.append('avatar', file)
  return api.post<Profile>(PROFILE_PATHS.avatar, form)
}
