import { describe, expect, it } from 'vitest'
import { compare, meanOf, sample, seededRandom, simulate, type SimConfig } from '../../server/dialer/simulator.ts'
import type { PacerDecision } from '../../server/dialer/pacer.ts'

const base: SimConfig = {
  seed: 7,
  agents: 10,
  hours: 1,
  pacer: { mode: 'predictive' },
  rates: { answer: 0.3, busy: 0.1, noAnswer: 0.5 },
  talk: { kind: 'uniform', min: 60, max: 180 },
  wrap: { kind: 'uniform', min: 5, max: 15 },
}

describe('simulator', () => {
  it('is deterministic: the same seed gives the same report, another seed another', () => {
    const a = simulate(base)
    const b = simulate(base)
    expect(b).toEqual(a)
    expect(simulate({ ...base, seed: 8 })).not.toEqual(a)
  })

  it('seeded random numbers and distributions', () => {
    const r1 = seededRandom(42)
    const r2 = seededRandom(42)
    const xs = Array.from({ length: 1000 }, () => r1())
    expect(Array.from({ length: 1000 }, () => r2())).toEqual(xs)
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0)
    expect(Math.max(...xs)).toBeLessThan(1)
    const r = seededRandom(1)
    const uniform = Array.from({ length: 5000 }, () => sample({ kind: 'uniform', min: 60, max: 180 }, r))
    expect(uniform.reduce((x, y) => x + y, 0) / uniform.length).toBeCloseTo(120, -1)
    const expo = Array.from({ length: 5000 }, () => sample({ kind: 'exponential', mean: 30, max: 100 }, r))
    expect(Math.max(...expo)).toBeLessThanOrEqual(100)
    expect(sample({ kind: 'fixed', value: 3 }, r)).toBe(3)
    expect([4, 9]).toContain(sample({ kind: 'empirical', values: [4, 9] }, r))
    expect(meanOf({ kind: 'empirical', values: [4, 8] })).toBe(6)
  })

  it('accounts for agent time and calls consistently', () => {
    const report = simulate(base)
    expect(report.occupancy + report.wrapShare + report.idleShare).toBeCloseTo(1, 6)
    expect(report.occupancy).toBeGreaterThan(0.5)
    expect(report.answered).toBeLessThanOrEqual(report.dials)
    expect(report.answered / report.dials).toBeCloseTo(0.3, 1)
    expect(report.abandoned).toBeLessThanOrEqual(report.answered)
    expect(report.answeredPerAgentHour).toBeCloseTo(report.answered / 10, 6)
  })

  it('progressive and preview never abandon; predictive keeps agents busier than progressive', () => {
    const [progressive, preview, predictive] = compare({ ...base, hours: 3, agents: 20 }, [
      { mode: 'progressive' },
      { mode: 'preview' },
      { mode: 'predictive' },
    ])
    expect(progressive!.abandoned).toBe(0)
    expect(preview!.abandoned).toBe(0)
    expect(preview!.occupancy).toBeLessThan(progressive!.occupancy) // agents spend time reading leads
    expect(predictive!.occupancy).toBeGreaterThan(progressive!.occupancy + 0.05)
    expect(predictive!.abandonRate).toBeLessThanOrEqual(0.03)
  })

  it('reports per power ratio: more calls per agent, more abandons (until the cap holds them)', () => {
    const reports = compare(
      { ...base, hours: 2, initialWindow: { answered: 20_000, abandoned: 0 } },
      [1, 2, 4].map((ratio) => ({ mode: 'power' as const, ratio })),
    )
    expect(reports.map((r) => r.ratio)).toEqual([1, 2, 4])
    expect(reports[0]!.abandoned).toBe(0)
    expect(reports[2]!.abandonRate).toBeGreaterThan(reports[1]!.abandonRate)
    expect(reports[2]!.occupancy).toBeGreaterThan(reports[0]!.occupancy)
  })

  it('replays past results: answer rate and talk times come from the history', () => {
    const history = [
      { status: 200, ringSeconds: 8, talkSeconds: 30, wrapSeconds: 5 },
      { status: 486, ringSeconds: 3 },
      { status: 480, ringSeconds: 30 },
      { status: 480, ringSeconds: 30 },
    ]
    const report = simulate({ ...base, pacer: { mode: 'progressive' }, history })
    expect(report.answered / report.dials).toBeCloseTo(0.25, 1)
    // Every answered call talked 30 s: talk time = answered × 30 s (bar the last calls cut by the end of the run).
    expect(report.occupancy * 10 * 3600).toBeLessThanOrEqual(report.answered * 30)
    expect(report.occupancy * 10 * 3600).toBeGreaterThan((report.answered - 10) * 30)
  })

  it('calls the pacer every tick with the measured state and logs its decisions', () => {
    const decisions: { t: number; d: PacerDecision }[] = []
    simulate({ ...base, hours: 0.5, onDecision: (t, d) => decisions.push({ t, d }) })
    expect(decisions.length).toBeGreaterThan(50)
    expect(decisions[0]!.d.log.learning).toBe(true) // nothing measured at first
    const later = decisions.filter((x) => x.t > 600 && x.d.log.samples !== undefined && !x.d.log.learning)
    expect(later.length).toBeGreaterThan(0)
    expect(later[0]!.d.log.answerRate).toBeGreaterThan(0.15)
    expect(later[0]!.d.log.answerRate).toBeLessThan(0.45)
    expect(later[0]!.d.log.meanTalk).toBeGreaterThan(90)
  })
})
