import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { beforeAll } from 'vitest'
import type { LightMyRequestResponse } from 'fastify'
import type { Entity, EntityKey } from '../../../contract/entities/index.ts'
import { entityByKey } from '../../../contract/entities/index.ts'
import { PERMISSIONS } from '../../../contract/permissions.ts'
import { ALL_PERMISSIONS } from '../../../contract/all-permissions.ts'
import { permissionGroups } from '../../../server/db/schema/index.ts'
import { createSite, resolveSite } from '../../../server/sites/site-repo.ts'
import { authChanged } from '../../../server/auth/auth-cache.ts'
import { createGroup, createUser } from '../../../server/users/user-repo.ts'
import type { TestApp } from '../helper.ts'
import { TestClient, useTestApp } from '../helper.ts'
import type { Body } from './valid-body.ts'
import { validBody } from './valid-body.ts'

// One app per test file, and the people the entity tests act as: the demo administrator of site A (every
// codename), a signed-in user of site A holding no settings codename, one whose group's codenames each case sets
// (written behind the server's back, then announced to its caches, so one user serves every entity of the file), and
// an administrator of site B.

export type Actor = {
  client: TestClient
  /** An id of the entity on this actor's site, created through the API on first use. */
  ensure(key: EntityKey): Promise<number>
  create(key: EntityKey, body?: Body): Promise<LightMyRequestResponse>
}

/** A signed-in user of site A whose only group holds exactly the codenames last granted. */
export type Restricted = { client: TestClient; grant(codenames: readonly string[]): Promise<void> }

export type EntitySuite = { t: TestApp; admin: Actor; nobody: TestClient; restricted: Restricted; otherSite: Actor }

/** A multipart body: `params` JSON and one part per file (spec 001 §5 payload rules). */
export function multipart(values: Record<string, unknown>, files: Body['files']) {
  const boundary = `----atende${randomBytes(8).toString('hex')}`
  const parts: Buffer[] = [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="params"\r\n\r\n${JSON.stringify(values)}\r\n`)]
  for (const [field, file] of Object.entries(files)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`),
      file.data,
      Buffer.from('\r\n'),
    )
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`))
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }
}

export function send(client: TestClient, method: 'POST' | 'PUT', url: string, body: Body): Promise<LightMyRequestResponse> {
  if (Object.keys(body.files).length === 0) return client.request(method, url, { payload: body.values })
  const { payload, headers } = multipart(body.values, body.files)
  return client.request(method, url, { payload, headers })
}

function actor(client: TestClient): Actor {
  const ids = new Map<EntityKey, Promise<number>>()
  const self: Actor = {
    client,
    async create(key, body) {
      const entity = entityByKey(key)
      return send(client, 'POST', entity.api, body ?? (await validBody(entity, self.ensure)))
    },
    ensure(key) {
      let id = ids.get(key)
      if (!id && entityByKey(key).platformActions?.includes('add')) {
        // Only the platform operator creates these (a site): the caller's own row stands in.
        id = client.get(entityByKey(key).api).then((response) => response.json().results[0].id as number)
        ids.set(key, id)
      }
      if (!id) {
        id = self.create(key).then((response) => {
          if (response.statusCode !== 201) throw new Error(`creating a ${key} failed: ${response.statusCode} ${response.body}`)
          return response.json().id as number
        })
        ids.set(key, id)
      }
      return id
    },
  }
  return self
}

async function signIn(client: TestClient, username: string, password: string): Promise<TestClient> {
  const response = await client.login(username, password)
  if (response.statusCode !== 200) throw new Error(`sign-in of ${username} failed: ${response.body}`)
  return client
}

export function useEntitySuite(): EntitySuite {
  const t = useTestApp()
  const suite = { t } as EntitySuite
  beforeAll(async () => {
    const db = t.database.db
    const siteA = (await resolveSite(db, 'localhost'))!
    const plain = await createGroup(db, siteA.id, 'Sem configurações', [PERMISSIONS.viewDashboard])
    await createUser(db, { siteId: siteA.id, username: 'nobody', password: 'semacesso123', groupIds: [plain] })
    const granted = await createGroup(db, siteA.id, 'Concedidas no teste', [])
    await createUser(db, { siteId: siteA.id, username: 'restricted', password: 'restrito2030', groupIds: [granted] })
    const siteB = await createSite(db, { domain: 'b.example', name: 'Site B' })
    const everything = await createGroup(db, siteB.id, 'Administradores B', ALL_PERMISSIONS)
    await createUser(db, { siteId: siteB.id, username: 'chief', password: 'chefeb2025x', groupIds: [everything] })
    suite.admin = actor(await signIn(new TestClient(t.app), 'admin', 'gestor2025'))
    suite.nobody = await signIn(new TestClient(t.app), 'nobody', 'semacesso123')
    suite.restricted = {
      client: await signIn(new TestClient(t.app), 'restricted', 'restrito2030'),
      async grant(codenames) {
        await db
          .update(permissionGroups)
          .set({ permissions: [...codenames] })
          .where(eq(permissionGroups.id, granted))
        await authChanged(db, t.bus, { kind: 'site', site_id: siteA.id })
      },
    }
    suite.otherSite = actor(await signIn(new TestClient(t.app, { host: 'b.example' }), 'chief', 'chefeb2025x'))
  })
  return suite
}

export function detailPath(entity: Entity, id: number): string {
  return `${entity.api}${id}/`
}
