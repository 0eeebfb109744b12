import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { npsMachine, scoreOf, TEN_MS } from '../../server/media/app/nps.ts'
import { voicemailMachine } from '../../server/media/app/voicemail.ts'

// The NPS-by-keypad and voicemail machines alone (the engines' test, media-voicemail.test.ts, drives them with real
// calls): which key is which score, the 1-then-0 ten, retries, timeouts, and what a recording leads to.

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

function survey(input: { questions: number; scale: string; attempts: number }) {
  const answers: [number, number][] = []
  const log: string[] = []
  const machine = npsMachine.provide({
    actions: {
      playQuestion: (_, { question }) => log.push(`q${question}`),
      playInvalid: () => log.push('invalid'),
      playThanks: () => log.push('thanks'),
      stopPlaying: () => {},
      answer: (_, { question, score }) => void answers.push([question, score]),
      hangup: () => log.push('hangup'),
    },
  })
  const actor = createActor(machine, { input: { ...input, timeoutMs: 1000 } }).start()
  const key = (digit: string) => actor.send({ type: 'DTMF', digit })
  const played = () => actor.send({ type: 'PLAYED' })
  return { actor, answers, log, key, played }
}

describe('NPS by keypad', () => {
  it('scores keys on the scale only', () => {
    expect(['0', '5', '9', '10'].map((k) => scoreOf(k, '0-10'))).toEqual([0, 5, 9, 10])
    expect(['#', '11', '*'].map((k) => scoreOf(k, '0-10'))).toEqual([null, null, null])
    expect(['0', '3', '6'].map((k) => scoreOf(k, '1-5'))).toEqual([null, 3, null])
  })

  it('answers each question with a key; 1 then 0 is ten, a lone 1 is one once the wait is over', () => {
    const s = survey({ questions: 3, scale: '0-10', attempts: 2 })
    s.key('7')
    s.played()
    s.key('1')
    s.key('0')
    s.key('1')
    vi.advanceTimersByTime(TEN_MS + 10)
    expect(s.answers).toEqual([
      [0, 7],
      [1, 10],
      [2, 1],
    ])
    expect(s.log).toEqual(['q0', 'q1', 'q2', 'thanks'])
    s.played()
    expect(s.log.at(-1)).toBe('hangup')
  })

  it('asks again after an invalid key or no key, and leaves the question unanswered after its attempts', () => {
    const s = survey({ questions: 2, scale: '1-5', attempts: 2 })
    s.key('9')
    s.played()
    expect(s.log).toEqual(['q0', 'invalid', 'q0'])
    s.played()
    vi.advanceTimersByTime(1010)
    // Two tries spent: the next question.
    expect(s.log.at(-1)).toBe('q1')
    s.key('1')
    expect(s.answers).toEqual([[1, 1]])
    expect(s.log.at(-1)).toBe('thanks')
  })
})

describe('voicemail', () => {
  function box(canRecord: boolean) {
    const log: string[] = []
    const machine = voicemailMachine.provide({
      actions: {
        playGreeting: () => log.push('greeting'),
        startRecording: () => log.push('record'),
        stopRecording: () => log.push('stop'),
        store: (_, { ms }) => log.push(`store ${ms}`),
        playGoodbye: () => log.push('goodbye'),
        hangup: () => log.push('hangup'),
      },
    })
    const actor = createActor(machine, { input: { maxMs: 2000, canRecord } }).start()
    return { actor, log }
  }

  it('records after the greeting and the tone; # stops; the recording is stored, then goodbye', () => {
    const { actor, log } = box(true)
    actor.send({ type: 'DTMF', digit: '5' })
    actor.send({ type: 'PLAYED' })
    actor.send({ type: 'DTMF', digit: '1' })
    actor.send({ type: 'DTMF', digit: '#' })
    actor.send({ type: 'RECORDED', file: '/x.wav', ms: 4200 })
    actor.send({ type: 'PLAYED' })
    expect(log).toEqual(['greeting', 'record', 'stop', 'store 4200', 'goodbye', 'hangup'])
  })

  it('a full box says goodbye without recording', () => {
    const { actor, log } = box(false)
    actor.send({ type: 'PLAYED' })
    actor.send({ type: 'PLAYED' })
    expect(log).toEqual(['greeting', 'goodbye', 'hangup'])
  })
})
