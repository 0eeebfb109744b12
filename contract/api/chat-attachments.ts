import * as v from 'valibot'

// Chat attachments (spec 001 §7 "Attachments"): an agent uploads a file first (its id goes in SendMessageBody's
// `attachment`), and every attachment is read through an authenticated URL: `download=1` answers it as a download,
// `convert_to=mp3` a voice or audio message as MP3.
export const CHAT_ATTACHMENT_PATHS = {
  upload: '/api/v1/chat/attachments/',
  file: (messageId: number | string) => `/api/v1/chat/attachments/${messageId}/`,
} as const

export type ChatUploadAnswer = { id: string; name: string; mime: string; size: number; type: 'photo' | 'video' | 'voice' | 'audio' | 'document' }

export const ChatAttachmentParams = v.object({ messageId: v.pipe(v.string(), v.regex(/^\d{1,15}$/), v.transform(Number)) })

export const ChatAttachmentQuery = v.object({
  download: v.optional(v.picklist(['0', '1', 'true', 'false'])),
  convert_to: v.optional(v.picklist(['mp3'])),
})
