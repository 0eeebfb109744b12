// Where the chat socket lives (spec 001 §7; ARCHITECTURE.md "/ws/chat/"). contract/realtime/chat-socket.ts will own
// it once the chat socket's contract lands; until then the console's one copy is here.
export const CHAT_SOCKET_PATH = '/ws/chat/'
