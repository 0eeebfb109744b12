import { sendTo } from 'xstate'
import { webchatStatusMachine } from '../../../machines/webchatStatus.machine.ts'
import { defineSlice, serviceSocketRef, socketEvent } from '../slice.ts'

// The webchat status (spec 001 §4) on the service socket; the pause slice feeds its PAUSE_CHANGED.

export const webchatStatusSlice = defineSlice('webchatStatus', ({ actor }) => ({
  logic: webchatStatusMachine.provide({ actions: { sendSocket: sendTo(serviceSocketRef, socketEvent) } }),
  input: () => ({}),
  resend: () => actor('webchatStatus').send({ type: 'RESEND' }),
}))
