// Websocket contracts: action names and payload schemas of the service socket and the chat socket.
export * from './service-socket.ts'
export * from './chat-socket.ts'
