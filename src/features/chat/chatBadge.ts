import type { MenuBadge, MenuContext } from '../../components/menuTypes.ts'

/** The Chats entry's unread-message badge (spec 000 §2 main menu). */
export function chatUnreadBadge({ chatUnread }: MenuContext): MenuBadge | undefined {
  return chatUnread ? { value: chatUnread > 99 ? '99+' : chatUnread, color: 'success' } : undefined
}
