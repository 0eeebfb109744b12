export function ChatsPage(_props: { selected: number | null; onSelect: (id: number | null) => void }) {
  return null
}
