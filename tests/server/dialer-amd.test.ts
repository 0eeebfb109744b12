import { describe, expect, it } from 'vitest'
import { detectAnsweringMachine, wavSamples } from '../../server/media/app/amd.ts'
import { wavFile } from '../../server/telephony/control/recordings/mix.ts'

// Answering-machine detection on synthetic customer audio (8 kHz): a person's short "alô?" then silence vs a
// machine's long greeting, many words, or dead air.

/** Segments of [ms, voiced]: a 300 Hz tone at speech level, or near-silence (line noise). */
function audio(...segments: [number, boolean][]): Int16Array {
  const total = segments.reduce((n, [ms]) => n + (ms * 8000) / 1000, 0)
  const out = new Int16Array(total)
  let i = 0
  for (const [ms, voiced] of segments) {
    for (let k = 0; k < (ms * 8000) / 1000; k++, i++) out[i] = voiced ? Math.round(Math.sin((2 * Math.PI * 300 * i) / 8000) * 6000) : (i % 7) - 3
  }
  return out
}

describe('detectAnsweringMachine', () => {
  it('a short "alô?" then silence: human, decided 0.8 s after the greeting', () => {
    const result = detectAnsweringMachine(audio([400, false], [500, true], [3000, false]))
    expect(result).toMatchObject({ verdict: 'human', words: 1 })
    expect(result.atMs).toBe(1700)
    // "Alô, quem fala?": two words with a pause, still a person.
    expect(detectAnsweringMachine(audio([300, false], [400, true], [200, false], [500, true], [3000, false])).verdict).toBe('human')
  })

  it("a machine's long greeting, a greeting of many words, or nothing at all: machine", () => {
    const long = detectAnsweringMachine(audio([300, false], [4000, true]))
    expect(long).toMatchObject({ verdict: 'machine', atMs: 1800 })
    expect(long.reason).toContain('greeting longer than 1500 ms')
    // "Olá … você … ligou … para … a Maria": words with short pauses, none long enough to be a listener's.
    const words = detectAnsweringMachine(
      audio(
        [200, false],
        ...Array.from(
          { length: 6 },
          () =>
            [
              [400, true],
              [300, false],
            ] as [number, boolean][],
        ).flat(),
      ),
    )
    expect(words).toMatchObject({ verdict: 'machine', words: 4 })
    expect(detectAnsweringMachine(audio([3000, false]))).toMatchObject({ verdict: 'machine', reason: 'initial silence of 2500 ms' })
  })

  it('clicks shorter than a word are not words; undecided audio is uncertain; WAV files read back', () => {
    // 60 ms clicks every 700 ms for 5 s: never a word, but no 2.5 s of silence either.
    const clicks = audio(
      ...Array.from(
        { length: 8 },
        () =>
          [
            [60, true],
            [640, false],
          ] as [number, boolean][],
      ).flat(),
    )
    expect(detectAnsweringMachine(clicks)).toMatchObject({ verdict: 'uncertain', words: 0 })
    const pcm = audio([400, false], [500, true], [1500, false])
    expect(detectAnsweringMachine(wavSamples(wavFile(pcm))).verdict).toBe('human')
  })
})
