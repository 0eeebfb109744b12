import type { SocketDefinition } from '../definition.ts'
import { businessSocket } from './business.ts'
import { chatSocket } from './chat.ts'

// Every socket path the host (../host.ts) serves: a new path is one file here and one line in this list.
export const SOCKETS: readonly SocketDefinition[] = [businessSocket, chatSocket]
