import type { FastifyInstance } from 'fastify'
import { RECORDING_PLAYER_PATH } from '../../contract/api/calls.ts'
import { PERMISSIONS } from '../../contract/permissions.ts'
import { sendRecording } from '../telephony/control/routes.ts'

// The recording player's media path (spec 001 §7): `/recordings/player/{callId}`, outside /api like the uploads, for
// the call-detail dialog's <audio> element and its download link. Same permission (download_monitor_file), tenancy
// and visibility as GET /api/v1/report/recordings/{callId}/, and the same recordings store: `file_response=false`
// (or nothing) answers inline audio/mpeg, `download=1&extension=mp3` an attachment. Not `bare`: the session cookie
// the browser sends with the media request signs it in.
export async function recordingRoutes(app: FastifyInstance): Promise<void> {
  app.get(RECORDING_PLAYER_PATH, { config: { permission: PERMISSIONS.downloadMonitorFile } }, async (request, reply) => sendRecording(app, request, reply))
}
