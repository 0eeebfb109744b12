// The conversation as a PDF and a screen capture (spec 001 §2 supervisor toolbar, §9 "Export PDF: A4 portrait, margin
// 10, quality 2, page split at 1400 px, file name chat-{stepId}"). html2pdf.js (with its html2canvas) loads only when
// the supervisor asks: it never weighs on the console's initial JS.

export const PDF_PAGE_SPLIT_PX = 1400

export function pdfOptions(stepId: number) {
  return {
    margin: 10,
    filename: `chat-${stepId}.pdf`,
    image: { type: 'jpeg' as const, quality: 0.98 },
    html2canvas: { scale: 2, useCORS: true },
    jsPDF: { unit: 'mm', format: 'a4', orientation: 'portrait' as const },
    pagebreak: { mode: ['css', 'legacy'], avoid: '[data-testid="message"]' },
  }
}

/**
 * Where the pages split: before the first child that would cross each 1400 px boundary of the content (the children's
 * tops and heights, in px, in order). Returns the indexes of the children a break goes before.
 */
export function pageBreaks(children: readonly { top: number; height: number }[], split = PDF_PAGE_SPLIT_PX): number[] {
  const breaks: number[] = []
  let pageStart = 0
  children.forEach((child, index) => {
    if (index > 0 && child.top + child.height - pageStart > split) {
      breaks.push(index)
      pageStart = child.top
    }
  })
  return breaks
}

/** Clones the conversation with page breaks every 1400 px and saves chat-{stepId}.pdf. */
export async function exportPdf(element: HTMLElement, stepId: number): Promise<void> {
  const { default: html2pdf } = await import('html2pdf.js')
  // The bubbles' container (the viewer's list draws every bubble in flow: data-export-rows), cloned whole.
  const rows = element.querySelector<HTMLElement>('[data-export-rows]') ?? element
  const clone = rows.cloneNode(true) as HTMLElement
  clone.style.height = 'auto'
  clone.style.overflow = 'visible'
  clone.style.width = `${rows.clientWidth}px`
  const children = [...rows.children] as HTMLElement[]
  const base = rows.getBoundingClientRect().top
  const breaks = pageBreaks(children.map((child) => ({ top: child.getBoundingClientRect().top - base, height: child.offsetHeight })))
  const cloned = [...clone.children]
  for (const index of breaks.reverse()) {
    const marker = document.createElement('div')
    marker.className = 'html2pdf__page-break'
    clone.insertBefore(marker, cloned[index])
  }
  // pagebreak is an option of html2pdf.js its type file leaves out.
  await html2pdf()
    .set(pdfOptions(stepId) as object)
    .from(clone)
    .save()
}

/** A PNG of what the viewer shows, downloaded as chat-{stepId}.png. */
export async function captureScreen(element: HTMLElement, stepId: number): Promise<void> {
  const { default: html2pdf } = await import('html2pdf.js')
  const canvas = (await html2pdf()
    .set({ html2canvas: { scale: 2 } })
    .from(element)
    .toCanvas()
    .get('canvas')) as HTMLCanvasElement
  const link = document.createElement('a')
  link.download = `chat-${stepId}.png`
  link.href = canvas.toDataURL('image/png')
  link.click()
}
