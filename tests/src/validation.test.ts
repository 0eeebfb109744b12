import { describe, expect, it } from 'vitest'
import { LoginBody } from '../../contract/api/auth.ts'
import { ChangePasswordBody, ProfileUpdateBody } from '../../contract/api/profile.ts'
import { installValidationMessages } from '../../src/app/validationMessages.ts'
import { schemaFieldErrors } from '../../src/components/form/validation.ts'

installValidationMessages()

describe('form validation with the contract schemas', () => {
  it('answers in the active language, also for rules without their own message', () => {
    expect(schemaFieldErrors(LoginBody, { username: '', password: '' }, 'pt-BR')).toEqual({
      username: 'Este campo é obrigatório',
      password: 'Este campo é obrigatório',
    })
    expect(schemaFieldErrors(LoginBody, { username: '', password: '' }, 'en-US')).toEqual({
      username: 'This field is required',
      password: 'This field is required',
    })
    expect(schemaFieldErrors(LoginBody, { username: 'a', password: 'x'.repeat(129) }, 'es-ES')).toEqual({
      password: 'Este campo es más largo que el máximo permitido de 128',
    })
  })

  it('puts the confirmation mismatch on new_password2', () => {
    expect(schemaFieldErrors(ChangePasswordBody, { old_password: 'a', new_password1: 'abc12345', new_password2: 'abc12346' }, 'en-US')).toEqual({
      new_password2: 'The passwords do not match.',
    })
  })

  it('accepts valid personal data and refuses a bad e-mail', () => {
    expect(schemaFieldErrors(ProfileUpdateBody, { first_name: 'Ana', last_name: '', email: '', avatar_message: '' }, 'pt-BR')).toBeUndefined()
    expect(schemaFieldErrors(ProfileUpdateBody, { first_name: 'Ana', last_name: '', email: 'x@', avatar_message: '' }, 'pt-BR')).toEqual({
      email: 'E-mail inválido',
    })
  })
})
