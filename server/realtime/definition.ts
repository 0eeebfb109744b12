import type { FastifyBaseLogger } from 'fastify'
import type * as v from 'valibot'
import type { AppDeps } from '../deps.ts'
import type { Connection, ConnectionRegistry } from './connections.ts'

// What one socket path tells the host (host.ts): where it lives, which client frames it accepts (action → valibot
// schema; any other action is ignored) and what it does with a valid one. The host does everything else: the upgrade,
// credentials, Origin, frame limits, idle pings, session ends, the close codes and the registry.

/** The host's side a definition may use once the server runs. */
export type SocketContext = {
  deps: AppDeps
  log: FastifyBaseLogger
  /** This server instance (several share the bus). */
  instance: string
  /** The connections of this path on this instance. */
  registry: ConnectionRegistry
  /** Work that touches the database: the app's close waits for it before the database closes. */
  track<T>(work: Promise<T>): Promise<T>
}

/** A path while the server runs: made once per app by `open`. */
export type SocketPath<M> = {
  /** A frame whose action is one of `clientMessages`, parsed by its schema. Frames of one connection run in order. */
  dispatch(connection: Connection, frame: M): Promise<void>
  /** The connection closed (its socket is already out of the registry). */
  closed?(connection: Connection): void
  /** The server is closing: before the host closes the sockets (stop timers, stop answering). */
  stop?(): void
  /** After the sockets closed, before the database closes (end bus subscriptions). */
  close?(): Promise<void>
}

export type SocketDefinition<M extends { action: string } = { action: string }> = {
  path: string
  clientMessages: { readonly [action: string]: v.GenericSchema<unknown, M> }
  open(context: SocketContext): Promise<SocketPath<M>>
}

/** Keeps each definition's frame type while the host holds a list of them. */
export function defineSocket<M extends { action: string }>(definition: SocketDefinition<M>): SocketDefinition {
  return definition as unknown as SocketDefinition
}
