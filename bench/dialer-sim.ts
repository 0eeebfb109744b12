import { simulate, type SimConfig, type SimReport } from '../server/dialer/simulator.ts'
import type { PacerConfig } from '../server/dialer/pacer.ts'

// The dialer's pacing on the simulator (server/dialer/simulator.ts, the same pace() the live dialer runs): 20 agents,
// answer rate 30 % (busy 10 %, no answer 50 % ringing out at 30 s, 10 % other failures), talk 60–180 s, wrap-up
// 5–15 s, answered calls waiting 2 s for an agent before they count as abandoned. Occupancy = talk share of
// logged-in time. Goal (issue 18): predictive ≥ 80 % occupancy with abandon ≤ 3 %.
// Run: npm exec -- node bench/dialer-sim.ts   (BENCH_HOURS per run, 8; BENCH_SEEDS, 3)

const hours = Number(process.env.BENCH_HOURS ?? 8)
const seeds = Array.from({ length: Number(process.env.BENCH_SEEDS ?? 3) }, (_, i) => 1 + i)

const campaign: Omit<SimConfig, 'pacer' | 'seed'> = {
  agents: 20,
  hours,
  rates: { answer: 0.3, busy: 0.1, noAnswer: 0.5 },
  ring: { answer: { kind: 'uniform', min: 5, max: 20 }, busy: { kind: 'uniform', min: 2, max: 5 }, noAnswer: { kind: 'fixed', value: 30 } },
  talk: { kind: 'uniform', min: 60, max: 180 },
  wrap: { kind: 'uniform', min: 5, max: 15 },
}

const pacers: [string, PacerConfig][] = [
  ['preview', { mode: 'preview' }],
  ['progressive', { mode: 'progressive' }],
  ['power 2', { mode: 'power', ratio: 2 }],
  ['power 3', { mode: 'power', ratio: 3 }],
  ['predictive', { mode: 'predictive' }],
  ['predictive target 2 %', { mode: 'predictive', targetAbandon: 0.02 }],
]

const windows: [string, SimConfig['initialWindow']][] = [
  ['cold start (empty 30-day window)', undefined],
  ['warm (last 30 days: 10,000 answered, 1.5 % abandoned)', { answered: 10_000, abandoned: 150 }],
]

const pct = (x: number) => `${(x * 100).toFixed(1)} %`
const mean = (rs: SimReport[], f: (r: SimReport) => number) => rs.reduce((a, r) => a + f(r), 0) / rs.length

console.log(`dialer simulator: ${campaign.agents} agents, ${hours} h per run, seeds ${seeds.join(',')}, answer 30 %, talk 60–180 s, wrap 5–15 s`)
for (const [label, initialWindow] of windows) {
  console.log(`\n${label}`)
  console.log('mode                   occupancy  wrap    idle    abandon  worst 30-day  answered/agent·h  dials/s  cap clips  breaches')
  for (const [name, pacer] of pacers) {
    const started = performance.now()
    const runs = seeds.map((seed) => simulate({ ...campaign, seed, pacer, initialWindow }))
    const ms = performance.now() - started
    const abandon =
      runs.reduce((a, r) => a + r.abandoned, 0) /
      Math.max(
        1,
        runs.reduce((a, r) => a + r.answered, 0),
      )
    console.log(
      [
        name.padEnd(22),
        pct(mean(runs, (r) => r.occupancy)).padStart(9),
        pct(mean(runs, (r) => r.wrapShare)).padStart(7),
        pct(mean(runs, (r) => r.idleShare)).padStart(7),
        pct(abandon).padStart(8),
        pct(Math.max(...runs.map((r) => r.maxWindowRate))).padStart(13),
        mean(runs, (r) => r.answeredPerAgentHour)
          .toFixed(1)
          .padStart(17),
        mean(runs, (r) => r.dialsPerSecond)
          .toFixed(2)
          .padStart(8),
        String(runs.reduce((a, r) => a + r.capClipped, 0)).padStart(10),
        String(runs.reduce((a, r) => a + r.capBreaches, 0)).padStart(9),
        `  (${((seeds.length * hours * 3600) / (ms / 1000) / 3600).toFixed(0)} simulated h/s)`,
      ].join(' '),
    )
  }
}
