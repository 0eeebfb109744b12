// Websocket contracts: action names and payload schemas of the service socket, the chat socket and the visitor socket.
export * from './service-socket.ts'
export * from './chat-socket.ts'
export * from './visitor-socket.ts'
export * from './wallboard.ts'
