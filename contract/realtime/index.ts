// Websocket contracts: action names and payload schemas. The chat socket (/ws/chat/) joins with its issue.
export * from './service-socket.ts'
export * from './visitor-socket.ts'
