import { createActor, sendParent, type AnyMachineSnapshot } from 'xstate'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { chatRoomMachine, type ChatRoomInput } from '../../machines/chatRoom.machine.ts'
import { chatRoomsMachine, roomActorId, type ChatRoomsContext } from '../../machines/chatRooms.machine.ts'
import { createFakes, describePaths, effectsOf, type Fakes } from './paths.ts'

const ROOM_ACTIONS = ['sendSocket', 'startRing', 'stopRing', 'showNotification', 'closeNotification', 'ringInactivity', 'notify', 'retryUnread'] as const

function build(fakes: Fakes) {
  const room = chatRoomMachine.provide({
    actions: {
      ...fakes.actions(ROOM_ACTIONS),
      removed: sendParent((_, params: { stepId: number; answered: boolean }) => ({ type: 'ROOM_REMOVED' as const, ...params })),
    },
  })
  return chatRoomsMachine.provide({ actors: { chatRoom: room } })
}

const ROOM: ChatRoomInput = { stepId: 9, chatType: 20, assignedToMe: false, removeAfterSeconds: 1 }
const context = (snapshot: AnyMachineSnapshot) => snapshot.context as ChatRoomsContext

describePaths({
  name: 'chatRooms',
  machine: chatRoomsMachine,
  input: undefined,
  events: () => [
    { type: 'ROOMS_SEEN', rooms: [ROOM] },
    { type: 'ROOM_REMOVED', stepId: 9, answered: true },
    { type: 'ROOM_REMOVED', stepId: 9, answered: false },
    { type: 'CLEAR' },
  ],
  // Simple paths: false — three states of the ids (none, active, finished); its simple paths are the shortest ones.
  simplePaths: false,
  build,
  expectEffects: (snapshot, log, path) => {
    const { active, finished } = context(snapshot)
    // A room answered and removed is finished: listed again, it is not spawned again.
    if (finished.includes(9)) expect(active).not.toContain(9)
    const spawns = path.steps.filter(
      (step, index) =>
        index > 0 && step.event.type === 'ROOMS_SEEN' && context(step.state).active.includes(9) && !context(path.steps[index - 1].state).active.includes(9),
    )
    expect(effectsOf(log, 'startRing')).toHaveLength(spawns.length)
  },
})

describe('chatRooms behaviour', () => {
  beforeEach(() => void vi.useFakeTimers())
  afterEach(() => void vi.useRealTimers())

  it('spawns each listed room once, routes events to it, and never re-adds a finished room', async () => {
    const fakes = createFakes()
    const actor = createActor(build(fakes)).start()
    actor.send({ type: 'ROOMS_SEEN', rooms: [ROOM, { ...ROOM, stepId: 10 }] })
    actor.send({ type: 'ROOMS_SEEN', rooms: [ROOM] })
    expect(context(actor.getSnapshot()).active).toEqual([9, 10])
    expect(effectsOf(fakes.log, 'startRing')).toHaveLength(2)
    actor.send({ type: 'ROOM', stepId: 9, event: { type: 'ANSWER' } })
    expect(effectsOf(fakes.log, 'sendSocket')).toEqual([{ action: 'answer', step_id: 9 }])
    actor.send({ type: 'ROOM', stepId: 9, event: { type: 'ANSWERED' } })
    actor.send({ type: 'ROOM', stepId: 9, event: { type: 'ENDED' } })
    await vi.advanceTimersByTimeAsync(1000)
    expect(context(actor.getSnapshot())).toEqual({ active: [10], finished: [9] })
    expect(actor.getSnapshot().children[roomActorId(9)]).toBeUndefined()
    actor.send({ type: 'ROOMS_SEEN', rooms: [ROOM] })
    expect(context(actor.getSnapshot()).active).toEqual([10])
    // Hung up before it was answered: removed, but not finished (the server may offer it again).
    actor.send({ type: 'ROOM', stepId: 10, event: { type: 'HANGUP' } })
    expect(context(actor.getSnapshot())).toEqual({ active: [], finished: [9] })
  })
})
