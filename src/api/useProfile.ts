import { useQuery } from '@tanstack/react-query'
import type { Profile } from '../../contract/api/profile.ts'
import { profileQuery } from './session.ts'

/** The signed-in user. Only for pages under the signed-in layout, whose guard has loaded it. */
export function useProfile(): Profile {
  const { data } = useQuery(profileQuery)
  if (!data) throw new Error('useProfile() used outside the signed-in layout')
  return data
}

/** Display name: first + last name, or the username (spec 000 §2). */
export function displayName(profile: Pick<Profile, 'first_name' | 'last_name' | 'username'>): string {
  return [profile.first_name, profile.last_name].filter(Boolean).join(' ').trim() || profile.username
}
