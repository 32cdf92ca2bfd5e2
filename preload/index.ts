import { contextBridge, ipcRenderer } from 'electron';
import { createPanelApi } from './panel-api.ts';

// The sandboxed preload: exposes the panel API as `window.pythia`, and nothing else.
contextBridge.exposeInMainWorld('pythia', createPanelApi(ipcRenderer));
