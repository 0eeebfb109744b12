import { PERMISSIONS } from './permissions.ts'
import { ENTITY_PERMISSIONS, PLATFORM_PERMISSIONS } from './entities/index.ts'

// Every codename a group may hold: the named ones and every settings entity's view/add/change/delete. Kept apart from
// permissions.ts because it pulls in the whole entity registry: the server and the settings screens need it, the
// sign-in page must not (its bundle budget is 150 KB).
// Once each: an entity may use a named codename (the CRM's clients and leads take the spec's sites.*_client).
export const ALL_PERMISSIONS: readonly string[] = [...new Set([...Object.values(PERMISSIONS).filter((p) => p !== PERMISSIONS.myProfile), ...ENTITY_PERMISSIONS])]

/**
 * Every codename a route may declare: ALL_PERMISSIONS and the platform operator's (`platform.add_site`), which no
 * group may hold, so those routes answer 403 to every site role (the operator acts through `npm run site`).
 */
export const ROUTE_PERMISSIONS: readonly string[] = [...ALL_PERMISSIONS, ...PLATFORM_PERMISSIONS]
