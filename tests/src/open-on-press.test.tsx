import { afterEach, describe, expect, it } from 'vitest'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import Option from '@mui/joy/Option'
import Select from '@mui/joy/Select'
import { useOpenOnPress } from '../../src/components/form/openOnPress.ts'

// A select of a form opens on the press (src/components/form/openOnPress.ts): the webphone's classification stayed shut
// when the field the agent left showed its error on blur and the layout moved between the press and the release, so the
// click landed on the field's container instead of the button (issue 15).

function Picker({ disabled = false }: { disabled?: boolean }) {
  const press = useOpenOnPress(disabled)
  return (
    <div data-testid="container">
      <Select
        listboxOpen={press.listboxOpen}
        onListboxOpenChange={press.onListboxOpenChange}
        slotProps={{ button: { ...press.button, 'aria-label': 'Classificação' } }}
        disabled={disabled}
        placeholder="Selecione"
      >
        <Option value={1}>Retorno</Option>
        <Option value={2}>Venda</Option>
      </Select>
    </div>
  )
}

afterEach(cleanup)

describe('useOpenOnPress', () => {
  it('opens on the press, whatever element the release lands on', () => {
    render(<Picker />)
    const button = screen.getByRole('combobox', { name: 'Classificação' })
    fireEvent.mouseDown(button, { button: 0 })
    // The layout moved: the release and its click reach the container, not the button.
    fireEvent.mouseUp(screen.getByTestId('container'))
    fireEvent.click(screen.getByTestId('container'))
    expect(button.getAttribute('aria-expanded')).toBe('true')
  })

  it('a whole click on the button opens it once (not open then shut), a second click shuts it', () => {
    render(<Picker />)
    const button = screen.getByRole('combobox', { name: 'Classificação' })
    fireEvent.mouseDown(button, { button: 0 })
    fireEvent.click(button)
    expect(button.getAttribute('aria-expanded')).toBe('true')
    fireEvent.mouseDown(button, { button: 0 })
    fireEvent.click(button)
    expect(button.getAttribute('aria-expanded')).toBe('false')
  })

  it('picking an option shuts it; the keyboard still opens it; a right press or a disabled select does not', () => {
    const { unmount } = render(<Picker />)
    const button = screen.getByRole('combobox', { name: 'Classificação' })
    fireEvent.mouseDown(button, { button: 2 })
    expect(button.getAttribute('aria-expanded')).toBe('false')
    fireEvent.mouseDown(button, { button: 0 })
    fireEvent.click(screen.getByRole('option', { name: 'Venda' }))
    expect(button.getAttribute('aria-expanded')).toBe('false')
    expect(button.textContent).toContain('Venda')
    fireEvent.keyDown(button, { key: 'ArrowDown' })
    expect(button.getAttribute('aria-expanded')).toBe('true')
    unmount()
    render(<Picker disabled />)
    const off = screen.getByRole('combobox', { name: 'Classificação' })
    fireEvent.mouseDown(off, { button: 0 })
    expect(off.getAttribute('aria-expanded')).toBe('false')
  })
})
