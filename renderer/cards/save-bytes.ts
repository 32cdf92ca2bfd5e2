// Saving bytes or text the panel holds as a file: a download the browser (or Electron, with its
// save dialog) handles, under a name with no folder in it.

/** A file name from a resource's name: its last path segment, without characters file systems refuse. */
export function downloadName(name: string): string {
  const last = name.split(/[\\/]/).findLast((part) => part.length > 0) ?? '';
  const clean = last.replace(/[\u0000-\u001f<>:"|?*]/g, '_').replace(/^\.+/, '');
  return clean.length > 0 ? clean.slice(0, 200) : 'resource';
}

/** Hands `base64` to the browser as a download of type `mime` named after `name`. */
export function saveBytes(base64: string, mime: string, name: string): void {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  saveBlob(new Blob([bytes], { type: mime }), name);
}

/** Hands `text` to the browser as a UTF-8 download of type `mime` named after `name` (an exported session). */
export function saveText(text: string, mime: string, name: string): void {
  saveBlob(new Blob([text], { type: `${mime};charset=utf-8` }), name);
}

function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = downloadName(name);
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken the bytes once the click's task is over.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
