// A nested call's content as the Code Mode trace shows it. The content is exactly what the program
// received; a read_file page arrives inside its `<path>/<type>/<content>` wrapper, which no card
// shows (seed 002), so the trace shows the numbered lines and the footer the wrapper holds. Any
// other content, or a read_file text that is not exactly that wrapper (an error), is shown as is.

const READ_FILE_WRAPPER = /^<path>[^\n]*<\/path>\n<type>file<\/type>\n<content>\n([\s\S]*)\n<\/content>$/;

export function traceContentText(name: string, content: string): string {
  if (name !== 'read_file') return content;
  return READ_FILE_WRAPPER.exec(content)?.[1] ?? content;
}
