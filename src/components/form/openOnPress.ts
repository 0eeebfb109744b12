import { useRef, useState } from 'react'
import type { MouseEvent } from 'react'

// A Joy Select opens on the button's click, which the browser fires on the element under both the press and the
// release. When the press makes the layout move — the field the agent leaves shows its error on blur and pushes the
// select down (the webphone's form above the classification, issue 15) — the release lands elsewhere, no click reaches
// the button and the select stays shut. A native <select> opens on the press; so does this: the listbox opens on
// mousedown and the click that may follow on the button is not taken as a second toggle. Keyboard, option picks,
// Escape and blur still close it through Joy (onListboxOpenChange).

type ButtonHandlers = { onMouseDown: (event: MouseEvent) => void; onClick: (event: MouseEvent & { defaultMuiPrevented?: boolean }) => void }

export function useOpenOnPress(disabled = false): {
  listboxOpen: boolean
  onListboxOpenChange: (open: boolean) => void
  button: ButtonHandlers
} {
  const [open, setOpen] = useState(false)
  const openedByPress = useRef(false)
  return {
    listboxOpen: open && !disabled,
    onListboxOpenChange: setOpen,
    button: {
      onMouseDown: (event) => {
        openedByPress.current = false
        if (event.button !== 0 || disabled || open) return
        openedByPress.current = true
        setOpen(true)
      },
      onClick: (event) => {
        if (!openedByPress.current) return
        openedByPress.current = false
        event.defaultMuiPrevented = true
      },
    },
  }
}
