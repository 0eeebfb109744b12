import { audioPermissionMachine } from '../../../machines/audioPermission.machine.ts'
import { defineSlice } from '../slice.ts'

// Audio the browser refuses until a click (spec 000 §2, §8): every playback of the console reports here, from the
// start-up silence on (the dialog is the views').

export const audioPermissionSlice = defineSlice('audioPermission', ({ effects, actor }) => ({
  logic: audioPermissionMachine.provide({ actions: { retry: (_, { ids }) => effects.audio?.retry(ids) } }),
  start: () => {
    const audio = effects.audio
    if (!audio) return
    const unsubscribe = audio.subscribe((report) => actor('audioPermission').send(report))
    audio.probe()
    return unsubscribe
  },
}))
