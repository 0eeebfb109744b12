import { describe, expect, it } from 'vitest'
import { detectAnsweringMachine, detectFaxTone, wavSamples } from '../../server/media/app/amd.ts'
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

/** Segments of [ms, Hz or 0 for line noise] at `level`. */
function tones(segments: [number, number][], level = 6000): Int16Array {
  const total = segments.reduce((n, [ms]) => n + (ms * 8000) / 1000, 0)
  const out = new Int16Array(total)
  let i = 0
  for (const [ms, hz] of segments) {
    for (let k = 0; k < (ms * 8000) / 1000; k++, i++) out[i] = hz ? Math.round(Math.sin((2 * Math.PI * hz * i) / 8000) * level) : (i % 7) - 3
  }
  return out
}

describe('detectFaxTone (CNG, dial status 510)', () => {
  it("a fax machine's CNG (1100 Hz, 0.5 s on / 3 s off) is found when its first burst ends", () => {
    const cng = detectFaxTone(
      tones([
        [200, 0],
        [500, 1100],
        [3000, 0],
      ]),
    )
    expect(cng).toMatchObject({ fax: true, burstMs: 500 })
    expect(cng.atMs).toBe(720)
    // Quiet (a level a person's voice would pass) and with line noise on top: still a fax.
    const noisy = tones(
      [
        [500, 1100],
        [3000, 0],
      ],
      1500,
    ).map((x, i) => x + ((i * 7919) % 401) - 200)
    expect(detectFaxTone(Int16Array.from(noisy)).fax).toBe(true)
    // The audio starting mid-burst (the tone began before the answer): 400 ms heard is enough.
    expect(
      detectFaxTone(
        tones([
          [400, 1100],
          [2000, 0],
        ]),
      ).fax,
    ).toBe(true)
  })

  it('speech, a 440 Hz tone, a continuous 1100 Hz tone, a short 1100 Hz blip and silence are not a fax', () => {
    expect(
      detectFaxTone(
        tones([
          [300, 0],
          [500, 300],
          [200, 0],
          [500, 300],
          [2000, 0],
        ]),
      ),
    ).toMatchObject({ fax: false, burstMs: 0 })
    expect(detectFaxTone(tones([[3500, 440]])).fax).toBe(false)
    expect(detectFaxTone(tones([[3500, 1100]]))).toMatchObject({ fax: false, burstMs: 3500 })
    expect(
      detectFaxTone(
        tones([
          [200, 1100],
          [3000, 0],
        ]),
      ),
    ).toMatchObject({ fax: false, burstMs: 200 })
    expect(detectFaxTone(tones([[3500, 0]])).fax).toBe(false)
    // A person's "alô" (300 Hz) over the fax's tone is not pure: not CNG either.
    const mixed = tones([
      [500, 300],
      [3000, 0],
    ]).map((x, i) => x + Math.round(Math.sin((2 * Math.PI * 1100 * i) / 8000) * 3000))
    expect(detectFaxTone(Int16Array.from(mixed)).fax).toBe(false)
  })
})
