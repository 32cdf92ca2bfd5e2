// The file viewer's part of the panel store: which file a link opened, at which line. The viewer
// itself (FileViewer.tsx) reads the file; null when it is closed.

export interface FileViewerTarget {
  path: string;
  line?: number;
}

export interface FileViewerSlice {
  fileViewer: FileViewerTarget | null;
  openFileViewer(target: FileViewerTarget): void;
  closeFileViewer(): void;
}

type ViewerSet = (partial: Partial<FileViewerSlice>) => void;

export const fileViewerSlice = (set: ViewerSet): FileViewerSlice => ({
  fileViewer: null,
  openFileViewer: (target) => set({ fileViewer: { ...target } }),
  closeFileViewer: () => set({ fileViewer: null }),
});
