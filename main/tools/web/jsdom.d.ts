// jsdom 29 ships no types (@types/jsdom stops at 28): the part web_fetch's reader uses.
declare module 'jsdom' {
  export class VirtualConsole {}

  export interface JsdomOptions {
    url?: string;
    contentType?: string;
    virtualConsole?: VirtualConsole;
  }

  export interface JsdomNodeList {
    readonly length: number;
  }

  /** An `<a>` or `<img>`: `href` and `src` read back resolved against the page's URL. */
  export interface JsdomLinkElement {
    readonly href?: string;
    readonly src?: string;
    setAttribute(name: string, value: string): void;
  }

  export interface JsdomDocument {
    title: string;
    readonly body: { innerHTML: string } | null;
    getElementsByTagName(name: string): JsdomNodeList;
    querySelectorAll(selector: string): Iterable<JsdomLinkElement>;
  }

  export class JSDOM {
    constructor(input?: string | Uint8Array, options?: JsdomOptions);
    readonly window: { readonly document: JsdomDocument; close(): void };
  }
}
