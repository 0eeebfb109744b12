import type { Db } from './client.ts'

// A hot read built once per database handle and run as a named prepared statement (`.prepare(name)` with
// `sql.placeholder`s): Drizzle does not build its SQL again on every request, and PostgreSQL parses and plans it once
// per connection. A request then costs its parameters and one round trip.
export function preparedPerDb<Q>(build: (db: Db) => Q): (db: Db) => Q {
  const built = new WeakMap<Db, Q>()
  return (db) => {
    let query = built.get(db)
    if (!query) built.set(db, (query = build(db)))
    return query
  }
}
