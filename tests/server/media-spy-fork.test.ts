import { describe, expect, it } from 'vitest'
import { forkAnswerSdp, talkingPair } from '../../server/media/app/spy.ts'

// Listening to a call the agent took directly (server/media/app/spy.ts): which monologues of rtpengine's `query` are
// the call's two sides, and the answer to a subscription's offer. The real exchange is proven in media-monitor.test.ts.

const media = [{ index: 1, type: 'audio', protocol: 'RTP/AVP', codec: 'PCMU/8000' }]

describe('talkingPair', () => {
  it('takes the two monologues subscribed to each other by offer/answer (rtpengine 10.5)', () => {
    const tags = {
      caller: { tag: 'caller', created: 10, subscriptions: [{ tag: 'agent', type: 'offer/answer' }], medias: media },
      agent: { tag: 'agent', created: 11, subscriptions: [{ tag: 'caller', type: 'offer/answer' }], medias: media },
    }
    expect(talkingPair(tags)).toEqual(['agent', 'caller'])
  })

  it('ignores a ringing branch without a partner, a one-way subscription and monologues without media', () => {
    const tags = {
      a: { created: 10, subscriptions: [{ tag: 'b', type: 'offer/answer' }], medias: media },
      b: { created: 10, subscriptions: [{ tag: 'a', type: 'offer/answer' }], medias: [] },
      c: { created: 12, subscriptions: [{ tag: 'a', type: 'pub/sub' }], medias: media },
      d: { created: 13, medias: media },
    }
    expect(talkingPair(tags)).toBeNull()
    expect(talkingPair(null)).toBeNull()
    expect(talkingPair('x')).toBeNull()
  })

  it('picks the newest pair when a call was re-paired, and reads the older `in dialogue with` too', () => {
    const tags = {
      old1: { created: 1, 'in dialogue with': 'old2', medias: media },
      old2: { created: 1, 'in dialogue with': 'old1', medias: media },
      new1: { created: 5, subscriptions: [{ tag: 'new2', type: 'offer/answer' }], medias: media },
      new2: { created: 6, subscriptions: [{ tag: 'new1', type: 'offer/answer' }], medias: media },
    }
    expect(talkingPair(tags)).toEqual(['new1', 'new2'])
  })
})

describe('forkAnswerSdp', () => {
  const offer =
    'v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=rtpengine\r\nt=0 0\r\nm=audio 45400 RTP/AVP 0 8 101\r\nc=IN IP4 127.0.0.1\r\n' +
    'a=rtpmap:0 PCMU/8000\r\na=rtpmap:8 PCMA/8000\r\na=rtpmap:101 telephone-event/8000\r\na=fmtp:101 0-15\r\na=sendonly\r\na=rtcp:45401\r\na=ptime:20\r\n'

  it('accepts every offered format on our port, receive only', () => {
    const answer = forkAnswerSdp(offer, [40000])
    expect(answer).toContain('c=IN IP4 127.0.0.1\r\n')
    expect(answer).toContain('m=audio 40000 RTP/AVP 0 8 101\r\n')
    expect(answer).toContain('a=rtpmap:8 PCMA/8000\r\n')
    expect(answer).toContain('a=fmtp:101 0-15\r\n')
    expect(answer).toContain('a=recvonly\r\n')
    expect(answer).not.toContain('sendonly')
    expect(answer).not.toContain('a=rtcp:')
  })

  it('answers one m= line per offered one, refusing those beyond our ports with port 0', () => {
    const two = offer + offer.slice(offer.indexOf('m=audio')).replace('45400', '45412')
    const answer = forkAnswerSdp(two, [40000])
    expect(answer.match(/^m=audio (\d+)/gm)).toEqual(['m=audio 40000', 'm=audio 0'])
  })
})
